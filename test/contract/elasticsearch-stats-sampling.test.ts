/**
 * Elasticsearch's stats over many companies come from a random sample (reading millions of
 * documents takes seconds): the count of companies stays exact, the rest is scaled from the
 * sample and says so. Here the thresholds are lowered so that the fixtures are "many".
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@elastic/elasticsearch';
import { createEsSearchIndex, ensureIndex } from '../../src/adapters/elasticsearch/es-search-index.ts';
import type { SearchIndex } from '../../src/ports/search-index.ts';
import { elasticsearchUrl } from '../support/elasticsearch.ts';
import { AS_OF, searchDocuments } from '../support/search-fixtures.ts';

const alias = `companies_sampling_${process.pid}`;
let client: Client;
let sampled: SearchIndex;
let exact: SearchIndex;

before(async () => {
  client = new Client({ node: elasticsearchUrl() });
  await ensureIndex({ client, alias });
  sampled = createEsSearchIndex({ client, alias, exactStatsUpTo: 3, statsSample: 10 });
  exact = createEsSearchIndex({ client, alias });
  await exact.upsertCompanies(searchDocuments);
  await exact.refresh();
});
after(async () => {
  await client.indices.delete({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true });
  await client.close();
});

test('over the threshold: companies exact, the rest from a sample that is reported', async () => {
  const whole = await exact.stats({ status: 'any' }, AS_OF);
  const estimate = await sampled.stats({ status: 'any' }, AS_OF);
  assert.equal(whole.sample, undefined);
  assert.equal(estimate.companies, whole.companies);
  assert.ok(estimate.sample, 'the sample is reported');
  assert.ok(estimate.sample.probability > 0 && estimate.sample.probability <= 0.5);
  assert.ok(estimate.sample.companies <= whole.companies);
  // The same question gives the same answer: the sample's seed is fixed.
  assert.deepEqual(await sampled.stats({ status: 'any' }, AS_OF), estimate);
});

test('at or under the threshold, or when a sample would be most of them, every company is read', async () => {
  const few = await sampled.stats({ status: 'liquidation' }, AS_OF);
  assert.equal(few.sample, undefined);
  assert.equal(few.companies, 1);
  const mostly = createEsSearchIndex({ client, alias, exactStatsUpTo: 3, statsSample: 1_000 });
  assert.equal((await mostly.stats({ status: 'any' }, AS_OF)).sample, undefined);
});
