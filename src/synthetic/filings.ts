/**
 * A stream of synthetic accounts filings, each with the figures a correct parser must read from it
 * ("known figures in"), in the order Companies House publishes them: by publication date, so the
 * stream can be cut into daily bulk zips without holding it in memory.
 *
 * Every filing is a pure function of (seed, company index, period), so the stream is reproducible
 * and any part of it can be regenerated alone. Ordering millions of filings by date costs one
 * small heap entry per company: the figures and bytes of a filing are only made when it is due.
 */
import type { AccountingStandard, FigureSet } from '../domain/figures.ts';
import { filesElectronically, syntheticCompany } from './companies.ts';
import { figureHistory } from './figure-history.ts';
import type { AccountsStyle, SyntheticCompany } from './companies.ts';
import { compactDate, dayNumber, fromDayNumber, weekday, yearOf } from './dates.ts';
import { renderIxbrlFiling } from './ixbrl-writer.ts';
import { accountingPeriod, firstPeriodIndexFrom, periodEnd } from './periods.ts';
import { labelSeed, Random } from './random.ts';
import { statusOnDay } from './register-life.ts';
import { renderPlainXbrlFiling } from './xbrl-writer.ts';

export interface ExpectedFiling {
  company_number: string;
  entity_name: string;
  balance_sheet_date: string;
  period_start: string | null;
  standard: Extract<AccountingStandard, 'FRS 105' | 'FRS 102' | 'UK GAAP'>;
  current: FigureSet;
  prior: FigureSet | null;
}

export interface SyntheticFiling {
  /** As a bulk zip member: `Prod223_<run>_<company number>_<YYYYMMDD>.html`, `.xml` for plain XBRL. */
  fileName: string;
  bytes: Buffer;
  /** ISO date the filing appears in the daily bulk data. */
  published: string;
  style: AccountsStyle;
  expected: ExpectedFiling;
}

export interface SyntheticFilingsOptions {
  seed: number;
  /** How many companies file: companies with no accounts in the window are passed over. */
  companies: number;
  /** Balance sheet years per company (default 3). */
  yearsPerCompany?: number;
  /** First balance sheet year (default: the window ends with 2023). */
  fromYear?: number;
  /**
   * Leave out (without building them) filings published before this ISO date: the rest of the
   * stream is exactly as it would be, so a cut-off run of the generator can resume.
   */
  publishedFrom?: string;
  /** Stop before filings published on or after this ISO date (to split a long run in two). */
  publishedBefore?: string;
}

const FIGURES = labelSeed('figures');
const PUBLISHED = labelSeed('published');
const RENDER = labelSeed('render');

const STANDARDS: Record<AccountsStyle, ExpectedFiling['standard']> = {
  frs105: 'FRS 105',
  frs102: 'FRS 102',
  ukgaap2009: 'UK GAAP',
  'xbrl-plain': 'UK GAAP',
};

interface Scheduled {
  periodIndex: number;
  publishedDay: number;
}

/** The window of a stream of filings: its seed, its first balance sheet year and how many years. */
interface FilingWindow {
  seed: number;
  fromYear: number;
  years: number;
}

/** One accounting period of one company of the generator: what its publication day is drawn from. */
interface CompanyPeriod {
  seed: number;
  index: number;
  periodIndex: number;
}

/**
 * When the accounts for a period reach the bulk data: mostly in the months before the nine-month
 * deadline, a few early, a few late. Daily bulk files are dated Tuesday to Saturday.
 */
function publicationDay({ seed, index, periodIndex }: CompanyPeriod, balanceSheetDate: string): number {
  const rng = Random.derive(seed, index, periodIndex, PUBLISHED);
  const band = rng.weighted<readonly [number, number]>([
    [[25, 90], 15],
    [[90, 240], 45],
    [[240, 272], 36],
    [[273, 380], 4],
  ]);
  let day = dayNumber(balanceSheetDate) + rng.int(band[0], band[1]);
  const wd = weekday(fromDayNumber(day));
  if (wd === 0) day += 2;
  else if (wd === 1) day += 1;
  return day;
}

