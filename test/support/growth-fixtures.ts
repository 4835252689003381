/**
 * Companies whose overall trajectory grows while one figure does not: the case where asking
 * `trajectory=growing` for "turnover growing" finds companies whose turnover fell. Each filing
 * carries the period before as its comparative column.
 */
import type { FilingFixture, RegisterFixture, World } from './api-world.ts';

export const GROWTH = {
  rising: { number: '00000101', name: 'RISING TURNOVER LTD' },
  falling: { number: '00000102', name: 'FALLING TURNOVER LTD' },
  flat: { number: '00000103', name: 'FLAT TURNOVER LTD' },
  unknown: { number: '00000104', name: 'NO PRIOR TURNOVER LTD' },
} as const;

const register: RegisterFixture[] = Object.values(GROWTH).map((c) => ({
  ...c,
  nextDue: '2025-09-30',
  postTown: 'YORK',
  sic: '62020 - Information technology consultancy activities',
}));

const filings: FilingFixture[] = [
  {
    ...GROWTH.rising,
    balanceSheetDate: '2024-12-31',
    current: { netAssets: 120_000, cash: 60_000, turnover: 1_300_000 },
    prior: { netAssets: 100_000, cash: 50_000, turnover: 1_000_000 },
  },
  {
    // Four figures up, turnover down a quarter: growing overall.
    ...GROWTH.falling,
    balanceSheetDate: '2024-12-31',
    current: { netAssets: 200_000, cash: 100_000, turnover: 1_500_000, employees: 15, profit: 50_000 },
    prior: { netAssets: 100_000, cash: 50_000, turnover: 2_000_000, employees: 10, profit: 10_000 },
  },
  {
    ...GROWTH.flat,
    balanceSheetDate: '2024-12-31',
    current: { netAssets: 400_000, cash: 90_000, turnover: 1_020_000 },
    prior: { netAssets: 300_000, cash: 60_000, turnover: 1_000_000 },
  },
  {
    ...GROWTH.unknown,
    balanceSheetDate: '2024-12-31',
    current: { netAssets: 150_000, turnover: 3_000_000 },
    prior: { netAssets: 100_000 },
  },
];

export async function loadGrowthFixtures(world: World): Promise<void> {
  await world.loadRegister(register, '2025-01-01');
  await world.loadAccounts(filings, '2025-06-01');
}
