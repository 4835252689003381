/**
 * Paging cursors (src/operations/cursor.ts), pure: a key survives the round trip; a cursor cut,
 * edited or made up is refused; one from another query is refused; the query's keys may come in
 * any order and limit is not part of it; and a key of the wrong shape is refused even with a
 * checksum made to fit (a client can compute one), so nothing unchecked reaches a query.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SortOrder } from '../../src/domain/criteria.ts';
import { AppError } from '../../src/errors.ts';
import {
  companyKeySchema,
  decodeCursor,
  encodeCursor,
  nameKeySchema,
  pageLine,
  recentFilingKeySchema,
} from '../../src/operations/cursor.ts';

const BY_NET_ASSETS: SortOrder = { field: 'net_assets', descending: true };
const QUERY = { filters: { status: 'active', post_town: 'LEEDS' }, sort: BY_NET_ASSETS };

function refused(run: () => unknown, reason: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof AppError);
    assert.equal(error.code, 'INVALID_INPUT');
    assert.match(error.message, /^Invalid "cursor": /);
    assert.match(error.message, reason);
    return true;
  });
}

test('a key comes back as it went, for each kind of key; no key, no cursor', () => {
  const cases = [
    [QUERY, [1_250_000.5, '00000001'], companyKeySchema(BY_NET_ASSETS)],
    [QUERY, [null, 'SC123456'], companyKeySchema(BY_NET_ASSETS)],
    [QUERY, ['2015-03-01', '00000002'], companyKeySchema({ field: 'incorporated', descending: false })],
    [QUERY, ['ACME "WIDGETS" £ LTD', '00000003'], companyKeySchema({ field: 'name', descending: false })],
    ['TESCO', [3, 17, '00445790'], nameKeySchema],
    [
      { days: 30 },
      ['2025-06-10', '00100001', '2024-12-31', 'Prod223_0001.html', 'Accounts.zip'],
      recentFilingKeySchema,
    ],
  ] as const;
  for (const [query, key, schema] of cases) {
    const cursor = encodeCursor('op', query, key)!;
    assert.match(cursor, /^[\w-]+\.[\w-]+$/, 'URL-safe');
    assert.deepEqual(decodeCursor(cursor, { operation: 'op', query, key: schema as never }), key);
  }
  assert.equal(encodeCursor('op', QUERY, null), null);
  assert.equal(decodeCursor(undefined, { operation: 'op', query: QUERY, key: nameKeySchema }), undefined);
});

test('the query binds: key order inside it does not matter, another query or operation is refused', () => {
  const cursor = encodeCursor('search_companies', QUERY, [5, '00000001'])!;
  const reordered = { sort: BY_NET_ASSETS, filters: { post_town: 'LEEDS', status: 'active', sic: undefined } };
  assert.deepEqual(
    decodeCursor(cursor, { operation: 'search_companies', query: reordered, key: companyKeySchema(BY_NET_ASSETS) }),
    [5, '00000001'],
  );
  const schema = companyKeySchema(BY_NET_ASSETS);
  refused(
    () =>
      decodeCursor(cursor, {
        operation: 'search_companies',
        query: { ...QUERY, sort: { ...BY_NET_ASSETS, descending: false } },
        key: schema,
      }),
    /another query/,
  );
  refused(
    () =>
      decodeCursor(cursor, {
        operation: 'search_companies',
        query: { ...QUERY, filters: { status: 'active' } },
        key: schema,
      }),
    /another query/,
  );
  refused(() => decodeCursor(cursor, { operation: 'find_triggers', query: QUERY, key: schema }), /another query/);
});

test('cut, edited or made up: refused', () => {
  const cursor = encodeCursor('op', QUERY, [5, '00000001'])!;
  const schema = companyKeySchema(BY_NET_ASSETS);
  const [body, sum] = cursor.split('.') as [string, string];
  const edited = Buffer.from(Buffer.from(body, 'base64url').toString().replace('5', '6')).toString('base64url');
  for (const bad of [
    `${edited}.${sum}`,
    cursor.slice(0, -1),
    body,
    `${cursor}.x`,
    '',
    'not a cursor',
    '😀',
    `${body}.${sum.replace(/./, (c) => (c === 'A' ? 'B' : 'A'))}`,
  ])
    refused(() => decodeCursor(bad, { operation: 'op', query: QUERY, key: schema }), /not one this service gave/);
});

test('a key of the wrong shape is refused even with a fitting checksum', () => {
  const numeric = companyKeySchema(BY_NET_ASSETS);
  const dated = companyKeySchema({ field: 'incorporated', descending: false });
  for (const [key, schema] of [
    [['lots', '00000001'], numeric],
    [[5], numeric],
    [[5, '00000001', 'extra'], numeric],
    [[5, 7], numeric],
    [['2024-02-30', '00000001'], dated],
    [[20150301, '00000001'], dated],
    [[8, 10, '00000001'], nameKeySchema],
    [[1.5, 10, '00000001'], nameKeySchema],
    [['2024-01-01', '1', '2024-13-01', 'f', 'z'], recentFilingKeySchema],
    [{ tier: 1 }, nameKeySchema],
  ] as const) {
    const cursor = encodeCursor('op', QUERY, key as unknown as readonly unknown[])!;
    refused(
      () => decodeCursor(cursor, { operation: 'op', query: QUERY, key: schema as never }),
      /not one this service gave/,
    );
  }
});

test('the Markdown line: how many of how many, and the cursor or the end', () => {
  assert.equal(pageLine(20, 1234, 'abc.def'), '20 of 1,234; more: cursor=abc.def');
  assert.equal(pageLine(3, 3, null), '3 of 3; no more.');
});
