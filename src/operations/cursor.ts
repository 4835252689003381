/**
 * Paging cursors. A page's `next` is its last item's place in the operation's order (the
 * search-after key its port returned: sort values and a unique tie-break, never an offset), bound
 * to the query it came from, in an opaque string the client sends back as `cursor`:
 *
 *   base64url(JSON [version, query hash, key]) "." checksum
 *
 * The query hash covers the operation and what decides the set and order of matches (filters,
 * sort, name, days; not `limit`, which may change from page to page). The checksum catches a
 * cursor cut short or edited by hand. A cursor that fails either is a 400 naming `cursor`; its key
 * is then checked field by field, so that nothing a client sends reaches a query unchecked.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';
import { isCalendarDate } from '../domain/calendar-date.ts';
import type { CompanyKey, SortOrder } from '../domain/criteria.ts';
import { invalidInput } from '../errors.ts';
import type { NameKey } from '../domain/name-search.ts';
import type { RecentFilingKey } from '../domain/filings.ts';

const VERSION = 1;

export const cursorInput = z
  .string()
  .max(2000, 'must be at most 2000 characters: send the `next` of the page before as it is')
  .optional()
  .describe(
    'To read the next page: the `next` of the page before, as it is, with the same other arguments (limit may ' +
      'change). Leave out for the first page',
  );

/** `next` in the answers: the cursor of the following page, null on the last page. */
export const nextOutput = z
  .string()
  .nullable()
  .describe('Send as `cursor` (same other arguments) for the next page; null on the last page');

/** The cursor of the page after `key`, or null when there is none. */
export function encodeCursor(operation: string, query: unknown, key: readonly unknown[] | null): string | null {
  if (key === null) return null;
  const payload = JSON.stringify([VERSION, queryHash(operation, query), key]);
  return `${Buffer.from(payload).toString('base64url')}.${checksum(payload)}`;
}

/**
 * The key in `cursor` (undefined without one), checked against the query it must come from and
 * the shape of the operation's key; a 400 naming `cursor` otherwise.
 */
export function decodeCursor<Key>(
  cursor: string | undefined,
  { operation, query, key }: { operation: string; query: unknown; key: z.ZodType<Key> },
): Key | undefined {
  if (cursor === undefined) return undefined;
  const [body = '', sum, ...extra] = cursor.split('.');
  const payload = Buffer.from(body, 'base64url').toString('utf8');
  if (extra.length > 0 || sum === undefined || !/^[\w-]+$/.test(body) || sum !== checksum(payload))
    throw badCursor('it is not one this service gave, or it was cut short or changed');
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    throw badCursor('it is not one this service gave');
  }
  if (!Array.isArray(parsed) || parsed[0] !== VERSION || parsed.length !== 3)
    throw badCursor('it is not one this service gave');
  if (parsed[1] !== queryHash(operation, query))
    throw badCursor(
      'it belongs to another query: send the same arguments as for the page it came from (only limit may ' +
        'change), or leave cursor out to start again',
    );
  const checked = key.safeParse(parsed[2]);
  if (!checked.success) throw badCursor('it is not one this service gave');
  return checked.data;
}

function badCursor(why: string) {
  return invalidInput(`Invalid "cursor": ${why}.`);
}

function checksum(payload: string): string {
  return createHash('sha256').update(`ukcd cursor\n${payload}`).digest('base64url').slice(0, 16);
}

function queryHash(operation: string, query: unknown): string {
  return createHash('sha256')
    .update(canonicalJson([operation, query]))
    .digest('base64url')
    .slice(0, 16);
}

/** JSON with object keys sorted and undefined left out, so that equal queries hash alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

const companyNumber = z.string().min(1).max(32);
const date = z.string().refine(isCalendarDate);
/** Sort fields whose values are dates, and the one that is text; the others are numbers. */
const DATE_FIELDS: ReadonlySet<string> = new Set(['incorporated', 'published', 'accounts_next_due']);

/** A criteria search's key: the sort field's value, of that field's type, or null; the company number. */
export function companyKeySchema(sort: SortOrder): z.ZodType<CompanyKey> {
  const value = sort.field === 'name' ? z.string().max(1000) : DATE_FIELDS.has(sort.field) ? date : z.number().finite();
  return z.tuple([value.nullable(), companyNumber]).readonly();
}

export const nameKeySchema: z.ZodType<NameKey> = z
  .tuple([z.number().int().min(0).max(7), z.number().int().min(0).max(10_000), companyNumber])
  .readonly();

export const recentFilingKeySchema: z.ZodType<RecentFilingKey> = z
  .tuple([date, companyNumber, date, z.string().max(1000), z.string().max(1000)])
  .readonly();

/** The Markdown's last line before the envelope: how many of how many, and the next page's cursor. */
export function pageLine(shown: number, total: number, next: string | null): string {
  const counted = `${shown.toLocaleString('en-GB')} of ${total.toLocaleString('en-GB')}`;
  return next === null ? `${counted}; no more.` : `${counted}; more: cursor=${next}`;
}
