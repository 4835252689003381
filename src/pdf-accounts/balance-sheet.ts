/**
 * The figures of a balance sheet page: each from its labelled line in the current-period column,
 * the statutory unlabelled totals by their place (the current-assets total after its items, the
 * capital-and-reserves total after its items), then the arithmetic of the balance sheet to choose
 * between readings where a label matched more than one line and to say how sure each figure is.
 */
import type { Amount, Row } from './amounts.ts';
import type { Columns } from './columns.ts';
import { currentAmount } from './columns.ts';

type SheetField =
  | 'net_assets'
  | 'equity'
  | 'total_assets_less_current_liabilities'
  | 'cash'
  | 'current_assets'
  | 'creditors_within_one_year'
  | 'creditors_after_one_year'
  | 'debtors'
  | 'fixed_assets'
  | 'net_current_assets'
  | 'provisions'
  | 'prepayments'
  | 'accruals';

export type Confidence = 'high' | 'medium' | 'low';

interface Reading {
  value: number;
  /** From a line with the field's own label, from its statutory place, or stood in by another line. */
  how: 'label' | 'place' | 'implicit';
  confidence: Confidence;
  /** The page lines the value came from: an identity only confirms values read from different lines. */
  sources: number[];
}

export type SheetReadings = Partial<Record<SheetField, Reading>>;

const LABELS: [SheetField, RegExp][] = [
  ['total_assets_less_current_liabilities', /^total assets less current|^assets less current liabilities/],
  ['net_current_assets', /^net current (assets|liabilities|\(liabilities\))/],
  ['net_assets', /^(total )?net (assets|liabilities|\(liabilities\))|^net assets|^total net/],
  [
    'equity',
    /^total equity$|^(total )?shareholders?'?s?'? ?(funds|deficit|equity)|^(total )?members'? ?(funds|deficit)|^total capital and reserves|^capital and reserves$|^equity shareholders/,
  ],
  ['cash', /^cash( at bank| in hand| and cash equivalents| and bank| at hand|$)|^bank and cash|^cash and short/],
  ['debtors', /^debtors|^(trade and other |other )?receivables|^trade and other debtors/],
  ['current_assets', /^(total )?current assets$/],
  [
    'creditors_within_one_year',
    /^(creditors|payables|trade and other payables)\b.*(within|less than) one|^total current liabilities|^creditors due within/,
  ],
  [
    'creditors_after_one_year',
    /^(creditors|payables)\b.*(after|more than) (more than )?one|^total non-current liabilities|^creditors due after/,
  ],
  ['fixed_assets', /^(total )?fixed assets$|^total non-current assets/],
  ['provisions', /^provisions( for liabilities)?( and charges)?$/],
  ['prepayments', /^prepayments( and accrued income)?$/],
  ['accruals', /^accruals( and deferred income)?$/],
];

/** Fields whose printed brackets or "liabilities" label make them negative; creditors never are. */
const SIGNED = new Set<SheetField>([
  'net_assets',
  'equity',
  'total_assets_less_current_liabilities',
  'net_current_assets',
]);

interface Candidate {
  field: SheetField;
  amount: Amount;
  how: Reading['how'];
  label: string;
  line: number;
}

