/**
 * Company size by the Companies Act 2006 thresholds (ss. 382, 384A, 465, as raised for
 * financial years from 6 April 2025), on the two of the three criteria the accounts give us:
 * turnover and average employees. The balance sheet total is not read, so a company is placed in
 * the smallest band that neither known figure exceeds; with neither known, its size is unknown.
 */
export const SIZE_BANDS = ['micro', 'small', 'medium', 'large'] as const;
export type SizeBand = (typeof SIZE_BANDS)[number];

const SIZE_THRESHOLDS: readonly { band: Exclude<SizeBand, 'large'>; turnover: number; employees: number }[] = [
  { band: 'micro', turnover: 1_000_000, employees: 10 },
  { band: 'small', turnover: 15_000_000, employees: 50 },
  { band: 'medium', turnover: 54_000_000, employees: 250 },
];

export function sizeBand(turnover: number | null, employees: number | null): SizeBand | null {
  if (turnover === null && employees === null) return null;
  for (const limit of SIZE_THRESHOLDS) {
    if ((turnover === null || turnover <= limit.turnover) && (employees === null || employees <= limit.employees))
      return limit.band;
  }
  return 'large';
}
