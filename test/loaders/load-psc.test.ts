/**
 * The PSC loader on both stores: real records, bad lines with their file and line number,
 * refusal of files that are not a PSC snapshot, complete and partial snapshots (what a complete
 * one no longer lists is kept as ceased), an older snapshot after a newer one, idempotence, the
 * journal, the command line's exit statuses, and a load killed half-way.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
import { loadPsc, PscInputError } from '../../loaders/load-psc.ts';
import type { PscLoadOptions } from '../../loaders/load-psc.ts';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { createPscStore } from '../../src/adapters/postgres/psc-store.ts';
import type { Sql } from '../../src/ports/sql.ts';
import { writePscSnapshot } from '../../src/synthetic/psc-files.ts';
import { isVerificationOverdue } from '../../src/domain/officers.ts';
import type { StoredPsc } from '../../src/domain/psc.ts';
import { pscIdentityVerification } from '../../src/ownership/psc-view.ts';
import { freshPostgres, testStores, useStore } from '../support/databases.ts';
import { watchJournal } from '../support/journal-watch.ts';
import { individualLine, statementLine, totalsLine, writeSnapshotFile } from '../support/psc-snapshot-lines.ts';
import { accountsSamplesDir, registerSamplesDir, repoRoot } from '../support/samples.ts';
import { writeZip } from '../support/zip.ts';

const execFileAsync = promisify(execFile);
const root = mkdtempSync(join(tmpdir(), 'ukcd-psc-load-'));
const quiet = { reportDir: join(root, 'reports'), log: () => undefined };
const realRecords = join(repoRoot, 'test', 'ownership', 'fixtures', 'real-psc-snapshot.jsonl');
let folders = 0;
const folder = () => {
  const dir = join(root, `f${folders++}`);
  mkdirSync(dir);
  return dir;
};
const whole = (date: string) => `persons-with-significant-control-snapshot-${date}.zip`;
const part = (date: string, i: number, of: number) => `psc-snapshot-${date}_${i}of${of}.zip`;

/** The psc table in a stable order; without update times unless asked. */
async function dumpPscs(sql: Sql, withUpdatedAt = false): Promise<string> {
  const rows = await sql.query<{ row: unknown }>(
    `SELECT to_jsonb(p) ${withUpdatedAt ? '' : `- 'updated_at'`} AS row FROM psc p ORDER BY company_number, psc_id`,
  );
  return rows.rows.map((r) => JSON.stringify(r.row)).join('\n');
}

async function pscRow(sql: Sql, companyNumber: string, pscId: string) {
  const result = await sql.query<{
    name: string | null;
    ceased: boolean;
    ceased_by_snapshot: string | null;
    snapshot_date: string;
  }>(
    `SELECT name, ceased, ceased_by_snapshot::text, snapshot_date::text FROM psc WHERE company_number = $1 AND psc_id = $2`,
    [companyNumber, pscId],
  );
  return result.rows[0] ?? null;
}

