/**
 * Updates go through the alias. When it is missing (the index was never built, or was deleted by
 * hand) the update must fail and say so: an Elasticsearch that creates indices on write would
 * otherwise make one of that name with default settings (no mapping, one replica) and the search
 * would answer from it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@elastic/elasticsearch';
import { createEsSearchIndex } from '../../src/adapters/elasticsearch/es-search-index.ts';
import { elasticsearchUrl } from '../support/elasticsearch.ts';
import { searchDocuments } from '../support/search-fixtures.ts';

test('an update to an alias that does not exist is refused and creates nothing', async (t) => {
  const client = new Client({ node: elasticsearchUrl() });
  t.after(() => client.close());
  const alias = `companies_missing_${process.pid}`;
  const index = createEsSearchIndex({ client, alias });
  await assert.rejects(index.upsertCompanies(searchDocuments.slice(0, 2)), /require_alias|not an alias/);
  assert.equal(await client.indices.exists({ index: alias }), false);
});
