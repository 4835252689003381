/**
 * market_stats {group_by} on every adapter: each grouping's groups, their order and their stats
 * against a computation here (groupKeys, then counts, means and percentile_cont per group), each
 * group against the ungrouped stats with the matching filter where one exists, and the bound: 50
 * groups and `other` over the rest, with more than 50 post towns.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@elastic/elasticsearch';
import { createEsSearchIndex, ensureIndex } from '../../src/adapters/elasticsearch/es-search-index.ts';
import { createPgSearchIndex } from '../../src/adapters/pg-search/pg-search-index.ts';
import { statusGroups } from '../../src/domain/company-status.ts';
import { companyTypeKey } from '../../src/domain/company-type.ts';
import type { CompanyFilters, FigureStats } from '../../src/domain/criteria.ts';
import { PERCENTILES, RANGE_FIGURES } from '../../src/domain/criteria.ts';
import type { GroupBy, GroupStats } from '../../src/domain/market-groups.ts';
import { compareGroups, GROUP_BY, GROUP_LIMIT, groupKeys } from '../../src/domain/market-groups.ts';
import { RISK_BANDS } from '../../src/domain/risk-band.ts';
import type { SearchDocument } from '../../src/domain/search-document.ts';
import { postTownKey, sicPrefixes } from '../../src/domain/search-document.ts';
import { SIZE_BANDS } from '../../src/domain/size-band.ts';
import type { SearchIndex } from '../../src/ports/search-index.ts';
import { testStores } from '../support/databases.ts';
import { elasticsearchUrl } from '../support/elasticsearch.ts';
import { AS_OF, criteriaCompanies } from '../support/search-fixtures.ts';
import { Random } from '../../src/synthetic/random.ts';

const COMPANIES = 2_400;
const TOWNS = Array.from({ length: 64 }, (_, i) => `TOWN ${String(i).padStart(2, '0')}`);
const STATUSES = ['Active', 'Active', 'Active', 'Active - Proposal to Strike off', 'Liquidation', 'Dissolved'];
const TYPES = ['Private Limited Company', 'Private Limited Company', 'PLC', 'Limited Liability Partnership'];
const SIC_CODES = ['62020', '62012', '47910', '41100', '68209', '70229', '99999', '01110', '86101', '74990', '89000'];

/** The generator's own mulberry32 stream: the same companies on every run and adapter. */
function random(seed: number): () => number {
  const stream = new Random(seed);
  return () => stream.next();
}

function groupedCompanies(): SearchDocument[] {
  const next = random(20_261_123);
  const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)]!;
  const heavy = (scale: number) => Math.round(scale / Math.pow(1 - next(), 1 / 1.1));
  const maybe = (missing: number, value: () => number) => (next() < missing ? null : value());
  return Array.from({ length: COMPANIES }, (_, i) => {
    const status = pick(STATUSES);
    const type = pick(TYPES);
    // Skewed towns (a few large, a long tail), some companies without one.
    const town = next() < 0.04 ? null : TOWNS[Math.floor(TOWNS.length * next() ** 2)]!;
    const codes =
      next() < 0.05 ? [] : [...new Set(Array.from({ length: 1 + Math.floor(next() * 2.5) }, () => pick(SIC_CODES)))];
    const sicCodes = codes.map((code) => `${code} - Activity`);
    const band = pick(RISK_BANDS);
    return {
      ...criteriaCompanies.northwind,
      company_number: `G${String(i).padStart(7, '0')}`,
      name: `GROUPED ${i} LTD`,
      status,
      status_groups: statusGroups(status),
      type,
      type_key: companyTypeKey(type),
      sic_codes: sicCodes,
      sic_prefixes: sicPrefixes(sicCodes),
      post_town: town,
      post_town_key: postTownKey(town),
      incorporated: next() < 0.03 ? null : `${1990 + Math.floor(next() * 36)}-0${1 + Math.floor(next() * 9)}-15`,
      size_band: next() < 0.2 ? null : pick(SIZE_BANDS),
      must_file: next() < 0.8,
      accounts_next_due: next() < 0.1 ? null : `2025-0${1 + Math.floor(next() * 9)}-01`,
      risk_band: band,
      risk_band_if_overdue: band === 'high' ? 'high' : pick(['medium', 'high'] as const),
      balance_sheet_date: next() < 0.1 ? null : '2024-12-31',
      net_assets: maybe(0.08, () => (next() < 0.25 ? -heavy(500) : heavy(2_000))),
      cash: maybe(0.15, () => heavy(300)),
      turnover: maybe(0.6, () => heavy(50_000)),
      employees: maybe(0.3, () => (next() < 0.9 ? pick([0, 1, 1, 2, 3, 5]) : heavy(20))),
      profit: maybe(0.7, () => (next() < 0.3 ? -heavy(1_000) : heavy(5_000))),
    };
  });
}

