/**
 * A full rebuild behind an alias is merged into one segment before the alias moves to it, so that
 * searches, which read every segment, read one (docs/search.md). On the real Elasticsearch.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@elastic/elasticsearch';
import { readIndexMapping, rebuildBehindAlias } from '../../src/adapters/elasticsearch/es-versioned-index.ts';
import { elasticsearchUrl } from '../support/elasticsearch.ts';

const alias = `rebuild_segments_${process.pid}`;
let client: Client;

before(() => {
  client = new Client({ node: elasticsearchUrl() });
});
after(async () => {
  await client.indices.delete({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true });
  await client.close();
});

async function* batches(): AsyncGenerator<{ company_number: string; name: string }[]> {
  for (let b = 0; b < 4; b++)
    yield Array.from({ length: 50 }, (_, i) => ({
      company_number: `SG${String(b * 50 + i).padStart(6, '0')}`,
      name: `SEGMENT ${b} COMPANY ${i} LTD`,
    }));
}

test('a rebuilt index is published as one segment, holding every document', async () => {
  const mapping = readIndexMapping('companies.json');
  const written = await rebuildBehindAlias({ client, alias, mapping }, batches(), async (index, batch) => {
    await client.bulk({ operations: batch.flatMap((d) => [{ index: { _index: index, _id: d.company_number } }, d]) });
    // Each batch made visible on its own: a segment each, as a long build leaves many.
    await client.indices.refresh({ index });
  });
  assert.equal(written, 200);
  const segments = await client.cat.segments({ index: alias, format: 'json' });
  assert.equal(segments.filter((s) => Number(s['docs.count']) > 0).length, 1, JSON.stringify(segments));
  assert.equal((await client.count({ index: alias })).count, 200);
});
