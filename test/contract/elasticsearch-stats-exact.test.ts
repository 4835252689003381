/**
 * Elasticsearch's exact stats read percentiles at their ranks in sorted searches, up to half the
 * matching companies deep (many ties at the estimate leave the rank far from it): up to 40,000
 * companies, past the default result window of 10,000. An index built before the mapping raised that window gets the new one when the
 * service opens it, without a rebuild. (The skewed-figures comparison with percentile_cont, on
 * every adapter, is market-stats.test.ts.)
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@elastic/elasticsearch';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEsSearchIndex, ensureIndex } from '../../src/adapters/elasticsearch/es-search-index.ts';
import type { SearchDocument } from '../../src/domain/search-document.ts';
import { elasticsearchUrl } from '../support/elasticsearch.ts';
import { repoRoot } from '../support/samples.ts';
import { AS_OF, criteriaCompanies } from '../support/search-fixtures.ts';

const alias = `companies_deep_${process.pid}`;
let client: Client;

before(async () => {
  client = new Client({ node: elasticsearchUrl() });
  await client.indices.delete({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true });
  // The index as an older mapping made it: Elasticsearch's default result window.
  const mapping = JSON.parse(readFileSync(join(repoRoot, 'index-mappings', 'companies.json'), 'utf8'));
  await client.indices.create({
    index: `${alias}_v1`,
    mappings: mapping.mappings,
    settings: { ...mapping.settings, max_result_window: 10_000 },
    aliases: { [alias]: {} },
  });
});
after(async () => {
  await client.indices.delete({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true });
  await client.close();
});

const resultWindow = async () => {
  const settings = await client.indices.getSettings({ index: alias, name: 'index.max_result_window' });
  return Number(Object.values(settings)[0]?.settings?.index?.max_result_window);
};

test('opening an index built with a smaller result window raises it', async () => {
  assert.equal(await resultWindow(), 10_000);
  await ensureIndex({ client, alias });
  assert.equal(await resultWindow(), 20_001);
  await ensureIndex({ client, alias });
  assert.equal(await resultWindow(), 20_001);
});

test('24,001 companies, most tied: every percentile exact, its rank read past the default window of 10,000', async () => {
  const index = createEsSearchIndex({ client, alias });
  const base = criteriaCompanies.northwind;
  const companies = 24_001;
  // Four in five at zero, the rest squares either side: the estimated median is zero, and its rank
  // lies about 10,800 places into the values from zero up (12,000 from the top).
  const value = (i: number) => (i % 20 === 0 ? -(i ** 2) : i % 20 < 17 ? 0 : i ** 2);
  const values: number[] = [];
  for (let from = 0; from < companies; from += 6_000) {
    const batch: SearchDocument[] = [];
    for (let i = from; i < Math.min(from + 6_000, companies); i++) {
      values.push(value(i));
      batch.push({ ...base, company_number: `D${String(i).padStart(7, '0')}`, net_assets: value(i) });
    }
    await index.upsertCompanies(batch);
  }
  await index.refresh();
  values.sort((a, b) => a - b);
  const cont = (fraction: number) => {
    const position = fraction * (values.length - 1);
    const low = values[Math.floor(position)]!;
    return low + (values[Math.ceil(position)]! - low) * (position - Math.floor(position));
  };
  const stats = await index.stats({ status: 'any' }, AS_OF);
  assert.equal(stats.sample, undefined);
  const { count, p10, p25, median, p75, p90 } = stats.figures.net_assets;
  assert.equal(count, companies);
  assert.deepEqual([p10, p25, median, p75, p90], [cont(0.1), cont(0.25), cont(0.5), cont(0.75), cont(0.9)]);
});

test('exact stats beyond what the result window allows are refused when the adapter is made', () => {
  assert.throws(() => createEsSearchIndex({ client, alias, exactStatsUpTo: 50_000 }), /max_result_window/);
});
