/**
 * The officers and disqualified-officers stream appliers on every store (PGlite and a real
 * PostgreSQL), fed real event lines: appointments, resignations and deletions land; the same
 * events again, or an older event after a newer one, change nothing; disqualifications are read
 * with the officer's appointments; an unreadable event is skipped and told, never applied.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  createDisqualifiedOfficersApplier,
  createOfficersApplier,
} from '../../src/adapters/postgres/officer-appliers.ts';
import { createOfficerStore } from '../../src/adapters/postgres/officer-store.ts';
import type { StreamEvent } from '../../src/ports/stream-appliers.ts';
import type { Sql } from '../../src/ports/sql.ts';
import { testStores, useStore } from '../support/databases.ts';
import { streamEvents } from '../support/stream-lines.ts';

const lines = streamEvents('officers');
const disqualifiedLines = streamEvents('disqualified-officers');

async function dump(sql: Sql): Promise<string> {
  const result = await sql.query<{ row: unknown }>(
    `SELECT to_jsonb(o) AS row FROM officers o ORDER BY company_number, appointment_id`,
  );
  return JSON.stringify(result.rows);
}

/** The same event on another company, so that each test has its own rows. */
function onCompany(event: StreamEvent, companyNumber: string): StreamEvent {
  const move = (value: string) => value.replace(/\/company\/[A-Z0-9]{8}\//, `/company/${companyNumber}/`);
  return { ...event, resource_uri: move(event.resource_uri) };
}

for (const kind of testStores) {
  describe(`${kind.name}: officers stream appliers`, () => {
    const db = useStore(kind);
    const officers = createOfficersApplier();

    test('appointments, a resignation and a deletion land; the changed companies are returned', async () => {
      const changed = await db.sql.transaction((tx) => officers.apply(tx, lines));
      assert.deepEqual(changed.companies.sort(), ['09123456', 'SC654321']);
      const store = createOfficerStore(db.sql);
      assert.deepEqual(await store.officersOf('09123456', false), [], 'Hopper resigned, Babbage deleted');
      const all = await store.officersOf('09123456', true);
      assert.deepEqual(
        all.map((o) => [o.name, o.role, o.appointed_on, o.resigned_on, o.birth_month, o.birth_year]),
        [['HOPPER, Grace Brewster', 'director', '2019-03-14', '2026-11-19', 6, 1975]],
      );
      const [scottish] = await store.officersOf('SC654321', false);
      assert.equal(scottish?.officer_id, 'pQ8rS9tU0vW1xY2zA3bC4dE5fG6');
      assert.equal(scottish?.nationality, 'British');
      assert.equal(scottish?.country_of_residence, 'Scotland');
      assert.equal(scottish?.occupation, 'Engineer');
      assert.equal(scottish?.identity_verification?.identity_verified_on, '2025-11-18');
      assert.equal(scottish?.identity_verification?.appointment_verification_statement_due_on, null);
      assert.equal(scottish?.as_of, '2026-11-21T16:03:10.000Z');
    });

    test('the same events again change nothing and name no company', async () => {
      const before = await dump(db.sql);
      const again = await db.sql.transaction((tx) => officers.apply(tx, lines));
      assert.deepEqual(again.companies, []);
      assert.equal(await dump(db.sql), before);
    });

    test('an older event after a newer one changes nothing: a resignation is not undone', async () => {
      const [appointed, , resigned] = lines.map((event) => onCompany(event, '09000001'));
      await db.sql.transaction((tx) => officers.apply(tx, [resigned!]));
      const late = await db.sql.transaction((tx) => officers.apply(tx, [appointed!]));
      assert.deepEqual(late.companies, []);
      const [held] = await createOfficerStore(db.sql).officersOf('09000001', true);
      assert.equal(held?.resigned_on, '2026-11-19');
    });

    test('a deletion is kept: an older change arriving after it does not bring the appointment back', async () => {
      const [, added, , , deleted] = lines.map((event) => onCompany(event, '09000002'));
      await db.sql.transaction((tx) => officers.apply(tx, [deleted!]));
      await db.sql.transaction((tx) => officers.apply(tx, [added!]));
      assert.deepEqual(await createOfficerStore(db.sql).officersOf('09000002', true), []);
    });

    test('two events of one appointment in one batch: the newer wins whatever the order', async () => {
      const [appointed, , resigned] = lines.map((event) => onCompany(event, '09000003'));
      await db.sql.transaction((tx) => officers.apply(tx, [resigned!, appointed!]));
      const [held] = await createOfficerStore(db.sql).officersOf('09000003', true);
      assert.equal(held?.resigned_on, '2026-11-19');
    });

    test('an unreadable event is skipped with its reason; the rest of the batch is applied', async () => {
      const skipped: string[] = [];
      const applier = createOfficersApplier({ onSkip: (_event, reason) => skipped.push(reason) });
      const good = onCompany(lines[1]!, '09000004');
      const badUri = { ...good, resource_uri: '/company/09000004/officers' };
      const noName = { ...onCompany(lines[0]!, '09000004'), data: { officer_role: 'director' } };
      const badTime = { ...good, event: { ...good.event, published_at: 'yesterday' } };
      const changed = await db.sql.transaction((tx) => applier.apply(tx, [badUri, noName, badTime, good]));
      assert.deepEqual(changed.companies, ['09000004']);
      assert.deepEqual(skipped, [
        'resource_uri "/company/09000004/officers" is not /company/{number}/appointments/{id}',
        'the appointment has no name',
        'published_at "yesterday" is not a date-time',
      ]);
      assert.equal((await createOfficerStore(db.sql).officersOf('09000004', true)).length, 1);
    });

    test('a disqualification in force is read with each appointment of its officer; an expired one is not', async () => {
      const applier = createDisqualifiedOfficersApplier();
      const changed = await db.sql.transaction((tx) => applier.apply(tx, disqualifiedLines));
      assert.deepEqual(changed.companies, ['SC654321'], 'where the officer holds a current appointment');
      const store = createOfficerStore(db.sql);
      const [scottish] = await store.officersOf('SC654321', false);
      assert.equal(scottish?.disqualified_until, '2032-11-30');
      const again = await db.sql.transaction((tx) => applier.apply(tx, disqualifiedLines));
      assert.deepEqual(again.companies, []);
      const network = await store.appointmentsOf('pQ8rS9tU0vW1xY2zA3bC4dE5fG6');
      assert.deepEqual(
        network
          .filter((a) => ['SC654321', '09123456'].includes(a.company_number))
          .map((a) => [a.company_number, a.resigned_on, a.disqualified_until]),
        [
          ['SC654321', null, '2032-11-30'],
          ['09123456', '2026-11-19', '2032-11-30'],
        ],
      );
      const corporate = await db.sql.query<{ disqualified_until: string; name: string }>(
        `SELECT disqualified_until::text, name FROM officer_disqualifications WHERE kind = 'corporate'`,
      );
      assert.deepEqual(corporate.rows, [{ disqualified_until: '2025-01-01', name: 'DISQUALIFIED HOLDINGS LIMITED' }]);
    });

    test('a deleted disqualification no longer counts', async () => {
      const applier = createDisqualifiedOfficersApplier();
      const [natural] = disqualifiedLines;
      const deleted = {
        ...natural!,
        event: { ...natural!.event, timepoint: 120500, type: 'deleted', published_at: '2026-11-23T08:00:00' },
      };
      const changed = await db.sql.transaction((tx) => applier.apply(tx, [deleted]));
      assert.deepEqual(changed.companies, ['SC654321']);
      const [scottish] = await createOfficerStore(db.sql).officersOf('SC654321', false);
      assert.equal(scottish?.disqualified_until, null);
    });
  });
}
