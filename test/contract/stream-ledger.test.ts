/**
 * The StreamLedger's reading of how fresh the streams are (`newest`), run against every store:
 * PGlite and a real PostgreSQL server. The rest of the ledger is proved through the follower
 * (test/follow/).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createOfficersApplier } from '../../src/adapters/postgres/officer-appliers.ts';
import { companiesApplier } from '../../src/adapters/postgres/stream-companies.ts';
import { createStreamLedger } from '../../src/adapters/postgres/stream-ledger.ts';
import type { StreamEvent } from '../../src/ports/stream-appliers.ts';
import { testStores, useStore } from '../support/databases.ts';
import { streamEvents } from '../support/stream-lines.ts';
import { companyEvent } from '../support/stream-world.ts';

const lease = { holder: 'ledger-test', seconds: 30 };
const event = (timepoint: number, publishedAt: string) =>
  JSON.parse(companyEvent(timepoint, publishedAt, '00000001')) as StreamEvent;

for (const kind of testStores) {
  describe(`${kind.name}: StreamLedger.newest`, () => {
    const db = useStore(kind);

    test('null until an event is applied; then the stream whose last event was published most recently', async () => {
      const ledger = createStreamLedger(db.sql);
      assert.equal(await ledger.newest(), null);
      // Claimed, and positioned from now, but nothing applied yet: still nothing to say.
      assert.ok(await ledger.claim('companies', lease));
      assert.equal(await ledger.newest(), null);
      await ledger.applyBatch('companies', lease.holder, [event(5, '2026-11-21T00:00:00')], companiesApplier());
      assert.deepEqual(await ledger.newest(), { stream: 'companies', publishedAt: '2026-11-21T00:00:00Z' });
      // Another stream that is behind does not take its place; one that is ahead does.
      const [first, ...rest] = streamEvents('officers');
      assert.ok(await ledger.claim('officers', lease));
      await ledger.applyBatch('officers', lease.holder, [first!], createOfficersApplier());
      assert.deepEqual(await ledger.newest(), { stream: 'companies', publishedAt: '2026-11-21T00:00:00Z' });
      await ledger.applyBatch('officers', lease.holder, rest, createOfficersApplier());
      const last = rest.at(-1)!.event.published_at;
      assert.ok(last > '2026-11-21T00:00:00', last);
      assert.deepEqual(await ledger.newest(), { stream: 'officers', publishedAt: `${last}Z` });
    });
  });
}
