/**
 * Overdue is judged at the snapshot's date when a load reads history: a register snapshot of 2016
 * loaded today must not record every watched company whose 2016 due date has since passed as
 * overdue (the filings that met those dates are not in it), while a current snapshot is judged
 * today. End to end: companies watched over HTTP, snapshots through the real loader, the alerts
 * recorded by the load's detection read back from the store.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, markdown } from '../support/api-fixtures.ts';
import type { RegisterFixture, World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';

const HISTORY_BEFORE = '2016-10-01';
const HISTORY = '2016-11-02';

/** Due at the end of 2016: not overdue on the 2016 snapshot's date, long overdue today. */
const companies: RegisterFixture[] = [
  { number: '00000101', name: 'OLD DUE LTD', nextDue: '2016-12-31', charges: 0, outstanding: 0 },
  { number: '00000102', name: 'OLD LATE LTD', nextDue: '2016-10-15', charges: 0, outstanding: 0 },
];
/** The next month: each company has a new charge, so that detection looks at both. */
const nextMonth = companies.map((c) => ({ ...c, charges: 1, outstanding: 1 }));

for (const kind of testStores) {
  describe(`${kind.name}: overdue judged at a historical snapshot's date`, () => {
    let world: World;
    let key: string;

    before(async () => {
      // Watched in October 2016, as someone replaying history would have watched them then.
      world = await startWorld({ store: kind, search: 'postgres', now: new Date('2016-10-05T12:00:00Z') });
      await world.loadRegister(companies, HISTORY_BEFORE);
      key = await world.issueKey('pro');
      const added = await call(world, '/v1/watchlist/add', { key, body: { company_numbers: ['101', '102'] } });
      assert.equal(added.status, 200, JSON.stringify(added.body));
      assert.match(markdown(added), /Added \(2\)/);
    });
    after(() => world.close());

    const recorded = async () =>
      (
        await world.sql.query<{ company_number: string; kind: string }>(
          `SELECT company_number, kind FROM alert_detections ORDER BY company_number, kind`,
        )
      ).rows.map((r) => [r.company_number, r.kind]);

    test('a 2016 snapshot loaded today records overdue only where it was overdue in 2016', async () => {
      await world.loadRegister(nextMonth, HISTORY, { detectAlerts: true });
      assert.deepEqual(await recorded(), [
        ['00000101', 'new_charges'],
        ['00000102', 'new_charges'],
        ['00000102', 'overdue_accounts'],
      ]);
    });

    test('a current snapshot with the same due dates judges today: the other one is overdue now', async () => {
      const today = new Date().toISOString().slice(0, 10);
      await world.loadRegister(nextMonth, today, { detectAlerts: true });
      assert.deepEqual(await recorded(), [
        ['00000101', 'new_charges'],
        ['00000101', 'overdue_accounts'],
        ['00000102', 'new_charges'],
        ['00000102', 'overdue_accounts'],
      ]);
    });
  });
}
