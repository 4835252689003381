import * as z from 'zod';
import type { FigureStats, MarketStats, RangeFigure } from '../domain/criteria.ts';
import { RANGE_FIGURES } from '../domain/criteria.ts';
import {
  checkFilterRanges,
  companyFilters,
  filterEcho,
  marketStatsFilterShape,
  OWNERSHIP_FILTERS_TEXT,
  REGISTER_FILTERS_TEXT,
} from './inputs.ts';
import { count, literal, money, table } from './markdown.ts';
import { defineOperation } from './operation.ts';
import { estimatesNote, estimatesUsed } from './search-companies.ts';
import { marketStatsOutput } from './outputs.ts';
import type { GroupBy, GroupStats } from '../domain/market-groups.ts';
import { GROUP_BY, GROUP_BY_TEXT, GROUP_LIMIT } from '../domain/market-groups.ts';
import { SIC_SECTIONS } from '../domain/sic-section.ts';
import type { SicSection } from '../domain/sic-section.ts';

// size_class: the public service's name for size, accepted as it is for the search filter.
const groupByInput = z
  .enum([...GROUP_BY, 'size_class'], { error: `must be one of ${GROUP_BY.join(', ')}` })
  .optional()
  .describe(
    `Also give the stats per group, by ${GROUP_BY.map((g) => `${g} (${GROUP_BY_TEXT[g]})`).join('; ')} ` +
      '(size_class is accepted for size). ' +
      `The ${GROUP_LIMIT} groups with most companies are listed, the rest aggregated as other`,
  );

/** "12.5% (45)": a share of those filing net assets, with how many companies it is. */
function negativeShare(share: number | null, filing: number): string {
  return share === null ? '—' : `${(share * 100).toFixed(1)}% (${Math.round(share * filing).toLocaleString('en-GB')})`;
}

/** One group's stats: those of the whole answer, without the breakdowns. */
const groupOutput = marketStatsOutput.pick({
  companies: true,
  with_accounts: true,
  negative_net_assets_share: true,
  sample: true,
  ...(Object.fromEntries(RANGE_FIGURES.map((figure) => [figure, true])) as Record<RangeFigure, true>),
});

/** A group as answered: its statistics rounded, the figures as top-level keys like the whole answer's. */
type GroupAnswer = Omit<GroupStats, 'figures'> & Record<RangeFigure, FigureStats>;

/** A row per group with its companies and the medians of the figures, then other. */
function groupsMarkdown(
  groupBy: GroupBy,
  groups: readonly (GroupAnswer & { key: string | null })[],
  other: GroupAnswer | null,
): string[] {
  const row = (label: string, group: GroupAnswer) => [
    label,
    group.companies.toLocaleString('en-GB'),
    group.with_accounts.toLocaleString('en-GB'),
    ...RANGE_FIGURES.map((figure) => (figure === 'employees' ? count : money)(group[figure].median)),
    negativeShare(group.negative_net_assets_share, group.net_assets.count),
  ];
  // A section letter alone means nothing to most readers: "C Manufacturing".
  const label = (key: string | null) =>
    key === null
      ? '(none)'
      : groupBy === 'sic_section' && key in SIC_SECTIONS
        ? `${key} ${SIC_SECTIONS[key as SicSection][2]}`
        : key;
  const sampled = [...groups, ...(other ? [other] : [])].some((group) => group.sample);
  return [
    `## By ${groupBy.replace('_', ' ')}`,
    `${groups.length} group${groups.length === 1 ? '' : 's'}, most companies first${
      other ? '; other: the companies in none of them' : ''
    }. Medians of the latest filed figures.${
      sampled ? ' Groups over 40,000 companies have figures estimated from a random sample (`sample`).' : ''
    }`,
    table(
      [
        'Group',
        'Companies',
        'With accounts',
        ...RANGE_FIGURES.map((f) => `Median ${f.replace('_', ' ')}`),
        'Negative net assets (companies)',
      ],
      [...groups.map((group) => row(label(group.key), group)), ...(other ? [row('other', other)] : [])],
    ),
  ];
}

/** `value` to `places` decimals; never -0. */
function round(value: number | null, places: number): number | null {
  if (value === null) return null;
  const scale = 10 ** places;
  return Math.round(value * scale) / scale || 0;
}

/**
 * The answer as callers read it, without floating point noise (a mean of 2137556.0000000005, an
 * interpolated percentile's tail): means and percentiles to two decimals (money to the penny,
 * employees to hundredths), the negative net assets share to four. One place for both adapters.
 */
function roundedStats<Stats extends Pick<MarketStats, 'figures' | 'negative_net_assets_share'>>(stats: Stats): Stats {
  const figure = ({ count, mean, p10, p25, median, p75, p90 }: FigureStats): FigureStats => ({
    count,
    mean: round(mean, 2),
    p10: round(p10, 2),
    p25: round(p25, 2),
    median: round(median, 2),
    p75: round(p75, 2),
    p90: round(p90, 2),
  });
  return {
    ...stats,
    figures: Object.fromEntries(
      RANGE_FIGURES.map((name) => [name, figure(stats.figures[name])]),
    ) as MarketStats['figures'],
    negative_net_assets_share: round(stats.negative_net_assets_share, 4),
  };
}