for (const kind of testStores) {
  // A store of its own: its snapshots are newer than those the other loads compare with.
  describe(`${kind.name}: identity verification in the PSC load`, () => {
    const db = useStore(kind);
    const load = (paths: string[], options: Partial<PscLoadOptions> = {}) =>
      loadPsc({ journal: db.store, pscs: createPscStore(db.sql) }, paths, { ...quiet, ...options });

    test('identity verification details load with the record, under either name, in every published shape', async () => {
      const dir = folder();
      await writePscSnapshot({ seed: 7, companies: 600, snapshotDate: '2027-01-01', outDir: dir, parts: 1 });
      const summary = await load([dir]);
      assert.equal(summary.rejected, 0);
      const stored = await db.sql.query<StoredPsc>(
        `SELECT data FROM psc WHERE kind_class = 'individual' AND NOT ceased AND snapshot_date = '2027-01-01'`,
      );
      const read = stored.rows.map((row) => pscIdentityVerification(row));
      assert.ok(read.length > 100 && read.every((v) => v !== null), 'every current individual has its block');
      assert.ok(read.some((v) => v!.identity_verified_on !== null));
      assert.ok(read.some((v) => v!.identity_verified_on === null && v!.appointment_verification_start_on !== null));
      assert.ok(read.some((v) => isVerificationOverdue(v, '2027-01-01')));
      await db.sql.query('DELETE FROM psc');

      // The block's older name, as a hand-written line of the real shape.
      const line = JSON.parse(individualLine('09145694', 'older', { forename: 'Olive', surname: 'Older' })) as {
        data: Record<string, unknown>;
      };
      line.data.verification_details = {
        appointment_verification_statement_date: '2026-09-11',
        appointment_verification_statement_due_on: '2026-09-25',
      };
      await load([await writeSnapshotFile(folder(), 'psc-older.jsonl', [JSON.stringify(line)])], {
        snapshotDate: '2026-10-01',
      });
      const older = await db.sql.query<StoredPsc>(`SELECT data FROM psc WHERE psc_id = 'older'`);
      assert.equal(pscIdentityVerification(older.rows[0]!)?.appointment_verification_statement_due_on, '2026-09-25');
      await db.sql.query('DELETE FROM psc');
    });
  });

  describe(`${kind.name}: ukcd load psc`, () => {
    const db = useStore(kind);
    const load = (paths: string[], options: Partial<PscLoadOptions> = {}) =>
      loadPsc({ journal: db.store, pscs: createPscStore(db.sql) }, paths, { ...quiet, ...options });
    // The tests share one store: a snapshot of theirs no longer lists the other tests' PSCs, far
    // more than the 2% one month's snapshot may mark ceased unless the operator names the count.
    // Counted before the load: less the records held that the snapshot lists (`listedAlready`).
    const missing = async (date: string, listedAlready = 0) => ({
      allowRemovals: (await createPscStore(db.sql).countMissing(date)).count - listedAlready,
    });

    test('real records load whole: every kind, no address or day of birth kept', async () => {
      const summary = await load([realRecords], { snapshotDate: '2024-11-22' });
      assert.deepEqual(
        [
          summary.linesRead,
          summary.pscsWritten + summary.statementsWritten,
          summary.statementsWritten,
          summary.rejected,
        ],
        [21, 20, 1, 0],
      );
      assert.equal(summary.complete, false, 'a file not named as a snapshot is taken as partial');
      assert.equal(summary.totals?.persons_of_significant_control_count, 12_799_821);
      const corporate = await db.sql.query<{ registered_company_number: string; data: Record<string, unknown> }>(
        `SELECT registered_company_number, data FROM psc WHERE company_number = '07434180'`,
      );
      assert.equal(corporate.rows[0]?.registered_company_number, '00686734');
      const individual = await db.sql.query<{ data: Record<string, unknown>; birth_year: number }>(
        `SELECT data, birth_year FROM psc WHERE company_number = '09145694'`,
      );
      assert.equal(individual.rows[0]?.birth_year, 1977);
      assert.equal(individual.rows[0]?.data.address, undefined);
      const kinds = await db.sql.query<{ kind_class: string }>(`SELECT DISTINCT kind_class FROM psc ORDER BY 1`);
      assert.deepEqual(
        kinds.rows.map((r) => r.kind_class),
        ['corporate', 'individual', 'legal_person', 'statement', 'super_secure'],
      );
      await db.sql.query('DELETE FROM psc');
    });

    test('a generated snapshot in parts loads whole and complete, as its totals line counts it', async () => {
      const dir = folder();
      const files = await writePscSnapshot({
        seed: 7,
        companies: 1500,
        snapshotDate: '2024-12-01',
        outDir: dir,
        parts: 3,
      });
      const summary = await load([dir]);
      const {
        persons_of_significant_control_count: pscs,
        statements_count: statements,
        exemptions_count: exemptions,
      } = files.counts;
      assert.deepEqual(
        [summary.complete, summary.linesRead, summary.rejected, summary.pscsWritten, summary.statementsWritten],
        [true, files.lines, 0, pscs + exemptions, statements],
      );
      assert.deepEqual(
        [summary.totals?.kind, summary.totals?.persons_of_significant_control_count],
        ['totals#persons-of-significant-control-snapshot', pscs],
      );
      const rows = await db.sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM psc WHERE snapshot_date = '2024-12-01'`,
      );
      assert.equal(rows.rows[0]!.n, pscs + statements + exemptions, 'one row a record: no two share a key');
      await db.sql.query('DELETE FROM psc');
    });

    test('bad lines are reported with their file, line number and reason; every good line loads', async () => {
      const dir = folder();
      const lines = [
        individualLine('01000001', 'a'),
        'not json at all',
        individualLine('01000002', 'b'),
        JSON.stringify({ data: { kind: 'individual-person-with-significant-control' } }),
        '',
        individualLine('01000003', 'c'),
        '{"company_number":"01000004","data":{"kind":"individual-person-with',
        statementLine('01000004', 's'),
        totalsLine(3, 1),
      ];
      const path = await writeSnapshotFile(dir, part('2025-01-01', 1, 2), lines);
      const summary = await load([path], { batchSize: 2 });
      assert.deepEqual(
        [summary.linesRead, summary.pscsWritten, summary.statementsWritten, summary.rejected],
        [8, 3, 1, 3],
      );
      const report = readFileSync(summary.rejectReport!, 'utf8').trim().split('\n');
      const member = `${path}!psc-snapshot-2025-01-01_1of2.txt`;
      assert.equal(report.length, 3);
      assert.match(report[0]!, new RegExp(`^${escape(member)} line 2: .*JSON`));
      assert.match(report[1]!, new RegExp(`^${escape(member)} line 4: .*company`));
      assert.match(report[2]!, new RegExp(`^${escape(member)} line 7: .*JSON`));
      const loaded = await db.sql.query<{ company_number: string }>(
        `SELECT company_number FROM psc WHERE snapshot_date = '2025-01-01' ORDER BY 1`,
      );
      assert.deepEqual(
        loaded.rows.map((r) => r.company_number),
        ['01000001', '01000002', '01000003', '01000004'],
      );
      assert.equal(summary.complete, false, 'one part of two');
      assert.match(summary.partialBecause!, /part\(s\) 2 of 2 not given/);
    });

    test('a PSC listed more than once keeps its last copy, whatever batch and writer took each', async () => {
      const dir = folder();
      const lines = [];
      for (let copy = 1; copy <= 4; copy++) {
        for (let i = 0; i < 50; i++)
          lines.push(individualLine(`0800${String(i).padStart(4, '0')}`, 'p', { surname: `Copy${copy}` }));
      }
      const path = await writeSnapshotFile(dir, 'repeats.jsonl', lines);
      const summary = await load([path], { snapshotDate: '2025-01-15', batchSize: 7, writers: 3 });
      assert.equal(summary.pscsWritten, 200);
      const names = await db.sql.query<{ name: string; n: number }>(
        `SELECT name, count(*)::int AS n FROM psc WHERE company_number LIKE '0800%' GROUP BY name`,
      );
      assert.deepEqual(names.rows, [{ name: 'Ms Ada Copy4', n: 50 }]);
    });

    test('files that are not a PSC snapshot are refused, and nothing is written', async () => {
      const before = await dumpPscs(db.sql);
      const journalBefore = (await db.sql.query(`SELECT 1 FROM load_journal WHERE kind = 'psc'`)).rowCount;
      const dir = folder();
      const csvInZip = join(dir, whole('2025-02-01'));
      await writeZip(csvInZip, { 'psc.txt': readFileSync(join(registerSamplesDir, 'basic-sample.csv')) });
      const notAZip = join(dir, part('2025-02-01', 1, 1));
      await writeSnapshotFile(dir, 'x.txt', [individualLine('01000009', 'z')]);
      await import('node:fs/promises').then((fs) => fs.copyFile(join(dir, 'x.txt'), notAZip));
      const cases: [string[], RegExp][] = [
        [[csvInZip], /is not a PSC snapshot: its first line is not JSON/],
        [[join(accountsSamplesDir, 'Prod224_0042_02771600_20160930.xml')], /not a PSC snapshot|snapshot date/],
        [[notAZip], /psc-snapshot-2025-02-01_1of1\.zip: /],
        [[await writeSnapshotFile(dir, 'empty.jsonl', [])], /is not a PSC snapshot: it is empty/],
        [[await writeSnapshotFile(dir, 'array.json', ['[{"data":{}}]'])], /its first line is not a JSON object/],
        // A good first file does not let a bad second one through.
        [[await writeSnapshotFile(dir, 'good.txt', [individualLine('01000010', 'g')]), csvInZip], /not a PSC snapshot/],
      ];
      for (const [paths, message] of cases) {
        await assert.rejects(
          load(paths, { snapshotDate: '2025-02-01' }),
          (error: Error) => error instanceof PscInputError && message.test(error.message),
          paths.join(', '),
        );
      }
      await assert.rejects(load([join(dir, 'good.txt')]), /pass --snapshot-date/);
      assert.equal(await dumpPscs(db.sql), before);
      assert.equal((await db.sql.query(`SELECT 1 FROM load_journal WHERE kind = 'psc'`)).rowCount, journalBefore);
    });

    test('a complete snapshot keeps what it no longer lists as ceased; a partial one ceases nothing', async () => {
      const first = folder();
      await writeSnapshotFile(first, whole('2025-03-01'), [
        individualLine('02000001', 'keep'),
        individualLine('02000001', 'gone'),
        statementLine('02000002', 'st'),
        individualLine('02000003', 'later'),
        totalsLine(3, 1),
      ]);
      const one = await load([first], await missing('2025-03-01'));
      assert.equal(one.complete, true);

      const second = folder();
      await writeSnapshotFile(second, part('2025-03-02', 1, 2), [individualLine('02000001', 'keep')]);
      await writeSnapshotFile(second, part('2025-03-02', 2, 2), [individualLine('02000003', 'later'), totalsLine(2)]);
      const two = await load([second], await missing('2025-03-02', 2));
      assert.deepEqual([two.complete, two.markedCeased >= 2], [true, true]);
      assert.deepEqual(await pscRow(db.sql, '02000001', 'gone'), {
        name: 'Ms Ada Persongone',
        ceased: true,
        ceased_by_snapshot: '2025-03-02',
        snapshot_date: '2025-03-01',
      });
      assert.equal((await pscRow(db.sql, '02000002', 'st'))?.ceased_by_snapshot, '2025-03-02');
      assert.equal((await pscRow(db.sql, '02000001', 'keep'))?.ceased, false);

      // Part 2 of 2 missing: 02000003 is not listed, and must not be ceased for it.
      const third = folder();
      const partial = await load([
        await writeSnapshotFile(third, part('2025-03-03', 1, 2), [individualLine('02000001', 'keep')]),
      ]);
      assert.deepEqual([partial.complete, partial.markedCeased], [false, 0]);
      assert.equal((await pscRow(db.sql, '02000003', 'later'))?.ceased, false);

      // A PSC kept as ceased that is listed again is current again.
      const fourth = folder();
      await writeSnapshotFile(fourth, whole('2025-03-04'), [
        individualLine('02000001', 'keep'),
        individualLine('02000001', 'gone'),
        individualLine('02000003', 'later'),
        totalsLine(3),
      ]);
      const back = await load([fourth], await missing('2025-03-04', 2));
      assert.equal(back.markedCeased, 0, 'the statement, still missing, is ceased already');
      assert.deepEqual(
        [
          (await pscRow(db.sql, '02000001', 'gone'))?.ceased,
          (await pscRow(db.sql, '02000001', 'gone'))?.ceased_by_snapshot,
        ],
        [false, null],
      );
    });

    test('without its closing totals line a snapshot is taken as partial, unless --complete says otherwise', async () => {
      const dir = folder();
      const cut = await writeSnapshotFile(dir, whole('2025-04-01'), [individualLine('03000001', 'a')]);
      const summary = await load([cut]);
      assert.equal(summary.complete, false);
      assert.match(summary.partialBecause!, /no closing totals line/);
      const forced = await load([cut], { complete: true, ...(await missing('2025-04-01')) });
      assert.deepEqual([forced.complete, forced.partialBecause], [true, null]);
      const unnamed = await writeSnapshotFile(dir, 'some.jsonl', [individualLine('03000001', 'a'), totalsLine(1)]);
      assert.equal((await load([unnamed], { snapshotDate: '2025-04-02' })).complete, false);
      assert.equal(
        (await load([unnamed], { snapshotDate: '2025-04-02', complete: true, ...(await missing('2025-04-02')) }))
          .complete,
        true,
      );
      const refused = await load([await writeSnapshotFile(dir, whole('2025-04-03'), [totalsLine(0)])], {
        complete: false,
      });
      assert.deepEqual([refused.complete, refused.markedCeased], [false, 0]);
    });

    test('an older snapshot loaded after a newer one changes nothing the newer one said', async () => {
      const newer = folder();
      const older = folder();
      await writeSnapshotFile(newer, whole('2025-05-02'), [
        individualLine('04000001', 'p', { surname: 'Newer' }),
        totalsLine(1),
      ]);
      await writeSnapshotFile(older, whole('2025-05-01'), [
        individualLine('04000001', 'p', { surname: 'Older' }),
        totalsLine(1),
      ]);
      await load([newer]);
      const row = `SELECT to_jsonb(p) AS row FROM psc p WHERE company_number = '04000001'`;
      const before = (await db.sql.query(row)).rows;
      await load([older]);
      assert.deepEqual(await pscRow(db.sql, '04000001', 'p'), {
        name: 'Ms Ada Newer',
        ceased: false,
        ceased_by_snapshot: null,
        snapshot_date: '2025-05-02',
      });
      assert.deepEqual((await db.sql.query(row)).rows, before, 'not even its update time');
    });

    test('loading the same snapshot twice changes nothing, not even an update time; the journal says what was loaded', async () => {
      const dir = folder();
      const lines = Array.from({ length: 300 }, (_, i) => individualLine(`05${String(i).padStart(6, '0')}`, 'x'));
      await writeSnapshotFile(dir, part('2025-06-01', 1, 1), [...lines, totalsLine(300)]);
      const first = await load([dir], { batchSize: 50, ...(await missing('2025-06-01')) });
      const state = await dumpPscs(db.sql, true);
      const again = await load([dir], { batchSize: 50 });
      assert.deepEqual([again.pscsWritten, again.markedCeased], [first.pscsWritten, 0]);
      assert.equal(await dumpPscs(db.sql, true), state);
      const journal = await db.sql.query<{ status: string; rows_read: number; rows_written: number; detail: unknown }>(
        `SELECT status, rows_read, rows_written, detail FROM load_journal WHERE kind = 'psc' ORDER BY id DESC LIMIT 1`,
      );
      assert.equal(journal.rows[0]?.status, 'done');
      assert.deepEqual([journal.rows[0]?.rows_read, journal.rows[0]?.rows_written], [301, 300]);
      assert.deepEqual(
        Object.entries(journal.rows[0]?.detail as Record<string, unknown>)
          .filter(([key]) => ['snapshotDate', 'complete', 'markedCeased'].includes(key))
          .sort(),
        [
          ['complete', true],
          ['markedCeased', 0],
          ['snapshotDate', '2025-06-01'],
        ],
      );
      assert.equal(await db.store.loadedThrough('psc'), '2025-06-01');
    });

    test('while it runs, its counts so far reach the journal', async () => {
      const dir = folder();
      const lines = Array.from({ length: 8000 }, (_, i) => individualLine(`06${String(i).padStart(6, '0')}`, 'x'));
      const path = await writeSnapshotFile(dir, 'progress.jsonl', lines);
      const watch = watchJournal(db.store, 'psc');
      const summary = await load([path], { snapshotDate: '2025-07-01', batchSize: 100, progressIntervalMs: 5 }).finally(
        () => watch.stop(),
      );
      assert.equal(summary.pscsWritten, 8000);
      const seen = await watch.stop();
      assert.ok(
        seen.some((entry) => entry.rows_read > 0),
        `counts were reported while running: ${JSON.stringify(seen.slice(-3))}`,
      );
      for (const entry of seen) assert.ok(entry.rows_written <= entry.rows_read && entry.rows_read <= 8000);
    });
  });
}

describe('ukcd load psc from the command line', () => {
  test('exit 0 loaded, 1 lines rejected (with the report named), 2 not a PSC snapshot', async () => {
    const dataDir = mkdtempSync(join(root, 'cli-'));
    const dir = folder();
    const run = async (...args: string[]) => {
      try {
        const { stderr } = await execFileAsync(
          process.execPath,
          [join(repoRoot, 'bin/ukcd.mjs'), 'load', 'psc', ...args],
          {
            env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ELASTICSEARCH_URL: '' },
            timeout: 120_000,
          },
        );
        return { status: 0, stderr };
      } catch (error) {
        const failed = error as { code?: number; stderr?: string };
        return { status: failed.code ?? -1, stderr: failed.stderr ?? String(error) };
      }
    };
    const good = await writeSnapshotFile(dir, whole('2025-08-01'), [individualLine('07000001', 'a'), totalsLine(1)]);
    const ok = await run(good, '--no-index');
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(
      ok.stderr,
      /PSC snapshot 2025-08-01 \(complete\): 2 lines read, 1 PSCs and 0 statements written, 0 rejected, 0 no longer listed marked ceased in .* \(\d+ lines\/s\)/,
    );

    const bad = await writeSnapshotFile(dir, part('2025-08-02', 1, 1), [
      individualLine('07000001', 'a'),
      '{oops',
      totalsLine(1),
    ]);
    const rejected = await run(bad, '--no-index');
    assert.equal(rejected.status, 1, rejected.stderr);
    assert.match(rejected.stderr, /1 rejected.*rejected lines: .*psc-2025-08-02-rejected\.txt/);

    const wrong = await run(join(registerSamplesDir, 'basic-sample.csv'), '--snapshot-date', '2025-08-03');
    assert.equal(wrong.status, 2, wrong.stderr);
    assert.match(wrong.stderr, /refused: .*basic-sample\.csv is not a PSC snapshot: its first line is not JSON/);

    const usage = await run(good, '--snapshot-date', '2025-02-30');
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /--snapshot-date must be a date/);
  });
});

describe('ukcd load psc killed with SIGKILL half-way, then run again', () => {
  test('ends in the same state as one clean run (real Postgres)', async () => {
    const older = folder();
    const newer = folder();
    // An earlier snapshot listing PSCs the new one drops, so that the end of the load has work.
    await writeSnapshotFile(older, whole('2025-09-01'), [
      ...Array.from({ length: 200 }, (_, i) => individualLine(`08${String(i).padStart(6, '0')}`, 'old')),
      totalsLine(200),
    ]);
    const lines = Array.from({ length: 80_000 }, (_, i) =>
      i % 10 === 9
        ? statementLine(`09${String(i).padStart(6, '0')}`, 's')
        : individualLine(`09${String(i).padStart(6, '0')}`, 'p'),
    );
    await writeSnapshotFile(newer, part('2025-09-02', 1, 2), lines.slice(0, 40_000));
    await writeSnapshotFile(newer, part('2025-09-02', 2, 2), [...lines.slice(40_000), totalsLine(72_000, 8_000)]);
    const killed = await freshPostgres();
    const clean = await freshPostgres();
    const stores = (sql: Sql) => ({ journal: createCompanyStore(sql), pscs: createPscStore(sql) });
    try {
      for (const db of [killed, clean]) await loadPsc(stores(db.sql), [older], quiet);

      const child = spawn(process.execPath, [join(repoRoot, 'bin', 'ukcd.mjs'), 'load', 'psc', '--no-index', newer], {
        env: { ...process.env, DATABASE_URL: killed.url, DATA_DIR: join(root, 'data-killed') },
        stdio: 'ignore',
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const loaded = async () =>
        (await killed.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM psc WHERE snapshot_date = '2025-09-02'`))
          .rows[0]!.n;
      for (let waited = 0; ; waited += 50) {
        if ((await loaded()) >= 5000) break;
        if (waited > 120_000) assert.fail('the load never got going');
        await new Promise((r) => setTimeout(r, 50));
      }
      child.kill('SIGKILL');
      await exited;
      const half = await loaded();
      assert.ok(half < 80_000, `killed half-way (${half} lines in)`);
      assert.equal(
        (await killed.sql.query(`SELECT 1 FROM psc WHERE ceased_by_snapshot IS NOT NULL`)).rowCount,
        0,
        'nothing marked ceased by a load that did not finish',
      );

      const resumed = await loadPsc(stores(killed.sql), [newer], quiet);
      const once = await loadPsc(stores(clean.sql), [newer], quiet);
      assert.deepEqual([resumed.complete, resumed.markedCeased], [true, 200]);
      assert.equal(once.markedCeased, 200);
      assert.equal(await dumpPscs(killed.sql), await dumpPscs(clean.sql));
      const journal = await killed.sql.query<{ status: string }>(
        `SELECT status FROM load_journal WHERE kind = 'psc' ORDER BY id`,
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

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
