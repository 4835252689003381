/**
 * The REST catch-up of the list streams' gaps, on PGlite and on PostgreSQL: the stream server
 * answers 416 for the positions the follower resumes from on the PSC, PSC-statement, officers and
 * filings streams, and the local Public Data API serves the watched company's lists as they are
 * now, paged as Companies House pages them (`items_per_page`/`start_index`; the officers, PSC and
 * statement lists say `total_results`, the filing history `total_count`). A PSC notified during the
 * gap raises control_change; an officer appointed during it is shown by get_officers; an accounts
 * filing made during it is fetched as XHTML and becomes figures, while accounts filed years before
 * are not fetched again; the second page of each long list is read. An appointment, a PSC and a
 * statement deleted during the gap (stored, absent from a list read whole) are deleted as the stream
 * would have deleted them, while a resigned officer the list still shows stays, and a PSC a snapshot
 * stored under its etag is left alone; a second watched company's lists, not read whole (fewer
 * items than their total, a 404), delete nothing.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createCompaniesHouseApi } from '../../src/adapters/companies-house/api-client.ts';
import { createAlertDetectionStore } from '../../src/adapters/postgres/alert-detection-store.ts';
import { createOfficersApplier } from '../../src/adapters/postgres/officer-appliers.ts';
import { createOfficerStore } from '../../src/adapters/postgres/officer-store.ts';
import { createOwnershipReader } from '../../src/adapters/postgres/ownership-reader.ts';
import { createPscStore } from '../../src/adapters/postgres/psc-store.ts';
import { companiesApplier } from '../../src/adapters/postgres/stream-companies.ts';
import { createDocumentQueue, filingsApplier } from '../../src/adapters/postgres/stream-filings.ts';
import { createStreamGaps } from '../../src/adapters/postgres/stream-gaps.ts';
import { createStreamLedger } from '../../src/adapters/postgres/stream-ledger.ts';
import { pscApplier } from '../../src/adapters/postgres/stream-pscs.ts';
import { startFollower } from '../../src/follow/follower.ts';
import type { Follower } from '../../src/follow/follower.ts';
import type { StreamGet } from '../../src/follow/follow-stream.ts';
import { get } from '../../src/net/http-get.ts';
import { parsePscLine } from '../../src/ownership/psc-line.ts';
import { getOfficers } from '../../src/operations/get-officers.ts';
import type { CallContext, OperationDeps } from '../../src/operations/operation.ts';
import type { StreamEvent } from '../../src/ports/stream-appliers.ts';
import { officerItem } from '../../src/synthetic/officers.ts';
import { startFakeCompaniesHouseApi } from '../support/companies-house-api.ts';
import type { FakeCompaniesHouseApi } from '../support/companies-house-api.ts';
import { testStores, useStore } from '../support/databases.ts';
import { individualLine, statementLine } from '../support/psc-snapshot-lines.ts';
import { accountsSamplesDir } from '../support/samples.ts';
import { company } from '../support/store-records.ts';
import { eventLine, startFakeStreamServer } from '../support/stream-server.ts';
import type { FakeStreamServer } from '../support/stream-server.ts';
import { profile, waitFor, watchWithEndpoint } from '../support/stream-world.ts';
import type { WatchingKey } from '../support/stream-world.ts';

/** The watched company: its accounts sample is the document filed during the gap. */
const FILER = '09355500';
const SAMPLE = 'Prod223_3384_09355500_20221231.html';
/** A watched company whose lists are not read whole during the catch-up. */
const PARTIAL = '00000007';
/** A company nobody watches: its events give each stream a position to resume from. */
const OTHER = '00000003';
const SEED = 27;
const PSC = 'persons-with-significant-control';
const STATEMENTS = 'persons-with-significant-control-statements';
const STREAMS = [PSC, STATEMENTS, 'officers', 'filings'];

const dataOf = (line: string) => (JSON.parse(line) as { data: Record<string, unknown> }).data;

/** A stream event carrying `data` at its self link, published before the gap. */
function heldEvent(data: Record<string, unknown>): StreamEvent {
  const self = (data.links as { self: string }).self;
  return {
    resource_kind: 'held-before-the-gap',
    resource_uri: self,
    resource_id: self.slice(self.lastIndexOf('/') + 1),
    data,
    event: { timepoint: 1, published_at: '2026-11-01T09:00:00', type: 'changed' },
  };
}

/** A page of a Public Data API list, as the officers, PSC and statement lists answer. */
function listPage(items: unknown[], total: number, start: number, count: 'total_results' | 'total_count') {
  return { items, items_per_page: 100, start_index: start, [count]: total, etag: 'e' };
}