/**
 * The day (days since 1970-01-01) the accounts for period `periodIndex` of `company` are filed and
 * published, on the very schedule `syntheticFilings` uses. It is defined for every period, those
 * filed on paper included (they never reach the bulk data but are filed all the same), so that the
 * register can say which accounts a company had filed on any date.
 */
export function accountsPublicationDay(seed: number, company: SyntheticCompany, periodIndex: number): number {
  return publicationDay({ seed, index: company.index, periodIndex }, periodEnd(company, periodIndex));
}

/**
 * The company's filings in the window, ordered by publication. A dissolved company files nothing
 * more: accounts that would have been published on or after the day it was dissolved (by the
 * register's life of the company, `register-life.ts`) are left out, so the register and the
 * accounts stream tell one story.
 */
function schedule({ seed, fromYear, years }: FilingWindow, company: SyntheticCompany): Scheduled[] {
  const lastYear = fromYear + years - 1;
  const out: Scheduled[] = [];
  const first = firstPeriodIndexFrom(company, fromYear);
  for (let k = first; k < first + years; k++) {
    const period = accountingPeriod(company, k);
    if (yearOf(period.end) > lastYear) break;
    if (!filesElectronically(company, period.end)) continue;
    out.push({
      periodIndex: k,
      publishedDay: publicationDay({ seed, index: company.index, periodIndex: k }, period.end),
    });
  }
  out.sort((a, b) => a.publishedDay - b.publishedDay);
  const last = out[out.length - 1];
  if (last === undefined) return out;
  // The company's life up to its last publication says whether it was dissolved before then.
  const { dissolvedDay } = statusOnDay(seed, company, last.publishedDay);
  return dissolvedDay === null ? out : out.filter((entry) => entry.publishedDay < dissolvedDay);
}

/**
 * Whether `company` has accounts in the bulk data of the window (from `fromYear`, `years` balance
 * sheet years): those syntheticFilings passes over have none.
 */
export function filesInWindow(seed: number, fromYear: number, years: number, company: SyntheticCompany): boolean {
  return schedule({ seed, fromYear, years }, company).length > 0;
}

/** Days the bulk product is published on (Tuesday to Saturday) from the epoch to `day`. */
function publicationDaysBefore(day: number): number {
  // Day 0 (1970-01-01) was a Thursday; shift so that weeks start on Sunday.
  const n = day + 4;
  return Math.floor(n / 7) * 5 + Math.min(5, Math.max(0, (n % 7) - 2));
}

const RUN_REFERENCE_DAY = dayNumber('2023-03-02');
const RUN_REFERENCE = 3384;

/** The four-digit run number of the daily product, counting publication days from a known file. */
export function runNumber(published: string): string {
  const run = RUN_REFERENCE + publicationDaysBefore(dayNumber(published)) - publicationDaysBefore(RUN_REFERENCE_DAY);
  return String(((((run - 1) % 9999) + 9999) % 9999) + 1).padStart(4, '0');
}

/** A binary min-heap of numbers: the merge of every company's stream by publication date. */
class MinHeap {
  private readonly items: number[] = [];

  get size(): number {
    return this.items.length;
  }

  push(value: number): void {
    const a = this.items;
    a.push(value);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (a[parent]! <= value) break;
      a[i] = a[parent]!;
      i = parent;
    }
    a[i] = value;
  }

  pop(): number {
    const a = this.items;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= a.length) break;
        const right = left + 1;
        const child = right < a.length && a[right]! < a[left]! ? right : left;
        if (a[child]! >= last) break;
        a[i] = a[child]!;
        i = child;
      }
      a[i] = last;
    }
    return top;
  }
}

/** Heap keys order by day, then by the company's slot; both fit exactly in a double. */
const SLOT_BITS = 2 ** 26;

