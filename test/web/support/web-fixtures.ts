/**
 * The companies the web pages' tests load: TESCO names ranked by search_by_name (the exact name,
 * names starting with the word, containing it), a name with markup characters (escaping), and
 * one company with four years of accounts from two filings, two of the years known only from a
 * prior-year column.
 */
import type { FilingFixture, RegisterFixture, World } from '../../support/api-world.ts';

export const NOW = new Date('2025-06-15T12:00:00Z');

export const TESCO = '00445790';
/** The company with four years of accounts. */
export const HISTORY = '01234567';

export const webCompanies: RegisterFixture[] = [
  { number: '09000001', name: 'ATESCO TRADING LTD', postTown: 'LEEDS' },
  { number: '09000002', name: 'BEST TESCO SUPPLIES LTD', postTown: 'YORK' },
  { number: '09000003', name: 'TESCO STORES LIMITED', postTown: 'WELWYN GARDEN CITY' },
  { number: TESCO, name: 'TESCO PLC', postTown: 'WELWYN GARDEN CITY', category: 'Public Limited Company' },
  { number: '09000004', name: 'TESCOMBE & <SONS> "QUOTED" LTD', postTown: 'BATH' },
  { number: HISTORY, name: 'HARBOUR FIGURES LIMITED', postTown: 'BRISTOL', nextDue: '2025-12-31' },
];

/**
 * The history company's filings: each a year with its prior-year column, so 2021 and 2023 are
 * known only from a prior-year column (2022's and 2024's filings).
 */
const historyFilings: FilingFixture[][] = [
  [
    {
      number: HISTORY,
      name: 'HARBOUR FIGURES LIMITED',
      balanceSheetDate: '2022-03-31',
      current: { netAssets: 120_000, cash: 40_000, turnover: 900_000, employees: 12, profit: 15_000 },
      prior: { netAssets: 100_000, cash: 35_000, turnover: 800_000, employees: 10, profit: -5_000 },
    },
  ],
  [
    {
      number: HISTORY,
      name: 'HARBOUR FIGURES LIMITED',
      balanceSheetDate: '2024-03-31',
      current: { netAssets: 210_000, cash: 95_000, turnover: 1_400_000, employees: 21, profit: 60_000 },
      prior: { netAssets: 150_000, cash: 52_000, turnover: 1_100_000, employees: 16, profit: 30_000 },
    },
  ],
];

/** The history company's years, oldest first: [balance sheet date, net assets, cash, turnover, profit, employees, prior-year only]. */
export const HISTORY_YEARS = [
  {
    date: '2021-03-31',
    net_assets: 100_000,
    cash: 35_000,
    turnover: 800_000,
    profit: -5_000,
    employees: 10,
    prior: true,
  },
  {
    date: '2022-03-31',
    net_assets: 120_000,
    cash: 40_000,
    turnover: 900_000,
    profit: 15_000,
    employees: 12,
    prior: false,
  },
  {
    date: '2023-03-31',
    net_assets: 150_000,
    cash: 52_000,
    turnover: 1_100_000,
    profit: 30_000,
    employees: 16,
    prior: true,
  },
  {
    date: '2024-03-31',
    net_assets: 210_000,
    cash: 95_000,
    turnover: 1_400_000,
    profit: 60_000,
    employees: 21,
    prior: false,
  },
] as const;

export async function loadWebFixtures(world: World): Promise<void> {
  await world.loadRegister(webCompanies, '2025-01-01');
  await world.loadAccounts(historyFilings[0]!, '2022-09-01');
  await world.loadAccounts(historyFilings[1]!, '2024-09-01');
}
