/**
 * The Companies House API client against a local server speaking the same HTTP: the key as the
 * Basic user, 404/406 as "not there", 429 and resets tried again, a refused key said in words,
 * and document content fetched through the storage redirect without the key.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createCompaniesHouseApi } from '../../src/adapters/companies-house/api-client.ts';
import { startFakeCompaniesHouseApi } from '../support/companies-house-api.ts';
import type { FakeCompaniesHouseApi } from '../support/companies-house-api.ts';

describe('Companies House API client', () => {
  let fake: FakeCompaniesHouseApi;
  const client = () =>
    createCompaniesHouseApi({ apiUrl: fake.url, documentApiUrl: fake.url, key: 'test-key', backoffMs: 1 });
  before(async () => {
    fake = await startFakeCompaniesHouseApi();
  });
  after(() => fake.close());

  test('sends the key as the Basic user name and reads JSON', async () => {
    fake.json('/company/00000006', { company_number: '00000006' });
    assert.deepEqual(await client().getJson('/company/00000006'), { company_number: '00000006' });
    const sent = fake.requests.at(-1)!;
    assert.equal(sent.authorization, `Basic ${Buffer.from('test-key:').toString('base64')}`);
    assert.equal(sent.accept, 'application/json');
  });

  test('a 404 is null', async () => {
    assert.equal(await client().getJson('/company/99999999'), null);
  });

  test('a 429, a 502 and a reset are tried again', async () => {
    fake.json('/company/00000007', { company_number: '00000007' });
    fake.fail('/company/00000007', { status: 429, retryAfter: '0' });
    fake.fail('/company/00000007', { status: 502 });
    fake.fail('/company/00000007', 'reset');
    assert.deepEqual(await client().getJson('/company/00000007'), { company_number: '00000007' });
    assert.equal(fake.requests.filter((r) => r.path === '/company/00000007').length, 4);
  });

  test('gives up after its attempts, naming the URL and the last failure', async () => {
    fake.fail('/company/00000008', { status: 503 }, 5);
    await assert.rejects(client().getJson('/company/00000008'), /\/company\/00000008: answered 503/);
  });

  test('a refused key is said at once, without retries', async () => {
    fake.fail('/company/00000009', { status: 401 }, 5);
    await assert.rejects(client().getJson('/company/00000009'), /refused the API key \(401\): check CH_API_KEY/);
    assert.equal(fake.requests.filter((r) => r.path === '/company/00000009').length, 1);
  });

  test('document metadata from a filing history link, content through the storage redirect', async () => {
    fake.document('abc123', '01234567', { 'application/xhtml+xml': Buffer.from('<html/>') });
    const metadata = await client().documentMetadata(
      'https://document-api.company-information.service.gov.uk/document/abc123',
    );
    assert.equal(metadata?.companyNumber, '01234567');
    assert.deepEqual(metadata?.contentTypes, ['application/xhtml+xml']);
    const content = await client().documentContent('abc123', 'application/xhtml+xml');
    assert.equal(content?.toString(), '<html/>');
    const storage = fake.requests.filter((r) => r.path.startsWith('/storage/'));
    assert.equal(storage.length, 1);
    assert.equal(storage[0]!.authorization, null);
    assert.equal(await client().documentContent('abc123', 'application/pdf'), null);
  });
});
