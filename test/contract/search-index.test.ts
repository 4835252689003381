/**
 * One SearchIndex contract, run against every adapter with the same fixtures: Postgres on PGlite,
 * Postgres on the real server, and the real Elasticsearch. A behaviour is added here, never to
 * one adapter's tests alone.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@elastic/elasticsearch';
import { createEsSearchIndex, ensureIndex } from '../../src/adapters/elasticsearch/es-search-index.ts';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { createPgSearchIndex } from '../../src/adapters/pg-search/pg-search-index.ts';
import type { SearchIndex } from '../../src/ports/search-index.ts';
import { nameDocuments, searchDocuments } from '../support/search-fixtures.ts';
import { criteriaContract } from './search-criteria.case.ts';
import { testStores } from '../support/databases.ts';
import { elasticsearchUrl } from '../support/elasticsearch.ts';

function searchIndexContract(name: string, make: () => Promise<{ index: SearchIndex; close(): Promise<void> }>): void {
  describe(`${name} honours SearchIndex.searchByName`, () => {
    let index: SearchIndex;
    let close: () => Promise<void>;
    before(async () => {
      ({ index, close } = await make());
      await index.upsertCompanies(searchDocuments);
      await index.refresh();
    });
    after(async () => close());
    const names = async (query: string, limit = 20) =>
      (await index.searchByName(query, limit)).hits.map((hit) => hit.name);

    test('exact name ignoring suffix first, then starts-with by length, then contains, then word prefixes', async () => {
      assert.deepEqual(await names('tesco'), [
        'TESCO',
        'TESCO PLC',
        'TESCO STORES LIMITED',
        'STORES OF TESCO LTD',
        'BEST TESCO SUPPLIES LTD',
      ]);
    });
    test('the exact name wins over its suffixed twin only by length: both are exact', async () => {
      assert.deepEqual((await names('Tesco plc')).slice(0, 2), ['TESCO', 'TESCO PLC']);
    });
    test('typing a prefix finds the company ("tesc" finds TESCO PLC)', async () => {
      assert.ok((await names('tesc')).includes('TESCO PLC'));
    });
    test('every word matches as a prefix, in any order ("tesc sto" finds TESCO STORES)', async () => {
      // "Starts with the phrase" is about the normalised string: TESCO STORES does not start with
      // "TESC STO", so both names are word-prefix matches, shortest first.
      assert.deepEqual(await names('tesc sto'), ['STORES OF TESCO LTD', 'TESCO STORES LIMITED']);
      assert.deepEqual(await names('tesco sto'), ['TESCO STORES LIMITED', 'STORES OF TESCO LTD']);
    });
    test('a word inside a longer word does not match', async () => {
      assert.ok(!(await names('esco')).includes('TESCO PLC'));
    });
    test('active before dissolved, even when longer; but an exact name outranks both', async () => {
      assert.deepEqual(await names('acme'), ['ACME WIDGETS (UK) LIMITED', 'ACME WIDGETS LIMITED']);
      assert.deepEqual(await names('acme widgets'), ['ACME WIDGETS LIMITED', 'ACME WIDGETS (UK) LIMITED']);
    });
    test('& and "and" are the same, and exact beats active', async () => {
      assert.deepEqual(await names('marks and spencer group'), ['MARKS & SPENCER GROUP P.L.C.']);
      assert.deepEqual(await names('Marks & Spencer'), ['MARKS AND SPENCER LIMITED', 'MARKS & SPENCER GROUP P.L.C.']);
    });
    test('punctuation and accents are ignored', async () => {
      assert.deepEqual(await names('obriens bakery'), ["O'BRIEN'S BAKERY LTD"]);
      assert.deepEqual(await names('cafe nero'), ['CAFÉ NÉRO LIMITED']);
    });
    test('a one-letter query returns names with a word starting with it, shortest first', async () => {
      assert.deepEqual(await names('z'), ['ZEBRA CROSSINGS LTD']);
      assert.deepEqual((await names('t', 3)).length, 3);
    });
    test('a query of only a suffix finds the names that use it as a word', async () => {
      assert.deepEqual(await names('limited'), ['LIMITED EDITION PRINTS LTD']);
    });
    test('no match is an empty list, not an error; a query with no letters too', async () => {
      assert.deepEqual(await names('qqqqzzz'), []);
      assert.deepEqual(await names('!!!'), []);
    });
    test('the limit is honoured and hits carry the register fields', async () => {
      const { hits } = await index.searchByName('tesco', 2);
      assert.equal(hits.length, 2);
      assert.deepEqual(Object.keys(hits[0]!).sort(), [
        'company_number',
        'incorporated',
        'name',
        'post_town',
        'sic_codes',
        'status',
        'type',
      ]);
    });
    test('a rebuild replaces the whole index, and can be run again', async () => {
      async function* batches(names: string[][]) {
        for (const batch of names)
          yield batch.map((name, i) => ({
            ...nameDocuments[0]!,
            company_number: `R${batch.length}${i}${name.length}`.padEnd(8, '0').slice(0, 8),
            name,
          }));
      }
      assert.equal(await index.rebuild(batches([['TESCO REBUILT LTD'], ['OTHER NAME LTD']])), 2);
      assert.deepEqual(await names('tesco'), ['TESCO REBUILT LTD']);
      assert.equal(await index.rebuild(batches([['TESCO AGAIN LTD']])), 1);
      assert.deepEqual(await names('tesco'), ['TESCO AGAIN LTD']);
      assert.deepEqual(await names('other'), []);
      assert.equal(await index.count(), 1);
      // Put the fixtures back for the tests after this one.
      await index.rebuild(batches([]));
      await index.upsertCompanies(searchDocuments);
      await index.refresh();
    });

    test('a phrase of several words: names starting with it, then containing it at a word start, then having its words', async () => {
      const homeCare = [
        'CARE AT HOME LTD',
        'BEST HOME CARE LTD',
        'HOME CARE NORTH LTD',
        'BEST HOMECARE LTD',
        'WEST HOME CAREERS LTD',
      ];
      await index.upsertCompanies(
        homeCare.map((name, i) => ({ ...nameDocuments[0]!, company_number: `HC00000${i}`, name })),
      );
      await index.refresh();
      // "WEST HOME CAREERS" contains "home care" too: the last word is a prefix. "BEST HOMECARE"
      // has no word starting with "care".
      assert.deepEqual(await names('home care'), [
        'HOME CARE NORTH LTD',
        'BEST HOME CARE LTD',
        'WEST HOME CAREERS LTD',
        'CARE AT HOME LTD',
      ]);
      assert.deepEqual(await names('home car'), await names('home care'));
      assert.deepEqual(await names('best home c'), ['BEST HOME CARE LTD']);
      assert.deepEqual(await names('t home care'), []);
    });

    const near = async (query: string, limit = 20) =>
      (await index.searchByName(query, limit)).near.map((hit) => hit.name);
    test('near matches: a letter or two wrong, missing or swapped, fewest edits first, active first, then shorter', async () => {
      assert.deepEqual(await names('tesoc'), []);
      assert.deepEqual(await near('tesoc'), [
        'TESCO',
        'TESCO PLC',
        'STORES OF TESCO LTD',
        'TESCO STORES LIMITED',
        'BEST TESCO SUPPLIES LTD',
      ]);
      // Two edits from a word of six letters or more: ATESCO is two from TESCOS, the rest one.
      assert.deepEqual((await near('tescos')).slice(-2), ['BEST TESCO SUPPLIES LTD', 'ATESCO TRADING LTD']);
      assert.deepEqual(await near('zebra crsings'), ['ZEBRA CROSSINGS LTD']);
      assert.deepEqual(await near('marks and spenser'), ['MARKS & SPENCER GROUP P.L.C.', 'MARKS AND SPENCER LIMITED']);
      // One edit is all a word of three to five letters may have, none a word of one or two.
      assert.deepEqual(await near('tsoc'), []);
      assert.deepEqual(await near('qqqqzzz'), []);
    });
    test('near matches only when the words match no name: a query that finds any never gets (or pays for) them', async () => {
      // ATESCO is one edit from TESCO, but TESCO's words match five names.
      const page = await index.searchByName('tesco', 20);
      assert.deepEqual(
        page.hits.map((hit) => hit.name),
        ['TESCO', 'TESCO PLC', 'TESCO STORES LIMITED', 'STORES OF TESCO LTD', 'BEST TESCO SUPPLIES LTD'],
      );
      assert.equal(page.total, 5);
      assert.deepEqual(page.near, []);
      // Up to the limit, best first; the answer's count and cursor are the ranking's (none).
      assert.deepEqual(await near('tesoc', 2), ['TESCO', 'TESCO PLC']);
      const empty = await index.searchByName('tesoc', 20);
      assert.equal(empty.total, 0);
      assert.equal(empty.next, null);
    });
    test('re-indexing a company replaces it', async () => {
      await index.upsertCompanies([{ ...nameDocuments[12]!, name: 'ZEBRA HOLDINGS LTD' }]);
      await index.refresh();
      assert.deepEqual(await names('zebra'), ['ZEBRA HOLDINGS LTD']);
    });
  });
  criteriaContract(name, make);
}

for (const store of testStores) {
  searchIndexContract(`postgres (${store.name})`, async () => {
    const { sql, close } = await store.open();
    return { index: createPgSearchIndex(sql), close };
  });
}

let indexCounter = 0;
// Name search on Elasticsearch ranks few candidates with one scored query and many by tiers that
// stop early; with the threshold at zero the fixtures take the tiered path.
for (const [label, options] of [
  ['elasticsearch', {}],
  ['elasticsearch (tiered name search)', { scoredNameSearchUpTo: 0 }],
] as const) {
  searchIndexContract(label, async () => {
    const client = new Client({ node: elasticsearchUrl() });
    const alias = `companies_contract_${process.pid}_${++indexCounter}`;
    await ensureIndex({ client, alias });
    return {
      index: createEsSearchIndex({ client, alias, ...options }),
      async close() {
        await client.indices.delete({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true });
        await client.close();
      },
    };
  });
}

describe('the index is rebuilt from the store', () => {
  test('every company of the store, in batches, reaches the index', async () => {
    const { sql, close } = await testStores[0]!.open();
    try {
      const store = createCompanyStore(sql);
      const { registerRows } = await import('../support/register-csv.ts');
      const { readRegisterHeader, parseRegisterRow } = await import('../../loaders/parse-register-row.ts');
      const { sampleHeader } = await import('../support/register-csv.ts');
      const header = readRegisterHeader(sampleHeader!);
      assert.ok(header.ok);
      const companies = registerRows(25, 1).map((row) => {
        const parsed = parseRegisterRow(row, header.columns);
        assert.ok(parsed.ok);
        return parsed.company;
      });
      await store.upsertCompanies(companies, '2024-01-01');
      const index = createPgSearchIndex(sql);
      const { searchDocument } = await import('../../src/domain/search-document.ts');
      async function* documents() {
        for await (const batch of store.companiesForIndex(7))
          yield batch.map(({ company, accounts, pscs, identity_overdue_from }) =>
            searchDocument(company, accounts, pscs, identity_overdue_from),
          );
      }
      assert.equal(await index.rebuild(documents()), 25);
      // The rebuilt table carries the migration's indexes, again after a second rebuild.
      const indexCount = async () =>
        (await sql.query(`SELECT 1 FROM pg_indexes WHERE tablename = 'company_search'`)).rowCount;
      assert.equal(await indexCount(), 9);
      assert.equal(await index.rebuild(documents()), 25);
      assert.equal(await indexCount(), 9);
      const { hits } = await index.searchByName(companies[3]!.name, 5);
      assert.equal(hits[0]?.company_number, companies[3]!.company_number);
    } finally {
      await close();
    }
  });
});

describe('Postgres search: full rebuilds', () => {
  test('a second full rebuild while one runs is refused with a clear error; the first completes', async () => {
    const { sql, close } = await testStores[1]!.open();
    try {
      const index = createPgSearchIndex(sql);
      const documents = searchDocuments;
      let release: () => void = () => {};
      const held = new Promise<void>((done) => (release = done));
      // The rebuild takes its lock before it reads a batch: once it asks for the second, it holds it.
      let reachedHold: () => void = () => {};
      const holding = new Promise<void>((done) => (reachedHold = done));
      async function* slowBatches() {
        yield documents.slice(0, 2);
        reachedHold();
        await held;
        yield documents.slice(2);
      }
      const first = index.rebuild(slowBatches());
      await holding;
      await assert.rejects(
        index.rebuild((async function* () {})()),
        /Another full rebuild of the Postgres search index is running/,
      );
      release();
      assert.equal(await first, documents.length);
      assert.equal(await index.count(), documents.length);
      // The lock went with the first rebuild's transaction: the next one runs.
      assert.equal(await index.rebuild((async function* () {})()), 0);
    } finally {
      await close();
    }
  });
});
