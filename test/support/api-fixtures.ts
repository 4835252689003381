/**
 * The companies and filings the end-to-end tests load, and small HTTP helpers. "Now" is
 * 2025-06-15 noon UTC; the register snapshot is of 2025-01-01 and the accounts were published
 * 2025-06-01 (so within the last 30 days).
 */
import type { FilingFixture, RegisterFixture, World } from './api-world.ts';
import { assertDocumented } from './openapi-conformance.ts';
import type { AsOf } from '../../src/operations/envelope.ts';

export const NOW = new Date('2025-06-15T12:00:00Z');

export const companies: RegisterFixture[] = [
  {
    number: '00000001',
    name: 'ACME WIDGETS LIMITED',
    nextDue: '2025-09-30',
    charges: 1,
    sic: '62020 - Information technology consultancy activities',
  },
  {
    number: '00000002',
    name: 'BETA BUILDERS LTD',
    postTown: 'MANCHESTER',
    nextDue: '2025-09-30',
    sic: '41201 - Construction of commercial buildings',
  },
  { number: '00000003', name: 'GAMMA CAFE LTD', nextDue: '2025-09-30', sic: '56101 - Licensed restaurants' },
  {
    number: '00000004',
    name: 'DELTA HOLDINGS PLC',
    category: 'Public Limited Company',
    postTown: 'LONDON',
    nextDue: '2025-09-30',
    sic: '64209 - Activities of other holding companies n.e.c.',
  },
  {
    number: '00000005',
    name: 'EPSILON TRADING LTD',
    nextDue: '2025-07-31',
    sic: '46900 - Non-specialised wholesale trade',
  },
  { number: '00000006', name: 'ZETA DORMANT LTD', nextDue: '2025-03-31', sic: '99999 - Dormant Company' },
];

export const filings: FilingFixture[] = [
  {
    number: '00000001',
    name: 'ACME WIDGETS LIMITED',
    balanceSheetDate: '2024-12-31',
    current: {
      netAssets: 2_000_000,
      cash: 900_000,
      currentAssets: 1_500_000,
      turnover: 5_000_000,
      employees: 40,
      profit: 300_000,
    },
    prior: {
      netAssets: 1_400_000,
      cash: 600_000,
      currentAssets: 1_200_000,
      turnover: 4_000_000,
      employees: 30,
      profit: -50_000,
    },
  },
  {
    number: '00000002',
    name: 'BETA BUILDERS LTD',
    balanceSheetDate: '2024-12-31',
    current: { netAssets: -45_000, cash: 20_000 },
    prior: { netAssets: 100_000, cash: 100_000 },
  },
  {
    number: '00000003',
    name: 'GAMMA CAFE LTD',
    balanceSheetDate: '2024-12-31',
    current: { netAssets: 150_000, cash: 80_000, currentAssets: 120_000 },
    prior: { netAssets: 140_000, cash: 70_000 },
  },
  {
    number: '00000004',
    name: 'DELTA HOLDINGS PLC',
    balanceSheetDate: '2024-12-31',
    current: { netAssets: 9_000_000, cash: 3_000_000, currentAssets: 4_000_000, turnover: 80_000_000, employees: 600 },
    prior: { netAssets: 8_000_000, cash: 2_500_000 },
  },
  {
    number: '00000005',
    name: 'EPSILON TRADING LTD',
    balanceSheetDate: '2024-12-31',
    current: { netAssets: 50_000, cash: 30_000 },
    prior: { netAssets: 60_000, cash: 35_000 },
  },
];

/** Load the fixtures as a service would have: the register snapshot, then the accounts. */
/** How fresh the fixtures' data is, as every answer's as_of says once loadFixtures has run. */
export const FIXTURES_AS_OF: AsOf = { register: '2025-01-01', accounts: '2025-06-01', psc: null, stream: null };

export async function loadFixtures(world: World): Promise<void> {
  await world.loadRegister(companies, '2025-01-01');
  await world.loadAccounts(filings, '2025-06-01');
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON of many shapes, asserted field by field
}

export async function call(
  world: World,
  path: string,
  options: { key?: string; method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const response = await fetch(`${world.url}${path}`, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(options.body !== undefined
      ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }
      : {}),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  const answer = { status: response.status, headers: response.headers, body };
  await assertDocumented(
    world.url,
    { method: options.method ?? (options.body === undefined ? 'GET' : 'POST'), path },
    answer,
  );
  return answer;
}

/** The Markdown text of a Markdown-shaped answer. */
export function markdown(answer: Answer): string {
  const content = answer.body?.content;
  if (!Array.isArray(content) || content[0]?.type !== 'text')
    throw new Error(`not the Markdown shape: ${JSON.stringify(answer.body)}`);
  return content[0].text as string;
}
