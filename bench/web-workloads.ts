/**
 * What bench/web asks of the web pages: the search page and its as-you-type suggestions with the
 * phrases people type on the way to a real name, and the company page of companies that have
 * accounts. Everything is drawn from the benchmark database with fixed seeds, so two runs on the
 * same data ask the same things.
 */
import type { Sql } from '../src/ports/sql.ts';

export interface WebSamples {
  /** Names of active companies on the register, in a fixed shuffled order. */
  names: string[];
  /** Companies on the register with at least one year of accounts, in a fixed shuffled order. */
  withAccounts: string[];
}

export interface WebWorkload {
  name: 'search_page' | 'suggest' | 'company_page';
  /** The path of the i-th request (i counts up across the run; each connection takes the next). */
  path(i: number): string;
  /** Whether a 200 answer's body found nothing (a search with no match), to report how many did. */
  foundNothing(body: string): boolean;
}

/** About this many rows of each sample, whatever the table's size. */
const SAMPLE_ROWS = 20_000;

/**
 * The sample: a block sample of the table sized for about SAMPLE_ROWS rows (the whole table when
 * it is small), then sorted and shuffled with a fixed seed so that the order does not depend on
 * the sample's block order.
 */
export async function drawWebSamples(sql: Sql): Promise<WebSamples> {
  const percent = async (table: string) => {
    const { rows } = await sql.query<{ n: number }>(
      `SELECT greatest(reltuples, 0)::float8 AS n FROM pg_class WHERE oid = $1::regclass`,
      [table],
    );
    const n = rows[0]?.n ?? 0;
    return n <= SAMPLE_ROWS ? 100 : Math.max(0.01, (100 * SAMPLE_ROWS * 2) / n);
  };
  const names = await sql.query<{ name: string }>(
    `SELECT name FROM companies TABLESAMPLE SYSTEM ($1) REPEATABLE (16) WHERE status = 'Active' LIMIT ${SAMPLE_ROWS}`,
    [await percent('companies')],
  );
  const filers = await sql.query<{ company_number: string }>(
    `SELECT DISTINCT h.company_number FROM accounts_history h TABLESAMPLE SYSTEM ($1) REPEATABLE (16)
     JOIN companies c USING (company_number) LIMIT ${SAMPLE_ROWS}`,
    [await percent('accounts_history')],
  );
  const sample = {
    names: shuffled(names.rows.map((r) => r.name).sort(), 16),
    withAccounts: shuffled(filers.rows.map((r) => r.company_number).sort(), 16),
  };
  if (sample.names.length === 0) throw new Error('bench/web: no active company on the register to search for');
  if (sample.withAccounts.length === 0) throw new Error('bench/web: no company on the register has accounts');
  return sample;
}

/**
 * The phrases typed on the way to `name`, as the as-you-type box sends them: its first word's
 * first 1 to 5 letters, the whole first word, then the first word and the first 1 to 3 letters
 * of the next. "TESCO STORES LIMITED" gives T, TE, TES, TESC, TESCO, TESCO S, TESCO ST, TESCO STO.
 */
export function typedPhrases(name: string): string[] {
  const words = name.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word));
  const [first, next] = words;
  if (!first) return [];
  const phrases: string[] = [];
  for (let n = 1; n <= Math.min(5, first.length); n++) phrases.push(first.slice(0, n));
  if (first.length > 5) phrases.push(first);
  if (next) for (let n = 1; n <= Math.min(3, next.length); n++) phrases.push(`${first} ${next.slice(0, n)}`);
  return phrases;
}

export function webWorkloads(samples: WebSamples): WebWorkload[] {
  // One typing session after another, through the sampled names.
  const phrases = samples.names.flatMap(typedPhrases);
  const phrase = (i: number) => encodeURIComponent(phrases[i % phrases.length]!);
  return [
    {
      name: 'search_page',
      path: (i) => `/search?name=${phrase(i)}`,
      foundNothing: (body) => body.includes('<h2 id="results-heading">No company found</h2>'),
    },
    {
      name: 'suggest',
      path: (i) => `/search/suggest?name=${phrase(i)}`,
      foundNothing: (body) => (JSON.parse(body) as { results: unknown[] }).results.length === 0,
    },
    {
      name: 'company_page',
      path: (i) => `/company/${samples.withAccounts[i % samples.withAccounts.length]!}`,
      // A company with accounts has a chart; "no machine-readable accounts" would mean the page lost them.
      foundNothing: (body) => !body.includes('<figure class="chart"'),
    },
  ];
}

/** A fixed shuffle (Fisher–Yates with a small seeded generator, mulberry32). */
function shuffled<T>(values: readonly T[], seed: number): T[] {
  const out = [...values];
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
