/**
 * The register moves on between snapshots, and every snapshot tells the same story: companies
 * dissolve and vanish, new ones appear, statuses change, charges are registered and satisfied,
 * accounts and statements are filed, and a renamed company lists its old name as a previous name.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { syntheticCompany } from '../../src/synthetic/companies.ts';
import { syntheticFilings } from '../../src/synthetic/filings.ts';
import { companyLife, LIFE_START, registerRow, registerSnapshot } from '../../src/synthetic/register.ts';
import type { RegisterRecord } from '../../src/synthetic/register.ts';

const SEED = 77;
const COMPANIES = 4000;
const EARLIER = '2023-06-01';
const LATER = '2025-06-01';

function snapshot(date: string): Map<string, RegisterRecord> {
  return new Map(
    [...registerSnapshot({ seed: SEED, companies: COMPANIES, snapshotDate: date })].map((r) => [r.company_number, r]),
  );
}

const BEFORE = snapshot(EARLIER);
const AFTER = snapshot(LATER);
const BOTH = [...BEFORE.values()]
  .filter((r) => AFTER.has(r.company_number))
  .map((r) => [r, AFTER.get(r.company_number)!] as const);
const INDEX = new Map(Array.from({ length: COMPANIES }, (_, i) => [syntheticCompany(SEED, i).company_number, i]));

describe('register evolution between two snapshots', () => {
  test('dissolved companies vanish, and stay gone', () => {
    const gone = [...BEFORE.keys()].filter((number) => !AFTER.has(number));
    assert.ok(gone.length > COMPANIES * 0.01, `${gone.length} dissolved`);
    for (const number of gone) {
      const index = INDEX.get(number)!;
      const life = companyLife(SEED, syntheticCompany(SEED, index), LATER);
      assert.ok(
        life.dissolved !== null && life.dissolved > EARLIER && life.dissolved <= LATER,
        `${number}: ${life.dissolved}`,
      );
      assert.equal(registerRow(SEED, index, '2030-01-01'), null);
    }
  });

  test('nobody comes back: a company absent from the earlier snapshot was incorporated since', () => {
    for (const [number, row] of AFTER) {
      if (!BEFORE.has(number)) assert.ok(row.incorporation_date > EARLIER, `${number} ${row.incorporation_date}`);
    }
  });

  test('statuses change: into trouble, and some back to Active', () => {
    const changed = BOTH.filter(([a, b]) => a.status !== b.status);
    assert.ok(changed.some(([a, b]) => a.status === 'Active' && b.status !== 'Active'));
    assert.ok(changed.some(([a, b]) => a.status !== 'Active' && b.status === 'Active'));
  });

  test('before the simulation of trouble starts, every company is Active', () => {
    const early = [...registerSnapshot({ seed: SEED, companies: 2000, snapshotDate: LIFE_START })];
    assert.ok(early.every((r) => r.status === 'Active'));
  });

  test('companies are in the status their life says they are in', () => {
    for (const [number, row] of [...AFTER].slice(0, 1500)) {
      const life = companyLife(SEED, syntheticCompany(SEED, INDEX.get(number)!), LATER);
      assert.equal(life.dissolved, null);
      assert.equal(life.spells[life.spells.length - 1]!.status, row.status, number);
      assert.equal(life.spells[0]!.from, row.incorporation_date);
    }
  });

  test('charges are only ever added or satisfied, and some companies gain charges', () => {
    let gained = 0;
    for (const [a, b] of BOTH) {
      assert.ok(b.mortgages.charges >= a.mortgages.charges, a.company_number);
      assert.ok(b.mortgages.satisfied >= a.mortgages.satisfied, a.company_number);
      if (b.mortgages.charges > a.mortgages.charges) gained++;
    }
    assert.ok(gained > 20, `${gained} gained charges`);
  });

  test('accounts and confirmation statements move on', () => {
    for (const [a, b] of BOTH) {
      assert.ok((b.accounts.last_made_up ?? '') >= (a.accounts.last_made_up ?? ''), a.company_number);
      assert.ok(b.accounts.next_due >= a.accounts.next_due);
      assert.ok((b.conf_stmt.last_made_up ?? '') >= (a.conf_stmt.last_made_up ?? ''));
    }
    const movedOn = BOTH.filter(([a, b]) => b.accounts.last_made_up !== a.accounts.last_made_up).length;
    assert.ok(movedOn / BOTH.length > 0.95, `${movedOn} of ${BOTH.length}`);
  });

  test('a name change shows the old name as previous name 1, with the date of the change', () => {
    const renamed = BOTH.filter(([a, b]) => a.name !== b.name);
    assert.ok(renamed.length >= 5, `${renamed.length} renamed`);
    for (const [a, b] of renamed) {
      const latest = b.previous_names[0]!;
      assert.ok(latest.date > EARLIER && latest.date <= LATER, `${a.company_number} changed ${latest.date}`);
      // The earlier snapshot's list is the tail of the later one.
      const older = b.previous_names.slice(b.previous_names.length - a.previous_names.length);
      assert.deepEqual(older, a.previous_names.slice(0, older.length));
      assert.ok(b.previous_names.some((p) => p.name === a.name));
    }
    for (const [a, b] of BOTH.filter(([x, y]) => x.name === y.name)) {
      assert.deepEqual(b.previous_names, a.previous_names);
    }
  });

  test('the same company on the same date is the same row, whenever it is asked for', () => {
    for (const [number, row] of [...AFTER].slice(0, 200)) {
      assert.deepEqual(registerRow(SEED, INDEX.get(number)!, LATER), row);
    }
  });
});

describe('the accounts stream and dissolution', () => {
  test('no accounts are published on or after the day their company was dissolved', () => {
    let filings = 0;
    const filers = new Set<string>();
    const dissolvedFilers = new Set<string>();
    for (const filing of syntheticFilings({ seed: SEED, companies: 300, yearsPerCompany: 4, fromYear: 2022 })) {
      const number = filing.expected.company_number;
      const { dissolved } = companyLife(SEED, syntheticCompany(SEED, INDEX.get(number)!), '2030-01-01');
      assert.ok(
        dissolved === null || filing.published < dissolved,
        `${number} published ${filing.published}, dissolved ${dissolved}`,
      );
      filings++;
      filers.add(number);
      if (dissolved !== null) dissolvedFilers.add(number);
    }
    // Enough companies dissolve in the window for the rule to have been tested.
    assert.ok(filings > 800 && filers.size === 300, `${filings} filings by ${filers.size} companies`);
    assert.ok(dissolvedFilers.size >= 10, `${dissolvedFilers.size} filers dissolved`);
  });
});