function valueOf(candidate: Candidate, scale: number): number {
  const { amount, field, label } = candidate;
  const magnitude = amount.value * scale;
  if (!SIGNED.has(field)) return magnitude;
  const liabilityLabel =
    /^net (current )?liabilities|deficit|^net \(liabilities\)\/assets|^total net liabilities/.test(label) &&
    !/assets\s*\/\s*\(?liabilities/.test(label);
  return amount.bracketed || (liabilityLabel && !amount.dash) ? -magnitude : magnitude;
}

const SECTION_TOTALS = { fixed: 'fixed_assets', current: 'current_assets', capital: 'equity' } as const;

/** Every reading the page offers, field by field, in page order. */
function candidatesOf(rows: readonly Row[], columns: Columns): Candidate[] {
  const found: Candidate[] = [];
  let section: keyof typeof SECTION_TOTALS | null = null;
  let items: Candidate[] = [];
  let afterNetPosition: 'net_assets' | 'total_assets_less_current_liabilities' | null = null;
  const closeSection = () => {
    // A section of one item and no total: the item is the total (a lone cash line).
    if (section !== null && items.length === 1)
      found.push({ ...items[0]!, field: SECTION_TOTALS[section], how: 'implicit' });
    section = null;
    items = [];
  };
  for (const row of rows) {
    if (columns.headerLine >= 0 && row.line <= columns.headerLine) continue;
    const amount = currentAmount(row, columns);
    const label = row.label;
    if (label !== '' && row.amounts.length === 0) {
      const opens = /^(fixed|non-current) assets$/.test(label)
        ? 'fixed'
        : /^current assets$/.test(label)
          ? 'current'
          : /^capital and reserves|^equity$|^financed by/.test(label)
            ? 'capital'
            : null;
      if (opens !== null || /^creditors|^provisions|^net /.test(label)) closeSection();
      if (opens !== null) section = opens;
      continue;
    }
    if (label === '') {
      if (amount === null) continue;
      const line = row.line;
      if (section !== null && items.length > 0) {
        found.push({ field: SECTION_TOTALS[section], amount, how: 'place', label, line });
        section = null;
        items = [];
      } else if (afterNetPosition !== null) {
        found.push({ field: afterNetPosition, amount, how: 'implicit', label, line });
      }
      afterNetPosition = null;
      continue;
    }
    const match = LABELS.find(([, pattern]) => pattern.test(label));
    afterNetPosition = null;
    if (match && amount !== null) {
      const [field] = match;
      if (!['cash', 'debtors'].includes(field)) closeSection();
      found.push({ field, amount, how: 'label', label, line: row.line });
      if (
        ['total_assets_less_current_liabilities', 'provisions', 'creditors_after_one_year', 'accruals'].includes(field)
      )
        afterNetPosition = 'net_assets';
      if (field === 'net_current_assets') afterNetPosition = 'total_assets_less_current_liabilities';
    }
    const total = match && ['current_assets', 'fixed_assets', 'equity'].includes(match[0]);
    if (section !== null && amount !== null && !total)
      items.push({ field: 'cash', amount, how: 'place', label, line: row.line });
  }
  closeSection();
  // IFRS statements print no net-assets line: their total equity is the net assets.
  const totalEquity = found.find((c) => c.field === 'equity' && /^total equity$/.test(c.label));
  if (totalEquity && !found.some((c) => c.field === 'net_assets'))
    found.push({ ...totalEquity, field: 'net_assets', how: 'implicit' });
  return found;
}

type Values = Partial<Record<SheetField, number>>;

interface Check {
  fields: SheetField[];
  holds: boolean;
}

/** The balance-sheet identities that can be formed from `v`, each holding or not. */
function checksOf(v: Values): Check[] {
  const checks: Check[] = [];
  const has = (...fields: SheetField[]) => fields.every((f) => v[f] !== undefined);
  const optional = (...fields: SheetField[]) => fields.filter((f) => v[f] !== undefined);
  const n = (f: SheetField) => v[f] ?? 0;
  if (has('current_assets', 'creditors_within_one_year', 'net_current_assets'))
    checks.push({
      fields: ['current_assets', 'creditors_within_one_year', 'net_current_assets', ...optional('prepayments')],
      holds: n('current_assets') + n('prepayments') - n('creditors_within_one_year') === n('net_current_assets'),
    });
  if (has('net_current_assets', 'total_assets_less_current_liabilities'))
    checks.push({
      fields: ['net_current_assets', 'total_assets_less_current_liabilities', ...optional('fixed_assets')],
      holds: n('fixed_assets') + n('net_current_assets') === n('total_assets_less_current_liabilities'),
    });
  if (has('total_assets_less_current_liabilities', 'net_assets'))
    checks.push({
      fields: [
        'total_assets_less_current_liabilities',
        'net_assets',
        ...optional('creditors_after_one_year', 'provisions', 'accruals'),
      ],
      holds:
        n('total_assets_less_current_liabilities') - n('creditors_after_one_year') - n('provisions') - n('accruals') ===
        n('net_assets'),
    });
  if (has('net_assets', 'equity')) checks.push({ fields: ['net_assets', 'equity'], holds: v.net_assets === v.equity });
  if (has('current_assets', 'creditors_within_one_year', 'net_assets') && !has('net_current_assets'))
    // Layouts without a net-current-assets line (IFRS): everything at once.
    checks.push({
      fields: [
        'current_assets',
        'creditors_within_one_year',
        'net_assets',
        ...optional('fixed_assets', 'creditors_after_one_year', 'provisions', 'prepayments', 'accruals'),
      ],
      holds:
        n('fixed_assets') +
          n('current_assets') +
          n('prepayments') -
          n('creditors_within_one_year') -
          n('creditors_after_one_year') -
          n('provisions') -
          n('accruals') ===
        n('net_assets'),
    });
  if (has('cash', 'debtors', 'current_assets'))
    checks.push({
      fields: ['cash', 'debtors', 'current_assets'],
      holds: n('cash') + n('debtors') === n('current_assets'),
    });
  return checks;
}

/** A check confirms only values read from different lines (a stand-in repeats its line). */
function independent(check: Check, readings: SheetReadings): boolean {
  const seen = new Set<number>();
  for (const field of check.fields) {
    for (const source of readings[field]!.sources) {
      if (seen.has(source)) return false;
      seen.add(source);
    }
  }
  return true;
}

/** How well a set of readings checks out: identities that hold, less those that fail. */
function scoreOf(readings: SheetReadings): number {
  const checks = checksOf(valuesOf(readings)).filter((check) => independent(check, readings));
  return checks.filter((c) => c.holds).length * 10 - checks.filter((c) => !c.holds).length;
}

function valuesOf(readings: SheetReadings): Values {
  return Object.fromEntries(Object.entries(readings).map(([field, reading]) => [field, reading.value])) as Values;
}

/**
 * The readings of a balance sheet page. Where a field matched several lines, the combination
 * of readings under which most identities hold is taken (the first lines on a tie). Returns the
 * readings and how well they check out (the number of identities holding, times ten, less those
 * failing), so that two OCR passes of one page can be compared.
 */
export function readBalanceSheet(rows: readonly Row[], columns: Columns): { readings: SheetReadings; score: number } {
  const byField = new Map<SheetField, Candidate[]>();
  for (const candidate of candidatesOf(rows, columns)) {
    const list = byField.get(candidate.field) ?? [];
    if (list.length < 3) list.push(candidate);
    byField.set(candidate.field, list);
  }
  const fields = [...byField.keys()];
  let best: { readings: SheetReadings; score: number } | null = null;
  const choose = (i: number, choice: Map<SheetField, Candidate>) => {
    if (i === fields.length) {
      const readings = withStandIns(readingsOf(choice, columns.scale));
      const score = scoreOf(readings);
      if (best === null || score > best.score) best = { readings, score };
      return;
    }
    for (const candidate of byField.get(fields[i]!)!) {
      choice.set(fields[i]!, candidate);
      choose(i + 1, choice);
    }
  };
  choose(0, new Map());
  const chosen = best as { readings: SheetReadings; score: number } | null;
  if (chosen === null) return { readings: {}, score: 0 };
  grade(chosen.readings, columns);
  return chosen;
}

function readingsOf(choice: ReadonlyMap<SheetField, Candidate>, scale: number): SheetReadings {
  const readings: SheetReadings = {};
  for (const [field, candidate] of choice) {
    readings[field] = {
      value: valueOf(candidate, scale),
      how: candidate.how,
      confidence: 'medium',
      sources: [candidate.line],
    };
  }
  return readings;
}

/**
 * high: an identity holds with it among values read from other lines; low: every identity it
 * takes part in fails, it stands in for a missing line, or the current column was a guess;
 * medium: a labelled line that no identity could check.
 */
function grade(readings: SheetReadings, columns: Columns): void {
  const checks = checksOf(valuesOf(readings)).filter((check) => independent(check, readings));
  for (const [field, reading] of Object.entries(readings) as [SheetField, Reading][]) {
    const mine = checks.filter((c) => c.fields.includes(field));
    const sameLineConfirmed = (Object.values(readings) as Reading[]).some(
      (other) =>
        other !== reading &&
        other.value === reading.value &&
        other.sources.join() === reading.sources.join() &&
        checks.some((c) => c.holds && c.fields.some((f) => readings[f] === other)),
    );
    if (mine.some((c) => c.holds) || sameLineConfirmed)
      reading.confidence = columns.basis === 'first' ? 'medium' : 'high';
    else if (mine.length > 0 || reading.how === 'implicit' || columns.basis === 'first') reading.confidence = 'low';
    else reading.confidence = 'medium';
  }
}

/**
 * Lines that stand for a missing one in the short formats: with no net-assets line and nothing
 * below "total assets less current liabilities", that line is the net assets; with no such
 * line, it is the fixed plus the net current assets.
 */
function withStandIns(readings: SheetReadings): SheetReadings {
  const out = { ...readings };
  const nothingBelow = !out.creditors_after_one_year && !out.provisions && !out.accruals;
  if (!out.total_assets_less_current_liabilities && out.net_current_assets) {
    out.total_assets_less_current_liabilities = {
      value: (out.fixed_assets?.value ?? 0) + out.net_current_assets.value,
      how: 'implicit',
      confidence: 'medium',
      sources: [...(out.fixed_assets?.sources ?? []), ...out.net_current_assets.sources],
    };
  }
  const talcl = out.total_assets_less_current_liabilities;
  if (!out.net_assets && talcl && nothingBelow) out.net_assets = { ...talcl, how: 'implicit' };
  return out;
}
