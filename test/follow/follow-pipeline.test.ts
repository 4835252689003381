/**
 * How the follower moves events along, on PGlite and on PostgreSQL: a line that is not an event is
 * kept in stream_bad_lines, counted and logged, and the events after it are applied on the same
 * connection; alert detection of one batch does not hold up applying the next; a burst is applied
 * in a few large batches, not one per network chunk.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { companiesApplier } from '../../src/adapters/postgres/stream-companies.ts';
import { createStreamLedger } from '../../src/adapters/postgres/stream-ledger.ts';
import { followStream } from '../../src/follow/follow-stream.ts';
import type { FollowStreamOptions, StreamGet } from '../../src/follow/follow-stream.ts';
import { get } from '../../src/net/http-get.ts';
import { testStores, useStore } from '../support/databases.ts';
import { company } from '../support/store-records.ts';
import { startFakeStreamServer } from '../support/stream-server.ts';
import type { FakeStreamServer } from '../support/stream-server.ts';
import { companyEvent, waitFor } from '../support/stream-world.ts';

const number = (i: number) => `P${String(i).padStart(7, '0')}`;
const at = (tp: number) => new Date(Date.UTC(2026, 10, 27, 9) + tp * 1000).toISOString().slice(0, 19);

for (const kind of testStores) {
  describe(`${kind.name}: the follower's pipeline`, () => {
    const db = useStore(kind);
    let server: FakeStreamServer;
    let controller: AbortController;
    let following: Promise<void>;
    const log: string[] = [];
    const badLines: string[] = [];
    const batches: number[] = [];
    const detected: string[][] = [];
    // Detection waits on this gate while a test holds it closed.
    let gate: Promise<void> = Promise.resolve();

    before(async () => {
      await db.store.upsertCompanies(
        Array.from({ length: 3_000 }, (_, i) => company(number(i))),
        '2026-11-01',
      );
      server = await startFakeStreamServer({ key: 'k' });
      controller = new AbortController();
      const options: FollowStreamOptions = {
        baseUrl: server.url,
        key: 'k',
        get: get as StreamGet,
        stallMs: 5_000,
        lease: { holder: 'pipeline-test', seconds: 30 },
        signal: controller.signal,
        backoffMs: 10,
        maxBackoffMs: 50,
        log: (line) => log.push(line),
        afterBatch: async (companies) => {
          detected.push(companies);
          await gate;
        },
        observer: {
          applied: (_stream, batch) => batches.push(batch.events),
          badLine: (stream) => badLines.push(stream),
        },
      };
      following = followStream(createStreamLedger(db.sql), companiesApplier(), options);
      await waitFor('the follower to connect', async () => server.connected('companies') > 0);
    });
    after(async () => {
      controller.abort();
      await following;
      await server.close();
    });

    const position = async () =>
      (await db.sql.query<{ t: string }>(`SELECT timepoint::text AS t FROM stream_positions`)).rows[0]?.t;
    const name = async (n: string) =>
      (await db.sql.query<{ name: string }>(`SELECT name FROM companies WHERE company_number = $1`, [n])).rows[0]?.name;

    test('a line that is not an event is kept and skipped; the events after it are applied', async () => {
      const connections = server.requests.length;
      const garbled = '{"resource_kind":"company-profile","data":{"company_n';
      const notAnEvent = JSON.stringify({ resource_kind: 'company-profile', event: { timepoint: 3, type: 'changed' } });
      server.publish('companies', [
        companyEvent(1, at(1), number(1), { company_name: 'FIRST LIMITED' }),
        garbled,
        notAnEvent,
        companyEvent(4, at(4), number(2), { company_name: 'AFTER THE BAD LINES LIMITED' }),
      ]);
      await waitFor('the event after the bad lines', async () => (await position()) === '4');
      assert.equal(await name(number(1)), 'FIRST LIMITED');
      assert.equal(await name(number(2)), 'AFTER THE BAD LINES LIMITED');
      const kept = await db.sql.query<{ stream: string; timepoint: string | null; excerpt: string; reason: string }>(
        `SELECT stream, timepoint::text, excerpt, reason FROM stream_bad_lines ORDER BY first_read_at, timepoint NULLS FIRST`,
      );
      assert.deepEqual(
        kept.rows.map((row) => [row.stream, row.timepoint, row.excerpt]),
        [
          ['companies', null, garbled],
          ['companies', '3', notAnEvent],
        ],
      );
      assert.match(kept.rows[0]!.reason, /^not JSON/);
      assert.match(kept.rows[1]!.reason, /published_at/);
      assert.deepEqual(badLines, ['companies', 'companies']);
      assert.ok(
        log.some((line) => /^stream companies: skipped a line that is not an event \(timepoint 3\)/.test(line)),
        log.join('\n'),
      );
      // The same connection went on: no reconnection for a bad line.
      assert.equal(server.requests.length, connections);
    });

    test("a batch's alert detection does not hold up applying the next batch", async () => {
      let open!: () => void;
      gate = new Promise((done) => (open = done));
      const seen = detected.length;
      server.publish('companies', [companyEvent(10, at(10), number(10), { company_name: 'HELD UP LIMITED' })]);
      await waitFor('detection of the first batch to start', async () => detected.length > seen);
      server.publish('companies', [companyEvent(11, at(11), number(11), { company_name: 'NOT HELD UP LIMITED' })]);
      // Detection of the first batch is still waiting: the second is applied all the same.
      await waitFor('the second batch applied', async () => (await position()) === '11');
      assert.equal(detected.length, seen + 1);
      open();
      gate = Promise.resolve();
      await waitFor('detection of the second batch', async () => detected.flat().includes(number(11)));
      assert.deepEqual(detected.slice(seen).flat().sort(), [number(10), number(11)]);
    });

    test('a burst is applied in a few large batches, every company looked at once', async () => {
      const before = batches.length;
      const seen = detected.length;
      const burst = Array.from({ length: 3_000 }, (_, i) =>
        companyEvent(100 + i, at(100 + i), number(i), { company_name: `BURST ${i} LIMITED` }),
      );
      server.publish('companies', burst);
      await waitFor('the burst applied', async () => (await position()) === String(100 + 2_999));
      const sizes = batches.slice(before);
      assert.equal(
        sizes.reduce((a, b) => a + b, 0),
        3_000,
      );
      // One batch a network chunk would be some 50 batches of about 60 events.
      assert.ok(sizes.length <= 20, `batches: ${sizes.join(', ')}`);
      await waitFor('detection of the burst', async () => detected.slice(seen).flat().length >= 3_000);
      const looked = detected.slice(seen).flat();
      assert.equal(new Set(looked).size, 3_000);
      assert.equal(looked.length, 3_000);
    });
  });
}