function percentileCont(sorted: readonly number[], fraction: number): number {
  const position = fraction * (sorted.length - 1);
  const lower = Math.floor(position);
  const low = sorted[lower]!;
  return low + (sorted[Math.ceil(position)]! - low) * (position - lower);
}

/** The stats of these companies, as the adapters compute them. */
function expectedStats(documents: readonly SearchDocument[]): GroupStats {
  const figures = Object.fromEntries(
    RANGE_FIGURES.map((figure): [string, FigureStats] => {
      const values = documents
        .map((d) => d[figure])
        .filter((v): v is number => v !== null)
        .sort((a, b) => a - b);
      const at = (p: number) => (values.length === 0 ? null : percentileCont(values, p / 100));
      const [p10, p25, median, p75, p90] = PERCENTILES.map(at);
      return [
        figure,
        {
          count: values.length,
          mean: values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length,
          p10: p10!,
          p25: p25!,
          median: median!,
          p75: p75!,
          p90: p90!,
        },
      ];
    }),
  ) as GroupStats['figures'];
  const negative = documents.filter((d) => d.net_assets !== null && d.net_assets < 0).length;
  return {
    companies: documents.length,
    with_accounts: documents.filter((d) => d.balance_sheet_date !== null).length,
    figures,
    negative_net_assets_share: figures.net_assets.count === 0 ? null : negative / figures.net_assets.count,
  };
}

/** The groups and other, computed here from groupKeys. */
function expectedGroups(documents: readonly SearchDocument[], groupBy: GroupBy) {
  const members = new Map<string | null, SearchDocument[]>();
  for (const document of documents)
    for (const key of groupKeys(document, groupBy, AS_OF)) members.set(key, [...(members.get(key) ?? []), document]);
  const listed = [...members]
    .map(([key, companies]) => ({ key, companies: companies.length, members: companies }))
    .sort(compareGroups)
    .slice(0, GROUP_LIMIT);
  const listedKeys = new Set(listed.map((group) => group.key));
  const rest = documents.filter((d) => !groupKeys(d, groupBy, AS_OF).some((key) => listedKeys.has(key)));
  return {
    groups: listed.map((group) => ({ key: group.key, ...expectedStats(group.members) })),
    other: rest.length === 0 ? null : expectedStats(rest),
  };
}

const close = (got: number | null, want: number | null) =>
  got === want || (got !== null && want !== null && Math.abs(got - want) <= Math.max(Math.abs(want), 1) * 1e-9);

function assertStats(got: GroupStats, want: GroupStats, label: string): void {
  assert.equal(got.companies, want.companies, `${label}: companies`);
  assert.equal(got.with_accounts, want.with_accounts, `${label}: with_accounts`);
  assert.equal(got.sample, undefined, `${label}: read exactly, not sampled`);
  assert.ok(close(got.negative_net_assets_share, want.negative_net_assets_share), `${label}: negative share`);
  for (const figure of RANGE_FIGURES)
    for (const stat of ['count', 'mean', 'p10', 'p25', 'median', 'p75', 'p90'] as const)
      assert.ok(
        close(got.figures[figure][stat], want.figures[figure][stat]),
        `${label}: ${figure}.${stat} ${got.figures[figure][stat]} ≠ ${want.figures[figure][stat]}`,
      );
}

/** The filter that picks one group's companies, where the filters can say it. */
function groupFilter(groupBy: GroupBy, key: string): Partial<CompanyFilters> | null {
  switch (groupBy) {
    case 'type':
      return { type: companyTypeKey(key) };
    case 'sic_code':
      return { sic: key };
    case 'post_town':
      return { post_town: key };
    case 'incorporation_year':
      return { incorporated_from: `${key}-01-01`, incorporated_to: `${key}-12-31` };
    case 'size':
      return { size: key as CompanyFilters['size'] & string };
    case 'risk_band':
      return { risk_band: key as CompanyFilters['risk_band'] & string };
    default:
      return null;
  }
}

