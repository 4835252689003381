/**
 * The concept table: which taxonomy concepts carry each figure of the API contract.
 *
 * Concepts are matched by local name, because UK filing software binds the taxonomies to any
 * prefix (core, frs-core, c, ns5, uk-frs102, even "pt" for the FRS core) and the local names of the
 * taxonomies below do not collide with different meanings. Within a key the first matching entry
 * wins, so the order is the priority.
 *
 * Taxonomies (as published by the FRC and, before 2014, XBRL UK / Companies House):
 * - FRS: the FRC's FRS 102 / FRS 105 / FRS 101 / IFRS / charities entry points, 2014-09-01 to
 *   2026 ("core" namespace http://xbrl.frc.org.uk/fr/<date>/core).
 * - UK GAAP 2009: uk-gaap-pt (http://www.xbrl.org/uk/gaap/core/2009-09-01), used in iXBRL
 *   filings from 2011 until 2016-17.
 * - UK GAAP 2004 "pt" with the Companies House abbreviated-accounts schema uk-gaap-ae-2009-06-21,
 *   used by plain XBRL (.xml) WebFiling accounts.
 * - IFRS (ifrs-full), for full IFRS filers.
 *
 * `members` restricts an entry to facts whose context carries only those dimension members: that
 * is how the maturity breakdown of Creditors is tagged (by maturity, by current/non-current, or
 * both on one context). Every other entry takes
 * only undimensioned facts, which are the reporting entity's own figures (dimensioned facts are
 * breakdowns: consolidated group figures, equity components, fund columns).
 */
import type { FigureKey } from '../domain/figures.ts';

type PeriodType = 'instant' | 'duration';

interface DimensionMember {
  dimension: string;
  member: string;
}

export interface ConceptEntry {
  concept: string;
  /**
   * When set, the entry takes only facts whose context carries one or more of these members and
   * no other dimension: the breakdown a contract field is defined as.
   */
  members?: readonly DimensionMember[];
  taxonomy: 'FRS' | 'UK GAAP 2009' | 'UK GAAP 2004' | 'IFRS';
}

export interface FigureRule {
  key: FigureKey;
  periodType: PeriodType;
  entries: ConceptEntry[];
}

const MATURITY = 'MaturitiesOrExpirationPeriodsDimension';
const CURRENT_OR_NOT = 'FinancialInstrumentCurrentNon-currentDimension';
const WITHIN_ONE_YEAR: readonly DimensionMember[] = [
  { dimension: MATURITY, member: 'WithinOneYear' },
  { dimension: CURRENT_OR_NOT, member: 'CurrentFinancialInstruments' },
];
const AFTER_ONE_YEAR: readonly DimensionMember[] = [
  { dimension: MATURITY, member: 'AfterOneYear' },
  { dimension: CURRENT_OR_NOT, member: 'Non-currentFinancialInstruments' },
];

