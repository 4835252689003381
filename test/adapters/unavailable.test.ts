/**
 * Which driver errors mean a dependency is down (503, retry) and which are our own faults (500),
 * and that an adapter's rejections are translated without touching what it returns.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errors } from '@elastic/elasticsearch';
import { EsSearchRefused, isEsUnavailable } from '../../src/adapters/elasticsearch/es-unavailable.ts';
import { isPgUnavailable } from '../../src/adapters/sql/pg-unavailable.ts';
import { translateRejections } from '../../src/adapters/translate-rejections.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('PostgreSQL errors', () => {
  const cases: [string, unknown, boolean][] = [
    ['connection refused', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'), true],
    ['connection reset', withCode('read ECONNRESET', 'ECONNRESET'), true],
    [
      'server shutting down (admin_shutdown)',
      withCode('terminating connection due to administrator command', '57P01'),
      true,
    ],
    ['server starting up', withCode('the database system is starting up', '57P03'), true],
    ['too many connections', withCode('sorry, too many clients already', '53300'), true],
    ['statement timeout', withCode('canceling statement due to statement timeout', '57014'), true],
    ['connection exception class 08', withCode('connection failure', '08006'), true],
    [
      'read replica cancelled a query to replay',
      withCode('canceling statement due to conflict with recovery', '40001'),
      true,
    ],
    ['serialization failure is ours', withCode('could not serialize access due to concurrent update', '40001'), false],
    ['lost connection', new Error('Connection terminated unexpectedly'), true],
    ['pool connect timeout', new Error('timeout exceeded when trying to connect'), true],
    ['client-side query timeout', new Error('Query read timeout'), true],
    [
      'refused on every address',
      new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], ''),
      true,
    ],
    ['wrapped', new Error('outer', { cause: withCode('connect ECONNREFUSED', 'ECONNREFUSED') }), true],
    ['syntax error is ours', withCode('syntax error at or near "SELEC"', '42601'), false],
    ['unique violation is ours', withCode('duplicate key value violates unique constraint', '23505'), false],
    ['undefined column is ours', withCode('column "nme" does not exist', '42703'), false],
    ['not an error', 'ECONNREFUSED', false],
  ];
  for (const [name, error, unavailable] of cases) {
    test(name, () => assert.equal(isPgUnavailable(error), unavailable));
  }
});

describe('Elasticsearch errors', () => {
  const response = (statusCode: number, type?: string) =>
    new errors.ResponseError({
      body: type ? { error: { type } } : {},
      statusCode,
      headers: {},
      warnings: null,
      meta: {} as never,
    });
  // "all shards failed" as Elasticsearch 9 answers it while shards are not ready, and the same
  // phase failing for a reason of ours.
  const allShardsFailed = (rootCause: string) => ({
    type: 'search_phase_execution_exception',
    reason: 'all shards failed',
    root_cause: [{ type: rootCause, reason: null }],
  });
  const withBody = (statusCode: number, error: object) =>
    new errors.ResponseError({ body: { error }, statusCode, headers: {}, warnings: null, meta: {} as never });
  const cases: [string, unknown, boolean][] = [
    ['connection refused', new errors.ConnectionError('connect ECONNREFUSED 127.0.0.1:9200'), true],
    ['timeout', new errors.TimeoutError('Request timed out'), true],
    ['no living connections', new errors.NoLivingConnectionsError('none', {} as never), true],
    ['503 from the cluster', response(503, 'search_phase_execution_exception'), true],
    ['429 too many requests', response(429, 'es_rejected_execution_exception'), true],
    ['index missing', response(404, 'index_not_found_exception'), true],
    ['read-only cluster block', response(403, 'cluster_block_exception'), true],
    [
      'shards not ready: all shards failed, 503',
      withBody(503, allShardsFailed('no_shard_available_action_exception')),
      true,
    ],
    [
      'shards not ready, whatever the status',
      withBody(500, allShardsFailed('no_shard_available_action_exception')),
      true,
    ],
    ['primary shard not active', response(500, 'unavailable_shards_exception'), true],
    [
      'one search of an _msearch, shards not ready',
      new EsSearchRefused(503, allShardsFailed('no_shard_available_action_exception')),
      true,
    ],
    ['one search of an _msearch, index missing', new EsSearchRefused(404, { type: 'index_not_found_exception' }), true],
    [
      'one search of an _msearch, a bad query is ours',
      new EsSearchRefused(400, allShardsFailed('query_shard_exception')),
      false,
    ],
    ['all shards failed on our query is ours', withBody(400, allShardsFailed('query_shard_exception')), false],
    [
      'all shards failed, some for a reason of ours',
      withBody(500, {
        ...allShardsFailed('no_shard_available_action_exception'),
        root_cause: [{ type: 'no_shard_available_action_exception' }, { type: 'illegal_argument_exception' }],
      }),
      false,
    ],
    ['a bad query is ours', response(400, 'parsing_exception'), false],
    ['any other error is ours', new TypeError('x is undefined'), false],
  ];
  for (const [name, error, unavailable] of cases) {
    test(name, () => assert.equal(isEsUnavailable(error), unavailable));
  }
});

describe('translateRejections', () => {
  test('rejections are translated; results, sync values and generators pass through', async () => {
    const adapter = {
      ok: async () => 1,
      fails: async () => {
        throw new Error('driver');
      },
      plain: () => 'plain',
      async *rows() {
        yield 1;
      },
      count: 3,
    };
    const guarded = translateRejections(adapter, (error) => new Error(`translated: ${(error as Error).message}`));
    assert.equal(await guarded.ok(), 1);
    await assert.rejects(guarded.fails(), /^Error: translated: driver$/);
    assert.equal(guarded.plain(), 'plain');
    const rows = [];
    for await (const row of guarded.rows()) rows.push(row);
    assert.deepEqual(rows, [1]);
    assert.equal(guarded.count, 3);
  });
});