function groupsContract(name: string, make: () => Promise<{ index: SearchIndex; close(): Promise<void> }>): void {
  describe(`${name}: market stats by group`, () => {
    const documents = groupedCompanies();
    let index: SearchIndex;
    let closeIndex: () => Promise<void>;
    before(async () => {
      ({ index, close: closeIndex } = await make());
      for (let i = 0; i < documents.length; i += 1_000) await index.upsertCompanies(documents.slice(i, i + 1_000));
      await index.refresh();
    });
    after(async () => closeIndex());

    const questions: [label: string, filters: CompanyFilters, matches: (d: SearchDocument) => boolean][] = [
      ['every company', { status: 'any' }, () => true],
      ['active companies', { status: 'active' }, (d) => d.status_groups.includes('active')],
    ];
    for (const [label, filters, matches] of questions)
      for (const groupBy of GROUP_BY)
        test(`${label} by ${groupBy}: groups, order, stats and other as computed here`, async () => {
          const want = expectedGroups(documents.filter(matches), groupBy);
          const got = await index.groupedStats(filters, groupBy, AS_OF);
          assert.equal(got.group_by, groupBy);
          assert.deepEqual(
            got.groups.map((g) => [g.key, g.companies]),
            want.groups.map((g) => [g.key, g.companies]),
          );
          got.groups.forEach((group, i) => assertStats(group, want.groups[i]!, `group ${group.key}`));
          if (want.other === null) assert.equal(got.other, null);
          else assertStats(got.other!, want.other, 'other');
        });

    for (const groupBy of GROUP_BY)
      test(`by ${groupBy}: each group's stats are the ungrouped stats with the group's filter`, async (t) => {
        const grouped = await index.groupedStats({ status: 'any' }, groupBy, AS_OF);
        let compared = 0;
        for (const group of grouped.groups) {
          const filter = group.key === null ? null : groupFilter(groupBy, group.key);
          if (filter === null) continue;
          const { companies, with_accounts, figures, negative_net_assets_share } = await index.stats(
            { status: 'any', ...filter },
            AS_OF,
          );
          assertStats(group, { companies, with_accounts, figures, negative_net_assets_share }, `group ${group.key}`);
          compared++;
        }
        if (compared === 0) t.diagnostic(`${groupBy}: no filter picks one group (checked against the computation)`);
      });

    test('more than 50 post towns: the 50 largest listed, other over the rest, nothing lost', async () => {
      const grouped = await index.groupedStats({ status: 'any' }, 'post_town', AS_OF);
      assert.ok(new Set(documents.map((d) => d.post_town_key)).size > GROUP_LIMIT + 1);
      assert.equal(grouped.groups.length, GROUP_LIMIT);
      const listed = grouped.groups.reduce((sum, g) => sum + g.companies, 0);
      assert.ok(grouped.other !== null && grouped.other.companies > 0);
      assert.equal(listed + grouped.other.companies, COMPANIES);
      // Other's stats are over its companies, not only counted.
      const listedKeys = new Set(grouped.groups.map((g) => g.key));
      assertStats(grouped.other, expectedStats(documents.filter((d) => !listedKeys.has(d.post_town_key))), 'other');
    });
  });
}

for (const store of testStores) {
  groupsContract(`postgres (${store.name})`, async () => {
    const { sql, close } = await store.open();
    return { index: createPgSearchIndex(sql), close };
  });
}

// Up to 40,000 matches Elasticsearch reads them and groups them itself; over, each group is read
// by its own searches (exactly up to 40,000 in the group): the second way, with the bound lowered.
for (const [label, exactStatsUpTo] of [
  ['elasticsearch', undefined],
  ['elasticsearch, each group by its own searches', 1_000],
] as const)
  groupsContract(label, async () => {
    const client = new Client({ node: elasticsearchUrl() });
    const alias = `companies_groups_${exactStatsUpTo ?? 'all'}_${process.pid}`;
    await client.indices.delete({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true });
    await ensureIndex({ client, alias });
    return {
      index: createEsSearchIndex({ client, alias, ...(exactStatsUpTo ? { exactStatsUpTo } : {}) }),
      async close() {
        await client.indices.delete({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true });
        await client.close();
      },
    };
  });

describe('elasticsearch: a group over the exact bound is estimated from its own sample, and says so', () => {
  const documents = groupedCompanies();
  const client = new Client({ node: elasticsearchUrl() });
  const alias = `companies_groups_sampled_${process.pid}`;
  // Over 1,000 companies stats are sampled (about 500 of them): the whole set, and the one status
  // group that large; the other groups stay exact.
  const index = createEsSearchIndex({ client, alias, exactStatsUpTo: 1_000, statsSample: 500 });
  before(async () => {
    await client.indices.delete({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true });
    await ensureIndex({ client, alias });
    await index.upsertCompanies(documents);
    await index.refresh();
  });
  after(async () => {
    await client.indices.delete({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true });
    await client.close();
  });

  test('by status: Active sampled with its exact count, the rest exact', async () => {
    const grouped = await index.groupedStats({ status: 'any' }, 'status', AS_OF);
    const want = expectedGroups(documents, 'status');
    assert.deepEqual(
      grouped.groups.map((g) => [g.key, g.companies]),
      want.groups.map((g) => [g.key, g.companies]),
    );
    const [active, ...rest] = grouped.groups;
    assert.equal(active!.key, 'Active');
    assert.ok(active!.companies > 1_000);
    assert.ok(active!.sample, 'the large group says it was sampled');
    assert.equal(active!.sample.probability, Number((500 / active!.companies).toPrecision(2)));
    assert.ok(active!.sample.companies > 300 && active!.sample.companies < 800, String(active!.sample.companies));
    rest.forEach((group, i) => assertStats(group, want.groups[i + 1]!, `group ${group.key}`));
    assert.equal(grouped.other, null);
  });
});
