/**
 * The claims that split a load's files and a full index build's ranges between processes
 * (docs/shared-loads.md), on both stores: one holder per piece, completed work skipped, a lease
 * that runs out lets another holder take the piece over (and the first finds it lost), and a build
 * is published by exactly one holder once every range is done.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createIndexBuilds } from '../../src/adapters/postgres/index-builds.ts';
import { createLoadClaims } from '../../src/adapters/postgres/load-claims.ts';
import type { IndexRange, LoadFile } from '../../src/ports/shared-work.ts';
import { testStores, useStore } from '../support/databases.ts';
import { company } from '../support/store-records.ts';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const a = { holder: 'host-a:1:aaaaaa', seconds: 60 };
const b = { holder: 'host-b:2:bbbbbb', seconds: 60 };
const file = (source: string, size: number | null = 100): LoadFile => ({ source, size, doneSince: null });

for (const kind of testStores) {
  describe(`${kind.name}: load claims`, () => {
    const db = useStore(kind);

    test('two holders get different files, in the list order; a file done before is skipped', async () => {
      const claims = createLoadClaims(db.sql);
      const files = ['1.zip', '2.zip', '3.zip', '4.zip'].map((source) => file(source));
      await claims.register(
        'accounts',
        files.map((f) => f.source),
      );
      const done = await db.store.startLoad('accounts', '1.zip', { size: 100 });
      await db.store.finishLoad(done, 'done', { rows_read: 1, rows_written: 1, rows_rejected: 0 });
      const first = await claims.claimNext('accounts', files, a);
      const second = await claims.claimNext('accounts', files, b);
      assert.deepEqual(
        [first.claimed, second.claimed],
        [
          { piece: '2.zip', takenOverFrom: null },
          { piece: '3.zip', takenOverFrom: null },
        ],
      );
      // A completed load of another size is not this file.
      const resized = await claims.claimNext('accounts', [file('1.zip', 999)], a);
      assert.equal(resized.claimed?.piece, '1.zip');
    });

    test('a file held by a live lease is not claimed; when the lease runs out it is taken over, and the first holder has lost it', async () => {
      const claims = createLoadClaims(db.sql);
      const files = [file('held.zip')];
      await claims.register('accounts', ['held.zip']);
      assert.equal((await claims.claimNext('accounts', files, { ...a, seconds: 1 })).claimed?.piece, 'held.zip');
      assert.deepEqual(await claims.claimNext('accounts', files, b), { claimed: null, heldElsewhere: 1 });
      assert.equal(await claims.renew('accounts', 'held.zip', { ...a, seconds: 1 }), true);
      await sleep(1_200);
      assert.deepEqual((await claims.claimNext('accounts', files, b)).claimed, {
        piece: 'held.zip',
        takenOverFrom: a.holder,
      });
      assert.equal(await claims.renew('accounts', 'held.zip', a), false);
      // Released by the one that lost it: nothing happens; by its holder: claimable again.
      await claims.release('accounts', 'held.zip', a.holder);
      assert.equal((await claims.claimNext('accounts', files, a)).claimed, null);
      await claims.release('accounts', 'held.zip', b.holder);
      assert.deepEqual((await claims.claimNext('accounts', files, a)).claimed, {
        piece: 'held.zip',
        takenOverFrom: null,
      });
    });

    test('the leases of a holder known to be dead end at once', async () => {
      const claims = createLoadClaims(db.sql);
      const files = [file('dead.zip')];
      await claims.register('accounts', ['dead.zip']);
      const dead = { holder: 'host-c:3:cccccc', seconds: 60 };
      await claims.claimNext('accounts', files, dead);
      assert.ok((await claims.holders('accounts')).includes(dead.holder));
      assert.equal(await claims.expire('accounts', dead.holder), 1);
      assert.ok(!(await claims.holders('accounts')).includes(dead.holder));
      assert.deepEqual((await claims.claimNext('accounts', files, b)).claimed, {
        piece: 'dead.zip',
        takenOverFrom: dead.holder,
      });
    });
  });

  describe(`${kind.name}: index builds`, () => {
    const db = useStore(kind);
    const numbers = Array.from({ length: 23 }, (_, i) => `0000${String(i).padStart(4, '0')}`);
    const index = (created: string[]) => ({
      create: async () => {
        created.push(`companies_v${created.length + 2}`);
        return created.at(-1)!;
      },
      exists: async (name: string) => created.includes(name),
    });

    test('ranges cover every company once; a second process joins; one publishes, once every range is done', async () => {
      await db.store.upsertCompanies(
        numbers.map((number) => company(number)),
        '2024-05-01',
      );
      const builds = createIndexBuilds(db.sql);
      const created: string[] = [];
      const started = await builds.joinOrStart('elasticsearch:companies', 5, index(created));
      const joined = await builds.joinOrStart('elasticsearch:companies', 5, index(created));
      assert.equal(started.started, true);
      assert.equal(joined.started, false);
      assert.deepEqual(joined.build, started.build);
      assert.deepEqual(created, ['companies_v2']);
      const id = started.build.id;

      const seen: string[] = [];
      const ranges: IndexRange[] = [];
      for (;;) {
        const { claimed } = await builds.claimRange(id, ranges.length % 2 === 0 ? a : b);
        if (!claimed) break;
        ranges.push(claimed.piece);
        for await (const batch of builds.companiesInRange(claimed.piece, 2))
          seen.push(...batch.map((source) => source.company.company_number));
      }
      assert.deepEqual(seen, numbers, 'every company once, in order');
      assert.equal(ranges.length, 5, '23 companies in ranges of 5: four full, the last to the end');
      assert.equal(ranges.at(-1)!.last, null);

      assert.equal(await builds.claimPublish(id, a), false, 'not before the ranges are done');
      for (const [i, range] of ranges.entries())
        assert.equal(await builds.finishRange(id, range, i % 2 === 0 ? a.holder : b.holder, 5), true);
      assert.equal(await builds.claimPublish(id, b), true);
      assert.equal(await builds.claimPublish(id, a), false, 'exactly one publishes');
      await builds.finishBuild(id, b.holder);
      assert.equal(await builds.status(id), 'done');
      const next = await builds.joinOrStart('elasticsearch:companies', 5, index(created));
      assert.equal(next.started, true, 'a build once done is not joined');
    });

    test('a range whose lease ran out is taken over; the first holder cannot finish it', async () => {
      const builds = createIndexBuilds(db.sql);
      const { build } = await builds.joinOrStart('elasticsearch:other', 100, index([]));
      const first = await builds.claimRange(build.id, { ...a, seconds: 1 });
      assert.deepEqual(await builds.claimRange(build.id, b), { claimed: null, heldElsewhere: 1 });
      await sleep(1_200);
      const taken = await builds.claimRange(build.id, b);
      assert.equal(taken.claimed?.takenOverFrom, a.holder);
      assert.equal(await builds.renewRange(build.id, first.claimed!.piece, a), false);
      assert.equal(await builds.finishRange(build.id, first.claimed!.piece, a.holder, 23), false);
      assert.equal(await builds.finishRange(build.id, taken.claimed!.piece, b.holder, 23), true);
    });

    test('the range leases of a holder known to be dead end at once', async () => {
      const builds = createIndexBuilds(db.sql);
      const { build } = await builds.joinOrStart('elasticsearch:third', 100, index([]));
      const dead = { holder: 'host-c:3:cccccc', seconds: 60 };
      const held = await builds.claimRange(build.id, dead);
      assert.deepEqual(await builds.rangeHolders(build.id), [dead.holder]);
      assert.equal(await builds.expireRanges(build.id, dead.holder), 1);
      assert.deepEqual(await builds.rangeHolders(build.id), []);
      const taken = await builds.claimRange(build.id, b);
      assert.deepEqual(taken.claimed, { piece: held.claimed!.piece, takenOverFrom: dead.holder });
    });
  });
}
