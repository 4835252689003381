/**
 * Company size by the Companies Act 2006 thresholds (ss. 382, 384A, 465) in force for the
 * financial year: those of The Companies (Accounts and Reports) (Amendment and Transitional
 * Provision) Regulations 2024 for financial years beginning on or after 6 April 2025, the earlier
 * ones before. Read on two of the three criteria, the two the accounts give us: turnover and
 * average employees. The balance sheet total is not read, so a company is placed in the smallest
 * band that neither known figure exceeds; with neither known, its size is unknown.
 */
export const SIZE_BANDS = ['micro', 'small', 'medium', 'large'] as const;
export type SizeBand = (typeof SIZE_BANDS)[number];

type Limits = readonly { band: Exclude<SizeBand, 'large'>; turnover: number; employees: number }[];

/** The thresholds for financial years beginning before any change below. */
const EARLIER_LIMITS: Limits = [
  { band: 'micro', turnover: 632_000, employees: 10 },
  { band: 'small', turnover: 10_200_000, employees: 50 },
  { band: 'medium', turnover: 36_000_000, employees: 250 },
];

/** Newest first: the first whose `from` is on or before the period's start applies. */
const LIMITS_FROM: readonly { from: string; limits: Limits }[] = [
  {
    from: '2025-04-06',
    limits: [
      { band: 'micro', turnover: 1_000_000, employees: 10 },
      { band: 'small', turnover: 15_000_000, employees: 50 },
      { band: 'medium', turnover: 54_000_000, employees: 250 },
    ],
  },
];

/** `periodStart`: the first day of the financial year the figures are for (accounts-period.ts periodStart). */
export function sizeBand(turnover: number | null, employees: number | null, periodStart: string): SizeBand | null {
  if (turnover === null && employees === null) return null;
  const limits = LIMITS_FROM.find((entry) => entry.from <= periodStart)?.limits ?? EARLIER_LIMITS;
  for (const limit of limits) {
    if ((turnover === null || turnover <= limit.turnover) && (employees === null || employees <= limit.employees))
      return limit.band;
  }
  return 'large';
}
