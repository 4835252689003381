/**
 * Who filed and for which periods: company number, name, accounting standard, balance sheet date,
 * period start, and the prior period's dates, read from a scanned document.
 */
import type { AccountingStandard } from '../domain/figures.ts';
import { companyNumberFromDocument } from '../domain/company-number.ts';
import { ACCOUNTING_STANDARD_MEMBERS, TEXT_CONCEPTS } from './concepts.ts';
import { formatKey, readDate } from './ixbrl-transforms.ts';
import type { NumericFact } from './read-facts.ts';
import type { RawFact, ScannedDocument } from './scan-document.ts';
import { localName } from './scan-document.ts';

const EMPTY_TEXT_FORMATS = new Set(['nocontent', 'fixedempty']);

/** Text of a non-numeric fact, following its `ix:continuation` chain, whitespace collapsed. */
function factText(doc: ScannedDocument, fact: RawFact): string {
  // ixt:nocontent (registries 2-3) and fixed-empty (4-5): the value is empty whatever is displayed.
  if (EMPTY_TEXT_FORMATS.has(formatKey(fact.format))) return '';
  let text = fact.text;
  const seen = new Set<string>();
  for (let next = fact.continuedAt; next && !seen.has(next);) {
    seen.add(next);
    const part = doc.continuations.get(next);
    if (!part) break;
    text += part.text;
    next = part.continuedAt;
  }
  return text.replace(/\s+/g, ' ').trim();
}

function textFacts(doc: ScannedDocument, concepts: readonly string[]): RawFact[] {
  return doc.facts.filter((fact) => !fact.numeric && concepts.includes(localName(fact.name)));
}

export function entityName(doc: ScannedDocument): string | null {
  for (const fact of textFacts(doc, TEXT_CONCEPTS.entityName)) {
    const text = factText(doc, fact);
    if (text) return text;
  }
  return null;
}

/** The company number the document states: the registered-number fact, else the context identifiers. */
export function documentCompanyNumber(doc: ScannedDocument): string | null {
  for (const fact of textFacts(doc, TEXT_CONCEPTS.companyNumber)) {
    const number = companyNumberFromDocument(factText(doc, fact));
    if (number) return number;
  }
  const counts = new Map<string, number>();
  for (const context of doc.contexts.values()) {
    // Some software swaps the two: scheme="9796632", text "http://www.companieshouse.gov.uk/".
    const raw = /companieshouse/i.test(context.scheme)
      ? context.identifier
      : /companieshouse/i.test(context.identifier)
        ? context.scheme
        : null;
    const number = raw === null ? null : companyNumberFromDocument(raw);
    if (number) counts.set(number, (counts.get(number) ?? 0) + 1);
  }
  return mostCommon(counts);
}