/** A filing history item as `/company/{n}/filing-history` lists it. */
function filingItem(transaction: string, data: Record<string, unknown>): Record<string, unknown> {
  return {
    transaction_id: transaction,
    date: '2026-11-25',
    ...data,
    links: {
      self: `/company/${FILER}/filing-history/${transaction}`,
      ...(data.links as Record<string, unknown> | undefined),
    },
  };
}

for (const kind of testStores) {
  describe(`${kind.name}: a gap (416) of the PSC, statement, officers and filings streams caught up`, () => {
    const db = useStore(kind);
    let server: FakeStreamServer;
    let api: FakeCompaniesHouseApi;
    let follower: Follower;
    let watcher: WatchingKey;
    const log: string[] = [];

    before(async () => {
      await db.store.upsertCompanies(
        [FILER, OTHER, PARTIAL].map((n) =>
          company(n, { accounts_last_made_up_to: '2021-12-31', accounts_next_due: '2099-09-30' }),
        ),
        '2026-11-01',
      );
      // The PSC held before the gap, as the API still lists it.
      await db.sql.transaction((tx) =>
        pscApplier(PSC).apply(tx, [
          {
            resource_kind: 'company-psc-individual',
            resource_uri: `/company/${FILER}/persons-with-significant-control/individual/p1`,
            resource_id: 'p1',
            data: dataOf(individualLine(FILER, 'p1', { forename: 'Ada', surname: 'First' })),
            event: { timepoint: 1, published_at: '2026-11-01T09:00:00', type: 'changed' },
          },
        ]),
      );
      // Held before the gap and deleted during it: a PSC, a statement and an appointment. And at
      // PARTIAL, whose lists are not read whole, a PSC and an appointment the lists do not show.
      const officer = (company: string, personId: number) =>
        officerItem(SEED, { companyNumber: company, personId, appointedOn: '2020-01-01' });
      await db.sql.transaction(async (tx) => {
        await pscApplier(PSC).apply(tx, [
          heldEvent(dataOf(individualLine(FILER, 'p3', { forename: 'Del', surname: 'Eted' }))),
          heldEvent(dataOf(individualLine(PARTIAL, 'q1'))),
        ]);
        await pscApplier(STATEMENTS).apply(tx, [heldEvent(dataOf(statementLine(FILER, 's0')))]);
        // Officer 2 is current here; the list shows it resigned during the gap.
        await createOfficersApplier().apply(
          tx,
          [officer(FILER, 1), officer(FILER, 2), officer(FILER, 300), officer(PARTIAL, 400)].map(heldEvent),
        );
      });
      // A PSC from a snapshot line without a self link: keyed by its etag, matched to no list.
      const { links: _links, ...unlinked } = dataOf(individualLine(FILER, 'p9', { forename: 'Cy', surname: 'Snap' }));
      const snapshot = parsePscLine(JSON.stringify({ company_number: FILER, data: unlinked }));
      assert.ok(snapshot.type === 'psc' && snapshot.record.psc_id.startsWith('etag-'));
      await createPscStore(db.sql).upsertPscs([snapshot.record], '2026-11-01');
      watcher = await watchWithEndpoint(db.sql, db.store, [FILER, PARTIAL]);
      api = await startFakeCompaniesHouseApi();
      const base = `/company/${FILER}`;
      const first = `items_per_page=100&start_index=0`;
      const second = `items_per_page=100&start_index=100`;
      api.json(base, profile(FILER));
      // What the API says now. A second person with significant control, notified during the gap.
      api.json(
        `${base}/persons-with-significant-control?${first}`,
        listPage(
          [
            dataOf(individualLine(FILER, 'p1', { forename: 'Ada', surname: 'First' })),
            dataOf(individualLine(FILER, 'p2', { forename: 'Bea', surname: 'Second' })),
          ],
          2,
          0,
          'total_results',
        ),
      );
      // Two statements served one a page (fewer than asked for): the next page starts after it.
      api.json(
        `${base}/persons-with-significant-control-statements?${first}`,
        listPage([dataOf(statementLine(FILER, 's1'))], 2, 0, 'total_results'),
      );
      api.json(
        `${base}/persons-with-significant-control-statements?items_per_page=100&start_index=1`,
        listPage([dataOf(statementLine(FILER, 's2'))], 2, 1, 'total_results'),
      );
      // 101 officers: the one appointed during the gap is on the second page; officer 2 resigned
      // during the gap; officer 300's appointment was deleted.
      const officers = Array.from({ length: 101 }, (_, i) =>
        officerItem(SEED, {
          companyNumber: FILER,
          personId: i + 1,
          appointedOn: i === 100 ? '2026-11-25' : '2020-01-01',
          ...(i === 1 ? { resignedOn: '2026-11-22' } : {}),
        }),
      );
      api.json(`${base}/officers?${first}`, listPage(officers.slice(0, 100), 101, 0, 'total_results'));
      api.json(`${base}/officers?${second}`, listPage(officers.slice(100), 101, 100, 'total_results'));
      // The filing history, newest first: the accounts filed during the gap, 99 older filings (one
      // of them older accounts), and the incorporation on the second page.
      const filings = [
        filingItem('T-ACCOUNTS', {
          category: 'accounts',
          type: 'AA',
          description: 'accounts-with-accounts-type-micro-entity',
          description_values: { made_up_date: '2022-12-31' },
          links: { document_metadata: `${api.url}/document/doc-xhtml` },
        }),
        // Accounts filed years ago: not queued for the Document API again.
        filingItem('T-OLD-ACCOUNTS', {
          category: 'accounts',
          type: 'AA',
          date: '2019-09-30',
          description_values: { made_up_date: '2018-12-31' },
          links: { document_metadata: `${api.url}/document/doc-old` },
        }),
        ...Array.from({ length: 98 }, (_, i) =>
          filingItem(`T-CS${i}`, { category: 'confirmation-statement', type: 'CS01', date: '2020-01-01' }),
        ),
        filingItem('T-NEWINC', { category: 'incorporation', type: 'NEWINC', date: '2015-01-01' }),
      ];
      api.json(`${base}/filing-history?${first}`, listPage(filings.slice(0, 100), 101, 0, 'total_count'));
      api.json(`${base}/filing-history?${second}`, listPage(filings.slice(100), 101, 100, 'total_count'));
      // PARTIAL: its officers list says 3 but serves 2 (the next page answers 404), its PSC list
      // answers 404; its statements list is empty, and it holds no statement.
      const partial = `/company/${PARTIAL}`;
      api.json(partial, profile(PARTIAL));
      api.json(
        `${partial}/officers?${first}`,
        listPage([officer(PARTIAL, 401), officer(PARTIAL, 402)], 3, 0, 'total_results'),
      );
      api.json(`${partial}/persons-with-significant-control-statements?${first}`, listPage([], 0, 0, 'total_results'));
      api.document('doc-old', FILER, { 'application/pdf': Buffer.from('%PDF-1.4') });
      api.document('doc-xhtml', FILER, {
        'application/pdf': Buffer.from('%PDF-1.4'),
        'application/xhtml+xml': readFileSync(join(accountsSamplesDir, SAMPLE)),
      });

      server = await startFakeStreamServer({ key: 'k' });
      const companiesApi = createCompaniesHouseApi({ apiUrl: api.url, documentApiUrl: api.url, key: 'api-key' });
      follower = startFollower(
        {
          ledger: createStreamLedger(db.sql),
          appliers: [pscApplier(PSC), pscApplier(STATEMENTS), createOfficersApplier(), filingsApplier()],
          detection: {
            store: db.store,
            ownership: createOwnershipReader(db.sql),
            detections: createAlertDetectionStore(db.sql),
          },
          documents: { queue: createDocumentQueue(db.sql), api: companiesApi, filings: db.store },
          gapFill: { gaps: createStreamGaps(db.sql), api: companiesApi, profiles: companiesApplier() },
        },
        {
          baseUrl: server.url,
          key: 'k',
          get: get as StreamGet,
          stallMs: 2_000,
          lease: { holder: 'test-follower', seconds: 30 },
          backoffMs: 10,
          maxBackoffMs: 50,
          log: (line) => log.push(line),
        },
      );
      await waitFor('the follower to connect', async () => STREAMS.every((stream) => server.connected(stream) > 0));
      // Each stream gets a position (an event of a company nobody watches), to resume from.
      const at = '2026-11-20T09:00:00';
      server.publish(PSC, [
        eventLine(1, at, `/company/${OTHER}/persons-with-significant-control/individual/o1`, {
          ...dataOf(individualLine(OTHER, 'o1')),
        }),
      ]);
      server.publish(STATEMENTS, [
        eventLine(1, at, `/company/${OTHER}/persons-with-significant-control-statements/o1`, {
          ...dataOf(statementLine(OTHER, 'o1')),
        }),
      ]);
      const other = officerItem(SEED, { companyNumber: OTHER, personId: 500, appointedOn: '2019-01-01' });
      server.publish('officers', [
        eventLine(1, at, (other.links as { self: string }).self, other, { kind: 'company-officers' }),
      ]);
      server.publish('filings', [
        eventLine(
          1,
          at,
          `/company/${OTHER}/filing-history/T-OTHER`,
          { transaction_id: 'T-OTHER', category: 'officers', type: 'AP01', date: '2026-11-20' },
          { kind: 'filing-history' },
        ),
      ]);
      await waitFor('every position', async () => {
        const rows = await db.sql.query(`SELECT 1 FROM stream_positions WHERE timepoint = 1`);
        return rows.rowCount === STREAMS.length;
      });
      // The server no longer holds timepoint 1: every stream is answered 416 when it reconnects.
      for (const stream of STREAMS) {
        server.expireBefore(stream, 1_000);
        server.cut(stream);
      }
      await waitFor('every gap filled', async () => {
        const rows = await db.sql.query(`SELECT 1 FROM stream_gaps WHERE filled_at IS NOT NULL`);
        return rows.rowCount === STREAMS.length;
      });
    });
    after(async () => {
      await follower.stop();
      await Promise.all([server.close(), api.close(), watcher.close()]);
    });

    const itemsOf = async (stream: string) =>
      (
        await db.sql.query<{ counts: Record<string, number> }>(
          `SELECT fill_counts AS counts FROM stream_gaps WHERE stream = $1`,
          [stream],
        )
      ).rows[0]?.counts.items;

    test('a PSC notified during the gap raises control_change; both statements are stored', async () => {
      await waitFor('control_change', async () => {
        const rows = await db.sql.query<{ alert_key: string }>(
          `SELECT alert_key FROM alert_detections WHERE key_id = $1 AND company_number = $2`,
          [watcher.keyId, FILER],
        );
        return rows.rows.some((row) => row.alert_key.includes('control_change'));
      });
      const current = await createOwnershipReader(db.sql).currentPscsOf([FILER]);
      // The statements are held beside the persons, without a name.
      // The snapshot's PSC keyed by its etag stays (it may be Ada's older copy; it cannot be told).
      assert.deepEqual(current.map((psc) => psc.name ?? 'statement').sort(), [
        'Ms Ada First',
        'Ms Bea Second',
        'Ms Cy Snap',
        'statement',
        'statement',
      ]);
      const statements = await db.sql.query<{ psc_id: string }>(
        `SELECT psc_id FROM psc WHERE company_number = $1 AND kind_class = 'statement' AND NOT ceased`,
        [FILER],
      );
      assert.equal(statements.rowCount, 2);
      assert.equal(await itemsOf(PSC), 2);
      assert.equal(await itemsOf(STATEMENTS), 2);
    });

    test('every officer, over two pages, is stored; get_officers shows the one appointed during the gap', async () => {
      // Only the store and the officers are read by get_officers.
      const deps = { store: db.store, officers: createOfficerStore(db.sql) } as unknown as OperationDeps;
      const context: CallContext = { keyId: watcher.keyId, plan: 'pro', today: '2026-11-27', now: new Date() };
      const answer = await getOfficers.run(deps, { company_number: FILER, include_resigned: false }, context);
      assert.equal(answer.officers.length, 100);
      assert.equal(answer.officers[0]!.appointed_on, '2026-11-25');
      // And the two that PARTIAL's list served.
      assert.equal(await itemsOf('officers'), 103);
      assert.ok(api.requests.some((r) => r.path === `/company/${FILER}/officers?items_per_page=100&start_index=100`));
    });

    test('the accounts filed during the gap are fetched as XHTML and become figures; both pages read', async () => {
      const status = async (transaction: string) =>
        (
          await db.sql.query<{ document_status: string }>(
            `SELECT document_status FROM stream_filings WHERE transaction_id = $1`,
            [transaction],
          )
        ).rows[0]?.document_status;
      await waitFor('the XHTML document loaded', async () => (await status('T-ACCOUNTS')) === 'loaded');
      const latest = (await db.store.getCompany(FILER))!.accounts[0]!;
      assert.equal(latest.balance_sheet_date, '2022-12-31');
      assert.ok(
        Object.values(latest.figures).some((value) => value !== null),
        JSON.stringify(latest),
      );
      assert.ok(
        api.requests.some((r) => r.path === '/document/doc-xhtml/content' && r.accept === 'application/xhtml+xml'),
      );
      // The filing history says total_count, not total_results: its second page is read too.
      assert.equal(await itemsOf('filings'), 101);
      assert.ok(
        api.requests.some((r) => r.path === `/company/${FILER}/filing-history?items_per_page=100&start_index=100`),
      );
      // Only the filings of the gap's days (and a month before) are applied: the company's past
      // accounts are not fetched again through the Document API.
      assert.equal(await status('T-OLD-ACCOUNTS'), undefined);
      assert.equal(await status('T-NEWINC'), undefined);
      assert.ok(!api.requests.some((r) => r.path.startsWith('/document/doc-old')));
    });

    test('what was deleted during the gap is deleted; a resigned officer and an etag-keyed PSC stay', async () => {
      const appointment = (company: string, personId: number) => {
        const self = (
          officerItem(SEED, { companyNumber: company, personId, appointedOn: '2020-01-01' }).links as {
            self: string;
          }
        ).self;
        return self.slice(self.lastIndexOf('/') + 1);
      };
      const officerRow = async (company: string, personId: number) =>
        (
          await db.sql.query<{ deleted: boolean; resigned_on: string | null }>(
            `SELECT deleted, resigned_on::text FROM officers WHERE company_number = $1 AND appointment_id = $2`,
            [company, appointment(company, personId)],
          )
        ).rows[0];
      assert.deepEqual(await officerRow(FILER, 300), { deleted: true, resigned_on: null });
      assert.deepEqual(await officerRow(FILER, 2), { deleted: false, resigned_on: '2026-11-22' });
      assert.deepEqual(await officerRow(FILER, 1), { deleted: false, resigned_on: null });
      const deps = { store: db.store, officers: createOfficerStore(db.sql) } as unknown as OperationDeps;
      const context: CallContext = { keyId: watcher.keyId, plan: 'pro', today: '2026-11-27', now: new Date() };
      const all = await getOfficers.run(deps, { company_number: FILER, include_resigned: true }, context);
      assert.equal(all.officers.length, 101);
      const pscs = await db.sql.query<{ psc_id: string; ceased: boolean; marked: boolean }>(
        `SELECT psc_id, ceased, ceased_by_snapshot IS NOT NULL AS marked FROM psc WHERE company_number = $1
         ORDER BY psc_id`,
        [FILER],
      );
      assert.deepEqual(
        pscs.rows.map(({ psc_id, ceased, marked }) => [psc_id.startsWith('etag-') ? 'etag' : psc_id, ceased, marked]),
        [
          ['etag', false, false],
          ['p1', false, false],
          ['p2', false, false],
          ['p3', true, true],
          ['s0', true, true],
          ['s1', false, false],
          ['s2', false, false],
        ],
      );
      const counts = await db.sql.query<{ stream: string; deleted: number; incomplete: number }>(
        `SELECT stream, (fill_counts ->> 'deleted')::int AS deleted, (fill_counts ->> 'incomplete')::int AS incomplete
         FROM stream_gaps WHERE stream <> 'filings' ORDER BY stream`,
      );
      assert.deepEqual(
        counts.rows.map((row) => ({ ...row })),
        [
          { stream: 'officers', deleted: 1, incomplete: 1 },
          { stream: PSC, deleted: 1, incomplete: 1 },
          { stream: STATEMENTS, deleted: 1, incomplete: 0 },
        ],
      );
    });

    test('a list not read whole (fewer items than its total, a 404) deletes nothing', async () => {
      const held = await db.sql.query<{ deleted: boolean }>(
        `SELECT deleted FROM officers WHERE company_number = $1 ORDER BY appointment_id`,
        [PARTIAL],
      );
      // The two served are stored; the one held is not taken for deleted.
      assert.deepEqual(
        held.rows.map((row) => row.deleted),
        [false, false, false],
      );
      const psc = await db.sql.query<{ ceased: boolean }>(`SELECT ceased FROM psc WHERE company_number = $1`, [
        PARTIAL,
      ]);
      assert.deepEqual(
        psc.rows.map((row) => row.ceased),
        [false],
      );
      assert.ok(
        log.some((line) =>
          line.includes(
            `${PARTIAL}'s officers list was not read whole (the page from 2 answered 404; 2 items read, 3 said)`,
          ),
        ),
        log.join('\n'),
      );
      assert.ok(
        log.some((line) => line.includes(`${PARTIAL}'s persons-with-significant-control list was not read whole`)),
        log.join('\n'),
      );
    });
  });
}
