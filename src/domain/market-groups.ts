/**
 * Market stats by group (`market_stats {group_by}`): what each grouping puts a company in, how
 * the groups are ordered and cut, and the shape of the answer. Both search adapters group by the
 * same keys; `groupKeys` says in TypeScript what their queries say in their own languages.
 */
import { isPastDue } from './company-status.ts';
import { groupByEach } from './group-by.ts';
import type { FigureStats, RangeFigure } from './criteria.ts';
import { PERCENTILES, RANGE_FIGURES } from './criteria.ts';
import type { SearchDocument } from './search-document.ts';
import { sicSection } from './sic-section.ts';

export const GROUP_BY = [
  'status',
  'type',
  'sic_section',
  'sic_code',
  'post_town',
  'incorporation_year',
  'size',
  'risk_band',
] as const;
export type GroupBy = (typeof GROUP_BY)[number];

/** What each grouping's keys are, for descriptions and docs. */
export const GROUP_BY_TEXT: Record<GroupBy, string> = {
  status: 'the register status as filed ("Active", "Liquidation", …)',
  type: 'the register category ("Private Limited Company", …)',
  sic_section: 'the SIC 2007 section letter A–U of each SIC code (a company with codes in two sections is in both)',
  sic_code: 'each five-digit SIC code (a company with two codes is in both groups)',
  post_town: 'the post town, upper case, spaces collapsed (as the post_town filter matches)',
  incorporation_year: 'the year of incorporation ("2019")',
  size: 'the size band (micro, small, medium, large)',
  risk_band: 'the risk band on the day asked (low, medium, high, unknown)',
};

/** What grouping reads of a search document. */
export type GroupedDocument = Pick<
  SearchDocument,
  | 'status'
  | 'type'
  | 'sic_prefixes'
  | 'post_town_key'
  | 'incorporated'
  | 'size_band'
  | 'must_file'
  | 'accounts_next_due'
  | 'risk_band'
  | 'risk_band_if_overdue'
>;
/** What the statistics read of a search document. */
export type StatsDocument = Pick<SearchDocument, 'balance_sheet_date' | RangeFigure>;

/** Groups listed at most; the rest are aggregated as `other`. */
export const GROUP_LIMIT = 50;

/**
 * The groups a company is in: one key for most groupings, any number for SIC sections and codes,
 * and `[null]` — the group of companies without a value (no post town, SIC code or incorporation
 * date, size unknown) — when it has none. The risk band is the one that applies on `asOf`.
 */
export function groupKeys(document: GroupedDocument, groupBy: GroupBy, asOf: string): (string | null)[] {
  const keys = ((): (string | null)[] => {
    switch (groupBy) {
      case 'status':
        return [document.status || null];
      case 'type':
        return [document.type || null];
      case 'sic_section':
        return [...new Set(document.sic_prefixes.filter((p) => p.length === 2).map(sicSection))];
      case 'sic_code':
        return document.sic_prefixes.filter((p) => p.length === 5);
      case 'post_town':
        return [document.post_town_key];
      case 'incorporation_year':
        return [document.incorporated?.slice(0, 4) ?? null];
      case 'size':
        return [document.size_band];
      case 'risk_band':
        return [
          document.must_file && isPastDue(document.accounts_next_due, asOf)
            ? document.risk_band_if_overdue
            : document.risk_band,
        ];
    }
  })().filter((key) => key !== null);
  return keys.length === 0 ? [null] : keys;
}

/** Most companies first; ties by key in byte order, the group without a value last. */
export function compareGroups(
  a: { key: string | null; companies: number },
  b: { key: string | null; companies: number },
): number {
  if (a.companies !== b.companies) return b.companies - a.companies;
  if (a.key === b.key) return 0;
  if (a.key === null) return 1;
  if (b.key === null) return -1;
  return a.key < b.key ? -1 : 1;
}

/** The statistics of one group: those of market stats without the breakdowns. */
export interface GroupStats {
  companies: number;
  with_accounts: number;
  figures: Record<RangeFigure, FigureStats>;
  negative_net_assets_share: number | null;
  /** As in MarketStats: present when the group's figures were estimated from a random sample. */
  sample?: { probability: number; companies: number };
}

export interface GroupedMarketStats {
  group_by: GroupBy;
  /** At most GROUP_LIMIT groups, in compareGroups order. */
  groups: (GroupStats & { key: string | null })[];
  /** The companies matching the filters that are in none of the listed groups; null when there are none. */
  other: GroupStats | null;
}

/** percentile_cont: the p-th lies at p × (count − 1) of the sorted values, interpolated as Postgres does. */
function percentileCont(sorted: readonly number[], fraction: number): number {
  const position = fraction * (sorted.length - 1);
  const lower = Math.floor(position);
  const low = sorted[lower]!;
  return low + (sorted[Math.ceil(position)]! - low) * (position - lower);
}

/** The statistics of these companies, exactly (what the adapters' aggregations compute). */
function statsOf(documents: readonly StatsDocument[]): GroupStats {
  const figures = Object.fromEntries(
    RANGE_FIGURES.map((figure): [RangeFigure, FigureStats] => {
      const values = documents
        .map((d) => d[figure])
        .filter((v): v is number => v !== null && v !== undefined)
        .sort((a, b) => a - b);
      const [p10 = null, p25 = null, median = null, p75 = null, p90 = null] =
        values.length === 0 ? [] : PERCENTILES.map((p) => percentileCont(values, p / 100));
      const mean = values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length;
      return [figure, { count: values.length, mean, p10, p25, median, p75, p90 }];
    }),
  ) as GroupStats['figures'];
  const negative = documents.filter((d) => d.net_assets !== null && d.net_assets !== undefined && d.net_assets < 0);
  return {
    companies: documents.length,
    with_accounts: documents.filter((d) => d.balance_sheet_date !== null && d.balance_sheet_date !== undefined).length,
    figures,
    negative_net_assets_share: figures.net_assets.count === 0 ? null : negative.length / figures.net_assets.count,
  };
}

/** Grouped stats of every company matching, read whole: groupKeys, the top GROUP_LIMIT, other. */
export function groupedStatsOf(
  documents: readonly (GroupedDocument & StatsDocument)[],
  groupBy: GroupBy,
  asOf: string,
): GroupedMarketStats {
  const keysOf = documents.map((document) => groupKeys(document, groupBy, asOf));
  const members = groupByEach(documents, (_, i) => keysOf[i]!);
  const listed = [...members]
    .map(([key, companies]) => ({ key, companies: companies.length }))
    .sort(compareGroups)
    .slice(0, GROUP_LIMIT);
  const listedKeys = new Set(listed.map((group) => group.key));
  const rest = documents.filter((_, i) => !keysOf[i]!.some((key) => listedKeys.has(key)));
  return {
    group_by: groupBy,
    groups: listed.map(({ key }) => ({ key, ...statsOf(members.get(key)!) })),
    other: rest.length === 0 ? null : statsOf(rest),
  };
}