/** The table. `creditors` falls back to the within-one-year amount in `select-figures.ts`. */
export const FIGURE_RULES: readonly FigureRule[] = [
  {
    key: 'net_assets',
    periodType: 'instant',
    entries: [
      { concept: 'NetAssetsLiabilities', taxonomy: 'FRS' },
      { concept: 'NetAssetsLiabilitiesIncludingPensionAssetLiability', taxonomy: 'UK GAAP 2009' },
    ],
  },
  {
    key: 'equity',
    periodType: 'instant',
    entries: [
      { concept: 'Equity', taxonomy: 'FRS' },
      { concept: 'ShareholderFunds', taxonomy: 'UK GAAP 2009' },
    ],
  },
  {
    key: 'total_assets_less_current_liabilities',
    periodType: 'instant',
    entries: [{ concept: 'TotalAssetsLessCurrentLiabilities', taxonomy: 'FRS' }],
  },
  {
    key: 'cash',
    periodType: 'instant',
    // Not CashCashEquivalents: in the FRS taxonomy that is the cash-flow statement's figure, net of overdrafts.
    entries: [
      { concept: 'CashBankOnHand', taxonomy: 'FRS' },
      { concept: 'CashBankInHand', taxonomy: 'UK GAAP 2009' },
      { concept: 'CashAndCashEquivalents', taxonomy: 'IFRS' },
    ],
  },
  {
    key: 'current_assets',
    periodType: 'instant',
    entries: [{ concept: 'CurrentAssets', taxonomy: 'FRS' }],
  },
  {
    key: 'creditors',
    periodType: 'instant',
    entries: [{ concept: 'Creditors', taxonomy: 'FRS' }],
  },
  {
    key: 'creditors_within_one_year',
    periodType: 'instant',
    entries: [
      { concept: 'Creditors', members: WITHIN_ONE_YEAR, taxonomy: 'FRS' },
      { concept: 'CreditorsDueWithinOneYear', taxonomy: 'UK GAAP 2009' },
      { concept: 'CreditorsDueWithinOneYearTotalCurrentLiabilities', taxonomy: 'UK GAAP 2004' },
    ],
  },
  {
    key: 'creditors_after_one_year',
    periodType: 'instant',
    entries: [
      { concept: 'Creditors', members: AFTER_ONE_YEAR, taxonomy: 'FRS' },
      { concept: 'CreditorsDueAfterOneYear', taxonomy: 'UK GAAP 2009' },
      { concept: 'CreditorsDueAfterOneYearTotalNoncurrentLiabilities', taxonomy: 'UK GAAP 2004' },
    ],
  },
  {
    key: 'turnover',
    periodType: 'duration',
    entries: [
      { concept: 'TurnoverRevenue', taxonomy: 'FRS' },
      { concept: 'TurnoverGrossOperatingRevenue', taxonomy: 'UK GAAP 2009' },
      { concept: 'Revenue', taxonomy: 'IFRS' },
    ],
  },
  {
    key: 'debtors',
    periodType: 'instant',
    entries: [{ concept: 'Debtors', taxonomy: 'FRS' }],
  },
  {
    key: 'employees',
    periodType: 'duration',
    entries: [
      { concept: 'AverageNumberEmployeesDuringPeriod', taxonomy: 'FRS' },
      { concept: 'EmployeesTotal', taxonomy: 'UK GAAP 2009' },
      { concept: 'AverageNumberEmployees', taxonomy: 'UK GAAP 2004' },
    ],
  },
  {
    key: 'profit',
    periodType: 'duration',
    // Profit after tax for the period.
    entries: [
      { concept: 'ProfitLoss', taxonomy: 'FRS' },
      { concept: 'ProfitLossForPeriod', taxonomy: 'UK GAAP 2009' },
    ],
  },
];

/** Every concept local name the table mentions, for a quick "does this fact matter" test. */
export const FIGURE_CONCEPTS: ReadonlySet<string> = new Set(
  FIGURE_RULES.flatMap((rule) => rule.entries.map((entry) => entry.concept)),
);

/** Non-numeric concepts whose text the parser reads, by what they tell. */
export const TEXT_CONCEPTS = {
  entityName: ['EntityCurrentLegalOrRegisteredName', 'EntityCurrentLegalName'],
  companyNumber: ['UKCompaniesHouseRegisteredNumber', 'CompaniesHouseRegisteredNumber'],
  balanceSheetDate: ['BalanceSheetDate'],
  periodStart: ['StartDateForPeriodCoveredByReport'],
  periodEnd: ['EndDateForPeriodCoveredByReport'],
} as const;

export const WANTED_TEXT: ReadonlySet<string> = new Set(Object.values(TEXT_CONCEPTS).flat());

/** Members of the FRS AccountingStandardsDimension, and the standard each names. */
export const ACCOUNTING_STANDARD_MEMBERS: Record<string, 'FRS 105' | 'FRS 102' | 'IFRS' | 'unknown'> = {
  'Micro-entities': 'FRS 105',
  SmallEntities: 'FRS 102',
  FRS102: 'FRS 102',
  // FRS 101 is IFRS recognition and measurement with reduced disclosure.
  FRS101: 'IFRS',
  FullIFRS: 'IFRS',
  OtherStandards: 'unknown',
};
