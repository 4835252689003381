/**
 * The Elasticsearch adapter's cache of name search pages, on the real Elasticsearch: a repeated
 * search is answered without asking Elasticsearch, identical searches at once ask it once, and a
 * change to the index retires the cached pages — made through the adapter, at once; made by any
 * other writer (written here with the bare client, as another process would), as soon as the
 * index's generation is read again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@elastic/elasticsearch';
import { createEsSearchIndex, ensureIndex } from '../../src/adapters/elasticsearch/es-search-index.ts';
import { indexGeneration } from '../../src/adapters/elasticsearch/index-generation.ts';
import { searchDocument } from '../../src/domain/search-document.ts';
import type { SearchIndex } from '../../src/ports/search-index.ts';
import { elasticsearchUrl } from '../support/elasticsearch.ts';
import { nameDocuments } from '../support/search-fixtures.ts';

const alias = `companies_name_cache_${process.pid}`;
let client: Client;
/** Searches and multi-searches sent to Elasticsearch since the test began. */
let searches = 0;

before(async () => {
  client = new Client({ node: elasticsearchUrl() });
  client.diagnostic.on('request', (_error, event) => {
    if (/\/_m?search$/.test(event?.meta.request.params.path ?? '')) searches++;
  });
  await client.indices.delete({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true });
  await ensureIndex({ client, alias });
  const writer = createEsSearchIndex({ client, alias });
  await writer.upsertCompanies(nameDocuments);
  await writer.refresh();
});
after(async () => {
  await client.indices.delete({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true });
  await client.close();
});

/** Another writer: deletes a company with the bare client and makes it visible. */
async function deleteElsewhere(companyNumber: string) {
  await client.delete({ index: alias, id: companyNumber });
  await client.indices.refresh({ index: alias });
}

const names = async (index: SearchIndex, query: string) =>
  (await index.searchByName(query, 10)).hits.map((h) => h.name);

describe('name search pages cached by the Elasticsearch adapter', () => {
  test('a repeated search (the same phrase, however typed) asks Elasticsearch nothing', async () => {
    const index = createEsSearchIndex({ client, alias, generationMaxAgeMs: 60_000 });
    const first = await index.searchByName('Marks & Spencer', 5);
    const before = searches;
    assert.deepEqual(await index.searchByName('MARKS AND SPENCER LTD', 5), first);
    assert.equal(searches, before);
    // Another limit is another page.
    await index.searchByName('marks and spencer', 1);
    assert.ok(searches > before);
    // Without the cache, every search asks.
    const uncached = createEsSearchIndex({ client, alias, nameSearchCacheEntries: 0 });
    const asked = searches;
    await uncached.searchByName('Marks & Spencer', 5);
    await uncached.searchByName('Marks & Spencer', 5);
    assert.ok(searches >= asked + 2);
  });

  test('identical searches in flight at once ask Elasticsearch once', async () => {
    const index = createEsSearchIndex({ client, alias, generationMaxAgeMs: 60_000 });
    const before = searches;
    const pages = await Promise.all(Array.from({ length: 6 }, () => index.searchByName('acme widgets', 10)));
    assert.equal(searches, before + 1);
    for (const page of pages) assert.deepEqual(page, pages[0]);
    // Each caller has its own list.
    assert.notEqual(pages[0]!.hits, pages[1]!.hits);
  });

  test("another writer's change retires the pages once the generation is read again", async () => {
    const generation = indexGeneration(client, alias, 0);
    const index = createEsSearchIndex({ client, alias, generationMaxAgeMs: 0 });
    assert.deepEqual(await names(index, 'zebra'), ['ZEBRA CROSSINGS LTD']);
    const unchanged = await generation.current();
    assert.equal(await generation.current(), unchanged);
    await deleteElsewhere('00000013');
    assert.notEqual(await generation.current(), unchanged);
    assert.deepEqual(await names(index, 'zebra'), []);
  });

  test("within the generation's age, another writer's change is not seen; the adapter's own writes are, at once", async () => {
    const index = createEsSearchIndex({ client, alias, generationMaxAgeMs: 60_000 });
    assert.deepEqual(await names(index, "o'brien"), ["O'BRIEN'S BAKERY LTD"]);
    await deleteElsewhere('00000009');
    // The cached page, not yet retired: what the age bound allows (and what proves it is cached).
    assert.deepEqual(await names(index, "o'brien"), ["O'BRIEN'S BAKERY LTD"]);
    await index.upsertCompanies([
      searchDocument(
        {
          company_number: '00000099',
          name: "O'BRIEN HOLDINGS LTD",
          status: 'Active',
          type: 'Private Limited Company',
          post_town: 'LEEDS',
          incorporated: '2015-03-01',
          sic_codes: [],
          accounts_next_due: null,
          accounts_last_made_up_to: null,
          charges_outstanding: 0,
        },
        [],
      ),
    ]);
    await index.refresh();
    assert.deepEqual(await names(index, "o'brien"), ["O'BRIEN HOLDINGS LTD"]);
  });
});