/** The standard from the FRS AccountingStandardsDimension, else from the taxonomy the filing uses. */
export function accountingStandard(doc: ScannedDocument): AccountingStandard {
  for (const context of doc.contexts.values()) {
    for (const { dimension, member } of context.dimensions) {
      if (dimension === 'AccountingStandardsDimension') {
        const standard = ACCOUNTING_STANDARD_MEMBERS[member];
        if (standard) return standard;
      }
    }
  }
  const references = [...doc.schemaRefs, ...doc.namespaces.values()];
  const test = (pattern: RegExp) => references.some((ref) => pattern.test(ref));
  if (test(/FRS-105/i)) return 'FRS 105';
  if (test(/FRS-101|\/IFRS[-/]|uk-ifrs|xbrl\.ifrs\.org/i)) return 'IFRS';
  if (test(/FRS-102|\/char[-/]/i)) return 'FRS 102';
  if (test(/uk-gaap|\/uk\/gaap\/|\/uk\/fr\/gaap\//i)) return 'UK GAAP';
  return 'unknown';
}

export interface Periods {
  balanceSheetDate: string | null;
  periodStart: string | null;
  priorDate: string | null;
  priorStart: string | null;
}

/**
 * The current period ends at the balance sheet date the filing states when the file name's date
 * agrees with it (without a date in the file name: when `BalanceSheetDate` and
 * `EndDateForPeriodCoveredByReport` agree), whether or not any figure is tagged there: a filing
 * that tags only its comparative column has no current figures, and its dates stay as stated. A
 * stated date nothing confirms is used when facts are reported at it; otherwise the current period
 * ends at the latest date with undimensioned facts. The prior period is the earlier date with most
 * undimensioned facts outside the current period, preferring the day before the current period
 * starts.
 */
export function findPeriods(doc: ScannedDocument, facts: readonly NumericFact[], fileNameDate: string | null): Periods {
  const factsAt = new Map<string, number>();
  for (const fact of facts) {
    if (fact.context.dimensions.length === 0) factsAt.set(fact.date, (factsAt.get(fact.date) ?? 0) + 1);
  }
  const statedBalanceSheet = statedDates(doc, TEXT_CONCEPTS.balanceSheetDate);
  const statedEnd = statedDates(doc, TEXT_CONCEPTS.periodEnd);
  const stated = [...statedBalanceSheet, ...statedEnd];
  const confirmed =
    fileNameDate !== null
      ? stated.find((date) => date === fileNameDate)
      : statedBalanceSheet.find((date) => statedEnd.includes(date));
  const latest = [...factsAt.keys()].sort().at(-1) ?? null;
  const balanceSheetDate = confirmed ?? stated.find((date) => factsAt.has(date)) ?? latest ?? stated[0] ?? null;
  if (balanceSheetDate === null) return { balanceSheetDate, periodStart: null, priorDate: null, priorStart: null };

  const statedStart = statedDates(doc, TEXT_CONCEPTS.periodStart).find((date) => date < balanceSheetDate);
  const periodStart = statedStart ?? commonStart(facts, balanceSheetDate) ?? contextStart(doc, balanceSheetDate);

  const dayBefore = periodStart === null ? null : addDays(periodStart, -1);
  const earlier = [...factsAt.entries()].filter(
    ([date]) => date < balanceSheetDate && (periodStart === null || date < periodStart),
  );
  let priorDate: string | null = null;
  if (dayBefore !== null && factsAt.has(dayBefore)) priorDate = dayBefore;
  else if (earlier.length > 0) {
    earlier.sort(([da, ca], [db, cb]) => cb - ca || (da < db ? 1 : -1));
    priorDate = earlier[0]![0];
  }
  const priorStart = priorDate === null ? null : (commonStart(facts, priorDate) ?? contextStart(doc, priorDate));
  return { balanceSheetDate, periodStart, priorDate, priorStart };
}

function statedDates(doc: ScannedDocument, concepts: readonly string[]): string[] {
  const dates: string[] = [];
  for (const fact of textFacts(doc, concepts)) {
    const date = readDate(fact.format, factText(doc, fact));
    if (date.ok) dates.push(date.value);
  }
  return dates;
}

/** The start most facts ending on `date` share; ties go to the earliest (the full year). */
function commonStart(facts: readonly NumericFact[], date: string): string | null {
  const counts = new Map<string, number>();
  for (const fact of facts) {
    const start = fact.context.startDate;
    if (fact.periodType === 'duration' && fact.date === date && start && start < date) {
      counts.set(start.slice(0, 10), (counts.get(start.slice(0, 10)) ?? 0) + 1);
    }
  }
  let best: string | null = null;
  let bestCount = 0;
  for (const [start, count] of counts) {
    if (count > bestCount || (count === bestCount && best !== null && start < best)) {
      best = start;
      bestCount = count;
    }
  }
  return best;
}

/**
 * When no numeric fact covers a period, the document's own undimensioned duration contexts
 * ending at `date` still state it (plain XBRL keeps the year's context for text facts); of
 * several, the one closest to a year.
 */
function contextStart(doc: ScannedDocument, date: string): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const context of doc.contexts.values()) {
    const start = context.startDate?.slice(0, 10);
    if (!start || context.endDate?.slice(0, 10) !== date || context.dimensions.length > 0 || start >= date) continue;
    const days = (Date.parse(date) - Date.parse(start)) / 86_400_000;
    const distance = Math.abs(days - 365);
    if (distance < bestDistance) {
      best = start;
      bestDistance = distance;
    }
  }
  return best;
}

function mostCommon(counts: Map<string, number>): string | null {
  let best: string | null = null;
  let bestCount = 0;
  for (const [value, count] of counts) {
    if (count > bestCount) {
      best = value;
      bestCount = count;
    }
  }
  return best;
}

function addDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
