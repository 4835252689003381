/**
 * Insolvency cases as the insolvency-cases stream carries them (the Public Data API's company
 * insolvency resource: `cases`, each with a type, its dates and its practitioners), what the
 * store keeps of them, and how a case is told apart from another one of the same company.
 */

/** One dated step of a case (`wound-up-on`, `administration-started-on`, …). */
interface InsolvencyCaseDate {
  type: string;
  /** ISO date. */
  date: string;
}

/** An insolvency practitioner acting (or who acted) for a case. */
interface InsolvencyPractitioner {
  name: string;
  role: string | null;
  appointed_on: string | null;
  ceased_to_act_on: string | null;
}

export interface InsolvencyCase {
  /** The case's number within the company, as published ("1", "2"); null when not given. */
  number: string | null;
  /** `creditors-voluntary-liquidation`, `in-administration`, … */
  type: string;
  dates: InsolvencyCaseDate[];
  practitioners: InsolvencyPractitioner[];
}

/**
 * The date types that close a case: a case with one of them dated before a day had ended by
 * then (a watch taken after it ended does not report it as new).
 */
const CLOSING_DATE_TYPES: ReadonlySet<string> = new Set([
  'administration-discharged-on',
  'administration-ended-on',
  'concluded-winding-up-on',
  'case-end-on',
  'voluntary-arrangement-ended-on',
  'moratorium-ended-on',
]);

/** A case's identity within its company: its number, else its type and first date. */
export function insolvencyCaseKey(insolvencyCase: Pick<InsolvencyCase, 'number' | 'type' | 'dates'>): string {
  if (insolvencyCase.number !== null) return insolvencyCase.number;
  const first = insolvencyCase.dates.map((d) => d.date).sort()[0];
  return `${insolvencyCase.type}@${first ?? ''}`;
}

/** Whether the case had ended before `day` (ISO date): one of its closing dates is earlier. */
export function endedBefore(insolvencyCase: Pick<InsolvencyCase, 'dates'>, day: string): boolean {
  return insolvencyCase.dates.some((d) => CLOSING_DATE_TYPES.has(d.type) && d.date < day);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The cases of a company insolvency resource (an insolvency-cases event's `data`), or the reason
 * they cannot be read: `cases` not a list, a case without a type, a date that is not YYYY-MM-DD.
 * All or nothing, so an event is never applied in part.
 */
export function readInsolvencyCases(data: Record<string, unknown>): InsolvencyCase[] | string {
  if (!Array.isArray(data.cases)) return 'no list of cases in the event';
  const cases: InsolvencyCase[] = [];
  for (const [at, raw] of (data.cases as unknown[]).entries()) {
    if (typeof raw !== 'object' || raw === null) return `case ${at + 1} is not an object`;
    const item = raw as Record<string, unknown>;
    if (typeof item.type !== 'string' || item.type.trim() === '') return `case ${at + 1} has no type`;
    const dates: InsolvencyCaseDate[] = [];
    for (const entry of Array.isArray(item.dates) ? (item.dates as unknown[]) : []) {
      const d = (entry ?? {}) as Record<string, unknown>;
      if (typeof d.date !== 'string' || !DATE.test(d.date)) {
        return `case ${at + 1} has a date that is not YYYY-MM-DD: ${JSON.stringify(d.date ?? null)}`;
      }
      dates.push({ type: typeof d.type === 'string' ? d.type : 'date', date: d.date });
    }
    const practitioners: InsolvencyPractitioner[] = [];
    for (const entry of Array.isArray(item.practitioners) ? (item.practitioners as unknown[]) : []) {
      const p = (entry ?? {}) as Record<string, unknown>;
      const day = (value: unknown, field: string): string | null | Error => {
        if (value === undefined || value === null || value === '') return null;
        return typeof value === 'string' && DATE.test(value)
          ? value
          : new Error(`case ${at + 1} has a practitioner's ${field} that is not YYYY-MM-DD: ${JSON.stringify(value)}`);
      };
      const appointed = day(p.appointed_on, 'appointed_on');
      const ceased = day(p.ceased_to_act_on, 'ceased_to_act_on');
      if (appointed instanceof Error) return appointed.message;
      if (ceased instanceof Error) return ceased.message;
      practitioners.push({
        name: typeof p.name === 'string' ? p.name : '',
        role: typeof p.role === 'string' ? p.role : null,
        appointed_on: appointed,
        ceased_to_act_on: ceased,
      });
    }
    const number = typeof item.number === 'string' || typeof item.number === 'number' ? String(item.number) : null;
    cases.push({ number, type: item.type.trim(), dates, practitioners });
  }
  return cases;
}