export const marketStats = defineOperation({
  name: 'market_stats',
  title: 'Market statistics',
  description:
    `Statistics over the UK companies matching the filters, all optional: ${REGISTER_FILTERS_TEXT}; ` +
    `${OWNERSHIP_FILTERS_TEXT}. Returns ` +
    'how many companies, how many have machine-readable accounts, counts by status, by type and by year of ' +
    'incorporation, and for net_assets, cash, turnover, employees and profit the count, mean and p10, p25, ' +
    'median, p75 and p90 of the latest filed figures, plus the share with negative net assets; `sample` is ' +
    'present when these were estimated from a random sample. With group_by (' +
    GROUP_BY.join(', ') +
    `), also \`groups\`: the ${GROUP_LIMIT} groups with most companies, each with its key, companies, ` +
    'with_accounts, the same figure statistics and negative net assets share, and `other` with those of ' +
    'the companies in none of them. Costs one request of your monthly quota.',
  http: { method: 'GET', path: '/v1/stats' },
  input: z
    .object({
      ...marketStatsFilterShape,
      group_by: groupByInput,
    })
    .superRefine((input, ctx) => checkFilterRanges(input, ctx)),
  output: marketStatsOutput.extend({
    group_by: z.enum(GROUP_BY).optional().describe('Present when grouped'),
    groups: z
      .array(groupOutput.extend({ key: z.string().nullable().describe('null: the companies without a value') }))
      .optional()
      .describe(`With group_by: the ${GROUP_LIMIT} groups with most companies (ties by key), each with its stats`),
    other: groupOutput
      .nullable()
      .optional()
      .describe('With group_by: the companies in none of the groups listed, their stats; null when none'),
  }),
  json: true,
  async run(deps, input, context) {
    const filters = companyFilters(input);
    const [stats, grouped, used] = await Promise.all([
      deps.search.stats(filters, context.today).then(roundedStats),
      input.group_by === undefined
        ? undefined
        : deps.search.groupedStats(filters, input.group_by === 'size_class' ? 'size' : input.group_by, context.today),
      estimatesUsed(deps.search, { filters, sort: { field: 'name', descending: false }, asOf: context.today }),
    ]);
    const { figures, ...counts } = stats;
    const answer = { filters: filterEcho(input), ...counts, estimates_used: used, ...figures };
    if (grouped === undefined) return answer;
    const group = (stats: GroupStats) => {
      const { figures, ...counts } = roundedStats(stats);
      return { ...counts, ...figures };
    };
    return {
      ...answer,
      group_by: grouped.group_by,
      groups: grouped.groups.map(({ key, ...stats }) => ({ key, ...group(stats) })),
      other: grouped.other === null ? null : group(grouped.other),
    };
  },
  toMarkdown(result) {
    const share = result.negative_net_assets_share;
    return [
      `# Market statistics: ${result.companies.toLocaleString('en-GB')} companies`,
      `Filters: ${
        Object.entries(result.filters)
          .map(([k, v]) => `${literal(k)} = ${literal(v)}`)
          .join(', ') || 'none'
      }. With machine-readable accounts: ${result.with_accounts.toLocaleString('en-GB')}. Negative net assets: ${negativeShare(share, result.net_assets.count)} of the ${result.net_assets.count.toLocaleString('en-GB')} filing net assets.${
        result.sample
          ? ` Breakdowns and figures estimated from a random sample of ${result.sample.companies.toLocaleString('en-GB')} companies.`
          : ''
      }${estimatesNote(result.estimates_used)}`,
      '## Latest figures',
      table(
        ['Figure', 'Companies', 'Mean', 'P10', 'P25', 'Median', 'P75', 'P90'],
        RANGE_FIGURES.map((figure) => {
          const f = result[figure];
          const show = figure === 'employees' ? count : money;
          return [figure, f.count, show(f.mean), show(f.p10), show(f.p25), show(f.median), show(f.p75), show(f.p90)];
        }),
      ),
      ...('groups' in result && result.groups
        ? groupsMarkdown(result.group_by!, result.groups, result.other ?? null)
        : []),
      '## By status',
      table(['Status', 'Companies'], Object.entries(result.by_status)),
      '## By type',
      table(['Type', 'Companies'], Object.entries(result.by_type)),
      // The year table only when years were asked about (an incorporation range, or grouping by year);
      // the JSON always carries it.
      ...(result.filters.incorporated_from !== undefined ||
      result.filters.incorporated_to !== undefined ||
      result.group_by === 'incorporation_year'
        ? ['## Incorporations by year', table(['Year', 'Companies'], Object.entries(result.incorporations_by_year))]
        : []),
    ].join('\n\n');
  },
});
