/**
 * The companies mapping works on the Elasticsearch the project starts (scripts/elasticsearch.sh:
 * the integ-test-zip distribution, without the analysis-common, mapper-extras and painless
 * modules): the index is created, and exact-name and word-prefix queries behave.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@elastic/elasticsearch';
import { normaliseCompanyName } from '../../src/domain/company-name.ts';
import { elasticsearchUrl } from '../support/elasticsearch.ts';
import { repoRoot } from '../support/samples.ts';

const index = `companies_test_${process.pid}`;
let client: Client;

before(async () => {
  client = new Client({ node: elasticsearchUrl() });
  const mapping = JSON.parse(readFileSync(join(repoRoot, 'index-mappings', 'companies.json'), 'utf8'));
  await client.indices.create({ index, ...mapping });
  const names = ['TESCO PLC', 'TESCO STORES LIMITED', 'MARKS & SPENCER GROUP P.L.C.', 'CAFÉ NÉRO LIMITED'];
  await client.bulk({
    refresh: true,
    operations: names.flatMap((name, i) => [
      { index: { _index: index, _id: String(i) } },
      {
        company_number: String(i).padStart(8, '0'),
        name,
        name_normalised: normaliseCompanyName(name),
        name_words: normaliseCompanyName(name),
        name_length: name.length,
      },
    ]),
  });
});
after(async () => {
  await client.indices.delete({ index, ignore_unavailable: true });
  await client.close();
});

async function names(query: object): Promise<string[]> {
  const result = await client.search<{ name: string }>({ index, query, sort: [{ name_length: 'asc' }] });
  return result.hits.hits.map((hit) => hit._source!.name);
}

test('the exact normalised name finds the company whatever the suffix, case and &', async () => {
  assert.deepEqual(await names({ term: { name_normalised: normaliseCompanyName('tesco') } }), ['TESCO PLC']);
  assert.deepEqual(await names({ term: { name_normalised: normaliseCompanyName('Marks and Spencer Group plc') } }), [
    'MARKS & SPENCER GROUP P.L.C.',
  ]);
});

test('word prefixes match through index_prefixes ("tesc sto" finds TESCO STORES)', async () => {
  const prefixQuery = (text: string) => ({
    bool: {
      must: normaliseCompanyName(text)
        .split(' ')
        .map((word) => ({ prefix: { name_words: word.toLowerCase() } })),
    },
  });
  assert.deepEqual(await names(prefixQuery('tesc')), ['TESCO PLC', 'TESCO STORES LIMITED']);
  assert.deepEqual(await names(prefixQuery('tesc sto')), ['TESCO STORES LIMITED']);
  assert.deepEqual(await names(prefixQuery('cafe')), ['CAFÉ NÉRO LIMITED']);
});
