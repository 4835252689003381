/**
 * The PDF accounts queue, document record and backfill journal on both stores (PGlite and a real
 * PostgreSQL): a lookup queues a company once; two holders never claim the same company; a lease
 * that ran out is claimed again; a failure puts a company off, a finish ends it; a backfill run
 * makes finished companies pending again only when they were finished before it began; the
 * companies without figures are those that filed accounts with none machine-readable.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createPdfAccountsWork } from '../../src/adapters/postgres/pdf-accounts-work.ts';
import { testStores, useStore } from '../support/databases.ts';
import { company, filing } from '../support/store-records.ts';

for (const kind of testStores) {
  describe(`${kind.name}: the PDF accounts work`, () => {
    const db = useStore(kind);
    const work = () => createPdfAccountsWork(db.sql);
    const lease = (holder: string, seconds = 60) => ({ holder, seconds });
    const pending = async (number: string) =>
      (
        await db.sql.query<{ pending: boolean }>(
          `SELECT (finished_at IS NULL OR finished_at < requested_at) AS pending FROM pdf_accounts_queue WHERE company_number = $1`,
          [number],
        )
      ).rows[0]?.pending;

    test('a lookup queues a company once; two holders never claim the same', async () => {
      assert.equal(await work().requestCompany('01000001'), true);
      assert.equal(await work().requestCompany('01000001'), true, 'still pending');
      assert.equal(await work().requestCompany('01000002'), true);
      const count = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM pdf_accounts_queue`);
      assert.equal(Number(count.rows[0]!.n), 2);
      const [a, b] = await Promise.all([work().claim(lease('a'), 1), work().claim(lease('b'), 1)]);
      assert.deepEqual([...a!, ...b!].sort(), ['01000001', '01000002']);
      assert.deepEqual(await work().claim(lease('c'), 5), [], 'both held');
      assert.equal(await work().heldElsewhere(['01000001', '01000002'], 'c'), 2);
    });

    test('a failure puts the company off; a lease that ran out is claimed again; a finish ends it', async () => {
      await work().requestCompany('01000003');
      assert.deepEqual(await work().claim(lease('d'), 1, ['01000003']), ['01000003']);
      await work().finish('01000003', 'd', 'the API failed', 3600);
      assert.deepEqual(await work().claim(lease('e'), 1, ['01000003']), [], 'put off for an hour');

      await work().requestCompany('01000006');
      assert.deepEqual(await work().claim(lease('d'), 1, ['01000006']), ['01000006']);
      await work().finish('01000006', 'd', 'the API failed', 0);
      assert.deepEqual(await work().claim(lease('e', 0), 1, ['01000006']), ['01000006'], 'put off no more');
      // e's lease of 0 seconds has run out: another holder takes the company over.
      assert.deepEqual(await work().claim(lease('f'), 1, ['01000006']), ['01000006']);
      await work().finish('01000006', 'e', null);
      assert.equal(await pending('01000006'), true, 'only the holder of the lease finishes it');
      await work().finish('01000006', 'f', null);
      assert.equal(await pending('01000006'), false);
      assert.equal(await work().requestCompany('01000006'), false, 'done within the day: not queued again');
    });

    test('a backfill run: finished before it began is pending again, finished since is done', async () => {
      const before = await work().beginRun('file:x');
      assert.equal(before.resumed, false);
      const done = await work().requestForRun(['01000006', '01000004'], 'backfill:file:x', before.startedAt);
      assert.deepEqual([...done], [], '01000006 was finished before the run began');
      assert.equal(await pending('01000006'), true);
      for (const number of await work().claim(lease('g'), 5, ['01000006', '01000004']))
        await work().finish(number, 'g', null);
      const again = await work().requestForRun(['01000006', '01000004'], 'backfill:file:x', before.startedAt);
      assert.deepEqual([...again].sort(), ['01000004', '01000006']);
      assert.equal((await work().beginRun('file:x')).resumed, true, 'an unfinished run is continued');
      await work().finishRun('file:x');
      assert.equal((await work().beginRun('file:x')).resumed, false);
    });

    test('documents are recorded by id; companies without figures filed accounts and have none in the store', async () => {
      const document = {
        documentId: 'd1',
        companyNumber: '01000005',
        transactionId: 't1',
        madeUpDate: '2023-12-31',
        outcome: 'failed',
        reason: 'not_a_scan: no image',
        path: 'pdf/01000005/d1.pdf',
        sha256: 'ab',
      } as const;
      await work().recordDocument(document);
      const known = await work().knownDocuments('01000005');
      assert.deepEqual(known.get('d1'), document);
      await db.store.upsertCompanies(
        [company('02000001'), company('02000002'), company('02000003', { accounts_last_made_up_to: null })],
        '2025-01-01',
      );
      await db.store.saveFilings([filing('02000002', 'z.zip', 'a.html', '2022-12-31', 5)], []);
      assert.deepEqual(await work().companiesWithoutFigures(null, 10), ['02000001']);
      assert.equal(await work().countCompaniesWithoutFigures(), 1);
      assert.deepEqual([...(await work().machineReadableDates('02000002'))], ['2022-12-31']);
    });
  });
}
