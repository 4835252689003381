/**
 * Market stats on every adapter over a few thousand companies with skewed figures (a heavy tail,
 * negatives, many ties, missing values), compared with an exact computation here: the count, the
 * mean, and each percentile as Postgres's percentile_cont gives it (linear interpolation between
 * the two closest ranks). Elasticsearch answers exactly up to 40,000 matching companies, so it
 * must agree with the reference, not approximate it. Then the operation's answer, rounded: money
 * to pence, employees to hundredths, the share to four decimals.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@elastic/elasticsearch';
import { createEsSearchIndex, ensureIndex } from '../../src/adapters/elasticsearch/es-search-index.ts';
import { createPgSearchIndex } from '../../src/adapters/pg-search/pg-search-index.ts';
import type { CompanyFilters, RangeFigure } from '../../src/domain/criteria.ts';
import { PERCENTILES, RANGE_FIGURES } from '../../src/domain/criteria.ts';
import type { SearchDocument } from '../../src/domain/search-document.ts';
import { postTownKey } from '../../src/domain/search-document.ts';
import type { OperationDeps } from '../../src/operations/operation.ts';
import { marketStats } from '../../src/operations/market-stats.ts';
import type { SearchIndex } from '../../src/ports/search-index.ts';
import { testStores } from '../support/databases.ts';
import { elasticsearchUrl } from '../support/elasticsearch.ts';
import { AS_OF, criteriaCompanies } from '../support/search-fixtures.ts';
import { Random } from '../../src/synthetic/random.ts';

const COMPANIES = 3_141;
const ACTIVE = criteriaCompanies.northwind;
const DISSOLVED = criteriaCompanies.westwind;
const TOWNS = ['LEEDS', 'YORK', 'BATH'];

/** The generator's own mulberry32 stream: the same companies on every run and adapter. */
function random(seed: number): () => number {
  const stream = new Random(seed);
  return () => stream.next();
}

/** Whole pounds (sums then stay exact in floating point, as the filed figures are). */
function skewedCompanies(): SearchDocument[] {
  const next = random(20_250_630);
  const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)]!;
  // Pareto-like: most values small, a few enormous.
  const heavy = (scale: number) => Math.round(scale / Math.pow(1 - next(), 1 / 1.1));
  const maybe = (missing: number, value: () => number) => (next() < missing ? null : value());
  return Array.from({ length: COMPANIES }, (_, i) => {
    const roll = next();
    const netAssets = maybe(0.08, () =>
      roll < 0.15 ? pick([0, 1, 100]) : roll < 0.35 ? -heavy(500) : roll < 0.36 ? 1_000_000_000 : heavy(2_000),
    );
    const town = pick(TOWNS);
    // Stats read only the figures and what the filters match, so the fixtures' documents are
    // reused with those replaced.
    return {
      ...(i % 17 === 0 ? DISSOLVED : ACTIVE),
      company_number: `S${String(i).padStart(7, '0')}`,
      name: `SKEWED ${i} LTD`,
      post_town: town,
      post_town_key: postTownKey(town),
      incorporated: `${2000 + (i % 25)}-06-01`,
      net_assets: netAssets,
      cash: maybe(0.15, () => (next() < 0.2 ? 0 : heavy(300))),
      turnover: maybe(0.6, () => heavy(50_000)),
      employees: maybe(0.3, () => (next() < 0.9 ? pick([0, 1, 1, 2, 3, 5]) : heavy(20))),
      profit: maybe(0.7, () => (next() < 0.3 ? -heavy(1_000) : heavy(5_000))),
    };
  });
}

/** percentile_cont: linear interpolation between the values at the two closest ranks. */
function percentileCont(sorted: readonly number[], fraction: number): number {
  const position = fraction * (sorted.length - 1);
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const low = sorted[lower]!;
  return low + (sorted[upper]! - low) * (position - lower);
}

interface Expected {
  count: number;
  mean: number | null;
  percentiles: (number | null)[];
}

