/**
 * Criteria search and market statistics: the filters, the sort, and the shape of the answers the
 * search port gives. Validation of what a client sends lives with the operations; these are the
 * already-valid values.
 */
import type { StatusFilter } from './company-status.ts';
import type { GrowthFigure, TrendFilter } from './figure-growth.ts';
import type { RiskBand } from './risk-band.ts';
import type { SearchDocument } from './search-document.ts';
import type { SizeBand } from './size-band.ts';
import type { SearchSignal, Trigger, TriggerSortField } from './triggers.ts';

/** The figures that take min_/max_ bounds, and have percentiles in market stats. */
export const RANGE_FIGURES = ['net_assets', 'cash', 'turnover', 'employees', 'profit'] as const;
export type RangeFigure = (typeof RANGE_FIGURES)[number];

/**
 * The figures criteria search bounds: the range figures, and total assets less current
 * liabilities (the public service's `min_total_assets`/`max_total_assets`), which has no stats.
 */
export const BOUND_FIGURES = [...RANGE_FIGURES, 'total_assets_less_current_liabilities'] as const;
type BoundFigure = (typeof BOUND_FIGURES)[number];

/** The `trajectory` filter: the overall direction of the filed figures (trajectory.ts). */
export const TRAJECTORY_FILTERS = ['growing', 'stable', 'declining'] as const;
type TrajectoryFilter = (typeof TRAJECTORY_FILTERS)[number];

export interface CompanyFilters {
  status: StatusFilter;
  /** A register category or alias, already turned into its key by companyTypeKey. */
  type?: string;
  /** Leading digits of a SIC code. */
  sic?: string;
  /** Already turned into its key by postTownKey. */
  post_town?: string;
  incorporated_from?: string;
  incorporated_to?: string;
  /** Inclusive bounds on the latest filed figures; a company without the figure does not match. */
  figures?: Partial<Record<BoundFigure, { min?: number; max?: number }>>;
  size?: SizeBand;
  risk_band?: RiskBand;
  signal?: SearchSignal;
  trajectory?: TrajectoryFilter;
  /**
   * Per figure, its latest value against the period before (figure-growth.ts): the direction,
   * and inclusive bounds on the change in percent. A company without both values matches neither.
   */
  growth?: Partial<Record<GrowthFigure, FigureGrowthFilter>>;
  /**
   * Absent: the filed figures only. `include`: figures estimated from scanned PDF accounts where
   * no filed ones exist (the estimated documents in place of the filed ones, DocumentView).
   * `only`: the estimated documents alone, to tell whether an answer used any.
   */
  estimates?: 'include' | 'only';
  /** true: showing the insolvency proxy (showsInsolvencyProxy); false: not showing it. */
  insolvency_proxy?: boolean;
  /** true: net assets below zero; false: a net assets figure of zero or more. */
  negative_net_assets?: boolean;
  /**
   * true: a current corporate or legal-person PSC; false: PSC records held and none of them a
   * current corporate parent. A company without any PSC record held matches neither.
   */
  has_corporate_parent?: boolean;
  /** A country key (countries.ts's countryKey, `overseas` or `united kingdom`) of a current corporate parent. */
  parent_country?: string;
  /** Inclusive bounds on the count of current PSCs (statements excluded); never matches a company without PSC records. */
  controller_count?: { min?: number; max?: number };
  /**
   * true: a current officer's or PSC's identity verification is overdue on the day asked
   * (identity_overdue_from before or on it); false: none is.
   */
  identity_unverified?: boolean;
}

interface FigureGrowthFilter {
  trend?: TrendFilter;
  min?: number;
  max?: number;
}

/** total_assets: total assets less current liabilities, the figure the public service's total_assets filters read too. */
export const SORT_FIELDS = [
  'net_assets',
  'cash',
  'turnover',
  'employees',
  'incorporated',
  'name',
  'total_assets',
] as const;
type SortField = Exclude<(typeof SORT_FIELDS)[number], 'total_assets'> | 'total_assets_less_current_liabilities';

export interface SortOrder {
  field: SortField | TriggerSortField;
  descending: boolean;
}

export interface CompanyQuery {
  filters: CompanyFilters;
  /** Only companies matching this trigger, in its own order (the sort is then ignored). */
  trigger?: Trigger;
  sort: SortOrder;
  limit: number;
  /** The day the query is asked on: overdue, recent and young are decided against it. */
  asOf: string;
  /** Start strictly after this place in the order (the `next` of the page before). */
  after?: CompanyKey;
}

/**
 * A place in a criteria search's order: the sort field's value of a company (null when it has
 * none) and its number, the tie-break that makes every place unique.
 */
export type CompanyKey = readonly [value: number | string | null, companyNumber: string];

export interface CompanyMatches {
  /** Every match, not only those returned. */
  total: number;
  documents: SearchDocument[];
  /** The place of the last document when more matches follow it; null on the last page. */
  next: CompanyKey | null;
}

export interface FigureStats {
  count: number;
  mean: number | null;
  p10: number | null;
  p25: number | null;
  median: number | null;
  p75: number | null;
  p90: number | null;
}

export interface MarketStats {
  companies: number;
  with_accounts: number;
  by_status: Record<string, number>;
  by_type: Record<string, number>;
  /** "2019": 1234, oldest year first. */
  incorporations_by_year: Record<string, number>;
  figures: Record<RangeFigure, FigureStats>;
  /** Of the companies with a net assets figure, the share below zero (0–1); null when none has one. */
  negative_net_assets_share: number | null;
  /**
   * Present when everything but `companies` was estimated from a uniform random sample of this
   * many companies, drawn with this probability (counts are scaled up to the whole).
   */
  sample?: { probability: number; companies: number };
}

export const PERCENTILES = [10, 25, 50, 75, 90] as const;
