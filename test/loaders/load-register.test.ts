/**
 * The register loader on both stores: real sample rows, bad rows with line numbers, refusal of
 * non-register files, snapshot completeness, idempotence, and a load killed half-way.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadRegister, RegisterInputError } from '../../loaders/load-register.ts';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { dumpState, freshPostgres, testStores, useStore } from '../support/databases.ts';
import { watchJournal } from '../support/journal-watch.ts';
import { columnOf, registerRows, writeRegisterCsv } from '../support/register-csv.ts';
import { accountsSamplesDir, registerSamplesDir, repoRoot } from '../support/samples.ts';

const dir = mkdtempSync(join(tmpdir(), 'ukcd-register-'));
const quiet = { reportDir: join(dir, 'reports'), log: () => undefined };

for (const kind of testStores) {
  describe(`${kind.name}: ukcd load register`, () => {
    const db = useStore(kind);

    test('the real sample loads whole', async () => {
      const summary = await loadRegister(
        { companies: db.store, journal: db.store },
        [join(registerSamplesDir, 'basic-sample.csv')],
        {
          ...quiet,
          snapshotDate: '2021-08-01',
        },
      );
      assert.deepEqual([summary.rowsRead, summary.rowsWritten, summary.rejected, summary.complete], [31, 31, 0, false]);
      assert.equal((await db.store.getCompany('08209948'))?.company.accounts_category, 'DORMANT');
    });

    test('bad rows are reported with their line and reason; the good ones load', async () => {
      const path = join(dir, `bad-${kind.name}.csv`);
      const rows = registerRows(4, 5000, (row, i) => {
        if (i === 1) row[columnOf('IncorporationDate')] = '31/13/2020';
        if (i === 2) row[columnOf('CompanyNumber')] = '';
      });
      writeRegisterCsv(path, rows);
      const summary = await loadRegister({ companies: db.store, journal: db.store }, [path], {
        ...quiet,
        snapshotDate: '2021-08-01',
      });
      assert.deepEqual([summary.rowsRead, summary.rowsWritten, summary.rejected], [4, 2, 2]);
      const report = readFileSync(summary.rejectReport!, 'utf8');
      assert.match(report, /line 3: company 00005001: IncorporationDate "31\/13\/2020" is not a DD\/MM\/YYYY date/);
      assert.match(report, /line 4: CompanyNumber "" is not a company number/);
    });

    test('while it runs, its counts so far reach the journal, where another process can read them', async () => {
      const path = join(dir, `progress-${kind.name}.csv`);
      writeRegisterCsv(path, registerRows(3000, 600_000));
      const watch = watchJournal(db.store, 'register');
      const summary = await loadRegister({ companies: db.store, journal: db.store }, [path], {
        ...quiet,
        snapshotDate: '2021-08-01',
        batchSize: 100,
        progressIntervalMs: 5,
      }).finally(() => watch.stop());
      assert.equal(summary.rowsWritten, 3000);
      const seen = await watch.stop();
      assert.ok(
        seen.some((load) => load.rows_read > 0),
        `counts were reported while running: ${JSON.stringify(seen.slice(-3))}`,
      );
      for (const [i, load] of seen.entries()) {
        assert.ok(load.rows_written <= load.rows_read && load.rows_read <= 3000, JSON.stringify(load));
        const previous = seen[i - 1];
        if (previous?.id === load.id) assert.ok(load.rows_read >= previous.rows_read, 'counts only grow');
      }
      const progress = await db.store.loadProgress();
      assert.deepEqual(
        progress.running.filter((load) => load.kind === 'register'),
        [],
      );
      const last = progress.lastFinished.find((load) => load.kind === 'register' && load.status === 'done');
      assert.deepEqual(last && [last.rows_read, last.rows_written, last.rows_rejected], [3000, 3000, 0]);
    });

    test('a CSV that stops being readable: that record is rejected with its line and why; the rows before it are in', async () => {
      const path = join(dir, `unclosed-${kind.name}.csv`);
      writeRegisterCsv(path, registerRows(2500, 9000), ['"UNCLOSED QUOTE LTD,09999999']);
      const summary = await loadRegister({ companies: db.store, journal: db.store }, [path], {
        ...quiet,
        snapshotDate: '2021-08-01',
        batchSize: 1000,
      });
      assert.deepEqual([summary.rowsWritten, summary.rejected, summary.complete], [2500, 1, false]);
      assert.match(
        readFileSync(summary.rejectReport!, 'utf8'),
        /line \d+: .*quote.*the rest of the file was not read/i,
      );
      assert.ok((await db.store.getCompany('00009000')) !== null, 'the rows before it were written');
    });

    test('when writing fails the load stops, and so does the reading', async () => {
      const path = join(dir, `write-fails-${kind.name}.csv`);
      writeRegisterCsv(path, registerRows(20_000, 10_000));
      let writes = 0;
      const failing = {
        ...db.store,
        upsertCompanies: async () => {
          writes++;
          throw new Error('disk full');
        },
      };
      await assert.rejects(
        loadRegister({ companies: failing, journal: failing }, [path], {
          ...quiet,
          snapshotDate: '2021-08-01',
          batchSize: 100,
        }),
        /disk full/,
      );
      assert.ok(writes <= 2, `${writes} writes tried after the first failed`);
    });

    test('a file that is not a register CSV is refused and nothing is written', async () => {
      const before = await db.store.counts();
      await assert.rejects(
        loadRegister(
          { companies: db.store, journal: db.store },
          [join(accountsSamplesDir, 'Prod224_0042_02771600_20160930.xml')],
          {
            ...quiet,
            snapshotDate: '2021-08-01',
          },
        ),
        (error: Error) =>
          error instanceof RegisterInputError && /not a Companies House register CSV/.test(error.message),
      );
      assert.deepEqual(await db.store.counts(), before);
    });

    test('without a date in the name or the options, the load is refused', async () => {
      await assert.rejects(
        loadRegister({ companies: db.store, journal: db.store }, [join(registerSamplesDir, 'basic-sample.csv')], quiet),
        RegisterInputError,
      );
    });

    test('a complete snapshot (from its name) marks companies it no longer lists as dissolved; loading it twice changes nothing', async () => {
      const first = join(dir, `s1-${kind.name}`, 'BasicCompanyDataAsOneFile-2024-01-01.csv');
      const second = join(dir, `s2-${kind.name}`, 'BasicCompanyDataAsOneFile-2024-02-01.csv');
      await import('node:fs').then((fs) => {
        fs.mkdirSync(join(dir, `s1-${kind.name}`));
        fs.mkdirSync(join(dir, `s2-${kind.name}`));
      });
      writeRegisterCsv(first, registerRows(10, 7000));
      writeRegisterCsv(second, registerRows(8, 7000));
      await loadRegister({ companies: db.store, journal: db.store }, [first], quiet);
      // The tests share one store: the other tests' companies are not listed either, far more than
      // the 2% one month's snapshot may mark removed unless the operator names the count (counted
      // before the load: less the 8 companies held that it lists).
      const count = (await db.store.countNotListed('2024-02-01')).count - 8;
      const summary = await loadRegister({ companies: db.store, journal: db.store }, [second], {
        ...quiet,
        allowRemovals: count,
      });
      assert.equal(summary.complete, true);
      assert.ok(summary.markedDissolved >= 2);
      assert.equal((await db.store.getCompany('00007009'))?.company.status, 'Dissolved');
      assert.equal((await db.store.getCompany('00007000'))?.company.snapshot_date, '2024-02-01');
      const state = await dumpState(db.sql);
      const again = await loadRegister({ companies: db.store, journal: db.store }, [second], quiet);
      assert.equal(again.markedDissolved, 0);
      assert.equal(await dumpState(db.sql), state);
    });
  });
}

describe('ukcd load register killed with SIGKILL half-way, then run again', () => {
  test('ends in the same state as one clean run (real Postgres)', async () => {
    const folder = join(dir, 'big');
    await import('node:fs').then((fs) => fs.mkdirSync(folder));
    const path = join(folder, 'BasicCompanyDataAsOneFile-2024-06-01.csv');
    writeRegisterCsv(path, registerRows(60_000, 100_000));
    const killed = await freshPostgres();
    const clean = await freshPostgres();
    try {
      // Companies from an earlier snapshot, some of which the new one drops.
      const older = join(dir, 'older');
      await import('node:fs').then((fs) => fs.mkdirSync(older));
      writeRegisterCsv(join(older, 'BasicCompanyDataAsOneFile-2024-05-01.csv'), registerRows(100, 200_000));
      for (const db of [killed, clean]) {
        await loadRegister(
          { companies: createCompanyStore(db.sql), journal: createCompanyStore(db.sql) },
          [join(older, 'BasicCompanyDataAsOneFile-2024-05-01.csv')],
          quiet,
        );
      }

      const child = spawn(process.execPath, [join(repoRoot, 'bin', 'ukcd.mjs'), 'load', 'register', path], {
        env: { ...process.env, DATABASE_URL: killed.url, DATA_DIR: join(dir, 'data-killed') },
        stdio: 'ignore',
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      for (let waited = 0; ; waited += 50) {
        const n = (
          await killed.sql.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM companies WHERE snapshot_date = '2024-06-01'`,
          )
        ).rows[0]!.n;
        if (n >= 5000) break;
        if (waited > 60_000) assert.fail('the load never got going');
        await new Promise((r) => setTimeout(r, 50));
      }
      child.kill('SIGKILL');
      await exited;
      const half = (
        await killed.sql.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM companies WHERE snapshot_date = '2024-06-01'`,
        )
      ).rows[0]!.n;
      assert.ok(half < 60_000, `killed half-way (${half} rows in)`);
      assert.equal(
        (await killed.sql.query(`SELECT 1 FROM companies WHERE status = 'Dissolved'`)).rowCount,
        0,
        'nothing marked dissolved by a partial load',
      );

      await loadRegister(
        { companies: createCompanyStore(killed.sql), journal: createCompanyStore(killed.sql) },
        [path],
        quiet,
      );
      await loadRegister(
        { companies: createCompanyStore(clean.sql), journal: createCompanyStore(clean.sql) },
        [path],
        quiet,
      );
      assert.equal(await dumpState(killed.sql), await dumpState(clean.sql));
      const journal = await killed.sql.query<{ status: string }>(
        `SELECT status FROM load_journal WHERE kind = 'register' ORDER BY id`,
      );
      assert.deepEqual(
        journal.rows.map((r) => r.status),
        ['done', 'interrupted', 'done'],
      );
    } finally {
      await killed.drop();
      await clean.drop();
    }
  });
});