function expectedFigures(documents: readonly SearchDocument[]): Record<RangeFigure, Expected> {
  return Object.fromEntries(
    RANGE_FIGURES.map((figure) => {
      const values = documents
        .map((d) => d[figure])
        .filter((v): v is number => v !== null)
        .sort((a, b) => a - b);
      const count = values.length;
      return [
        figure,
        {
          count,
          mean: count === 0 ? null : values.reduce((sum, v) => sum + v, 0) / count,
          percentiles: PERCENTILES.map((p) => (count === 0 ? null : percentileCont(values, p / 100))),
        },
      ];
    }),
  ) as Record<RangeFigure, Expected>;
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places || 0;
const close = (got: number | null, want: number | null) =>
  got === want || (got !== null && want !== null && Math.abs(got - want) <= Math.max(Math.abs(want), 1) * 1e-9);

const questions: [label: string, filters: CompanyFilters, matches: (d: SearchDocument) => boolean][] = [
  ['every company', { status: 'any' }, () => true],
  [
    'active companies in Leeds',
    { status: 'active', post_town: postTownKey('leeds')! },
    (d) => d.status === 'Active' && d.post_town === 'LEEDS',
  ],
];

function statsContract(name: string, make: () => Promise<{ index: SearchIndex; close(): Promise<void> }>): void {
  describe(`${name}: market stats over skewed figures`, () => {
    const documents = skewedCompanies();
    let index: SearchIndex;
    let closeIndex: () => Promise<void>;
    before(async () => {
      ({ index, close: closeIndex } = await make());
      for (let i = 0; i < documents.length; i += 1_000) await index.upsertCompanies(documents.slice(i, i + 1_000));
      await index.refresh();
    });
    after(async () => closeIndex());

    for (const [label, filters, matches] of questions) {
      test(`${label}: counts, means and every percentile as percentile_cont gives them`, async () => {
        const matching = documents.filter(matches);
        const expected = expectedFigures(matching);
        const stats = await index.stats(filters, AS_OF);
        assert.equal(stats.companies, matching.length);
        assert.equal(stats.sample, undefined, 'read exactly, not sampled');
        const negative = matching.filter((d) => d.net_assets !== null && d.net_assets < 0).length;
        assert.ok(close(stats.negative_net_assets_share, negative / expected.net_assets.count));
        for (const figure of RANGE_FIGURES) {
          const got = stats.figures[figure];
          const want = expected[figure];
          assert.equal(got.count, want.count, `${figure}.count`);
          assert.ok(close(got.mean, want.mean), `${figure}.mean: ${got.mean} ≠ ${want.mean}`);
          const percentiles = [got.p10, got.p25, got.median, got.p75, got.p90];
          PERCENTILES.forEach((p, i) =>
            assert.ok(
              close(percentiles[i]!, want.percentiles[i]!),
              `${figure} p${p}: ${percentiles[i]} ≠ ${want.percentiles[i]} (exact)`,
            ),
          );
        }
      });
    }

    test('the answer is rounded: money to pence, employees to hundredths, the share to four decimals', async () => {
      const deps = { search: index } as unknown as OperationDeps;
      const context = { keyId: 1, plan: 'pro' as const, today: AS_OF, now: new Date(`${AS_OF}T12:00:00Z`) };
      const answer = await marketStats.run(deps, { status: 'any' }, context);
      const expected = expectedFigures(documents);
      const negative = documents.filter((d) => d.net_assets !== null && d.net_assets < 0).length;
      assert.equal(answer.negative_net_assets_share, round(negative / expected.net_assets.count, 4));
      for (const figure of RANGE_FIGURES) {
        const got = answer[figure];
        const want = expected[figure];
        const [p10, p25, median, p75, p90] = want.percentiles.map((v) => (v === null ? null : round(v, 2)));
        assert.deepEqual(
          got,
          { count: want.count, mean: round(want.mean!, 2), p10, p25, median, p75, p90 },
          `${figure} rounded`,
        );
      }
      // No value carries more decimals than it is rounded to (no 2137556.0000000005).
      const text = JSON.stringify(answer);
      assert.doesNotMatch(text, /\d\.\d{5,}/, text);
    });
  });
}

for (const store of testStores) {
  statsContract(`postgres (${store.name})`, async () => {
    const { sql, close } = await store.open();
    return { index: createPgSearchIndex(sql), close };
  });
}

statsContract('elasticsearch', async () => {
  const client = new Client({ node: elasticsearchUrl() });
  const alias = `companies_stats_${process.pid}`;
  await client.indices.delete({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true });
  await ensureIndex({ client, alias });
  return {
    index: createEsSearchIndex({ client, alias }),
    async close() {
      await client.indices.delete({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true });
      await client.close();
    },
  };
});