/** Build one filing of `company`: its bytes and what a parser must find in them. */
function syntheticFiling(window: FilingWindow, company: SyntheticCompany, planned: Scheduled): SyntheticFiling {
  const { seed, fromYear, years } = window;
  const { periodIndex, publishedDay } = planned;
  // The history up to this period only: its earlier years are the same whatever follows them.
  const first = firstPeriodIndexFrom(company, fromYear);
  if (periodIndex < first || periodIndex >= first + years) {
    throw new Error(`company ${company.company_number} has no period ${periodIndex} in the window`);
  }
  const history = figureHistory(
    company,
    periodIndex - first + 1,
    Random.derive(seed, company.index, FIGURES),
    fromYear,
  );
  const year = history[history.length - 1]!;
  const published = fromDayNumber(publishedDay);
  const rng = Random.derive(seed, company.index, periodIndex, RENDER);
  const input = {
    company,
    balanceSheetDate: year.balanceSheetDate,
    periodStart: year.periodStart,
    current: year.figures,
    prior: year.priorFigures,
    priorBalanceSheetDate: year.priorBalanceSheetDate,
    priorPeriodStart: year.priorPeriodStart,
  };
  const style = year.style;
  const plain = style === 'xbrl-plain';
  const text = style === 'xbrl-plain' ? renderPlainXbrlFiling(input, rng) : renderIxbrlFiling({ ...input, style }, rng);
  return {
    fileName: `Prod223_${runNumber(published)}_${company.company_number}_${compactDate(year.balanceSheetDate)}.${plain ? 'xml' : 'html'}`,
    bytes: Buffer.from(text, 'utf8'),
    published,
    style: year.style,
    expected: {
      company_number: company.company_number,
      entity_name: company.name,
      balance_sheet_date: year.balanceSheetDate,
      period_start: year.periodStart,
      standard: STANDARDS[year.style],
      current: year.figures,
      prior: year.priorFigures,
    },
  };
}

/**
 * Synthetic filings of `companies` companies over `yearsPerCompany` balance sheet years from
 * `fromYear`, in publication order. Plain XBRL appears only for balance sheet dates 2008–2013,
 * UK GAAP 2009 inline XBRL for 2011–2016, FRS 102 and FRS 105 from 2016 on.
 */
export function* syntheticFilings(options: SyntheticFilingsOptions): Generator<SyntheticFiling> {
  const seed = options.seed;
  const years = options.yearsPerCompany ?? 3;
  const fromYear = options.fromYear ?? 2024 - years;
  const window: FilingWindow = { seed, fromYear, years };
  if (!Number.isInteger(options.companies) || options.companies < 0) {
    throw new Error(`companies must be a whole number, got ${options.companies}`);
  }
  if (!Number.isInteger(years) || years < 1) throw new Error(`yearsPerCompany must be at least 1, got ${years}`);
  if (options.companies >= SLOT_BITS) throw new Error(`at most ${SLOT_BITS - 1} companies`);

  const indices: number[] = [];
  const cursors: number[] = [];
  const heap = new MinHeap();
  // Companies incorporated after the window, or that filed on paper, are passed over; give up
  // if the window holds almost nobody (a window before electronic filing began).
  const limit = options.companies * 50 + 1000;
  for (let index = 0; indices.length < options.companies && index < limit; index++) {
    const company = syntheticCompany(seed, index);
    const planned = schedule(window, company);
    if (planned.length === 0) continue;
    heap.push(planned[0]!.publishedDay * SLOT_BITS + indices.length);
    indices.push(index);
    cursors.push(0);
  }

  const firstDay = options.publishedFrom ? dayNumber(options.publishedFrom) : -Infinity;
  const endDay = options.publishedBefore ? dayNumber(options.publishedBefore) : Infinity;
  while (heap.size > 0) {
    const key = heap.pop();
    const slot = key % SLOT_BITS;
    const day = (key - slot) / SLOT_BITS;
    if (day >= endDay) return;
    const company = syntheticCompany(seed, indices[slot]!);
    const planned = schedule(window, company);
    const entry = planned[cursors[slot]!]!;
    if (day >= firstDay) yield syntheticFiling(window, company, entry);
    const next = planned[++cursors[slot]!];
    if (next) heap.push(next.publishedDay * SLOT_BITS + slot);
  }
}
