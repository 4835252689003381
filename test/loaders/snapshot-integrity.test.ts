/**
 * A damaged or partial register snapshot never changes what it must not: each damage (a snapshot
 * cut short but named as complete, a missing part, an altered zip member, a truncated zip, a bad
 * line mid-file, a Latin-1 file, an oversized field, too many removals for one month) leaves the
 * companies the file does not list as they were, marks nothing removed, and says why; loading
 * the intact file afterwards ends exactly as one clean load. On both stores, with rows built
 * from the real sample and snapshots from the project's generator.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import yazl from 'yazl';
import { openZipFile } from '../../loaders/zip-reader.ts';
import { loadRegister } from '../../loaders/load-register.ts';
import { SnapshotInputError } from '../../loaders/skeleton/snapshot-inputs.ts';
import type { RegisterLoadOptions } from '../../loaders/load-register.ts';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import type { Sql } from '../../src/ports/sql.ts';
import { writeRegisterSnapshot } from '../../src/synthetic/register-files.ts';
import { dumpState, testStores } from '../support/databases.ts';
import type { TestStore } from '../support/databases.ts';
import { columnOf, registerRows, writeRegisterCsv } from '../support/register-csv.ts';
import { repoRoot } from '../support/samples.ts';

const dir = mkdtempSync(join(tmpdir(), 'ukcd-integrity-'));
const quiet = { reportDir: join(dir, 'reports'), log: () => undefined };

/** The previous state: 200 companies of 2021-08-01; the next snapshot lists 199 of them (0.5% removed). */
const BEFORE = 'BasicCompanyDataAsOneFile-2021-08-01.csv';
const AFTER = 'BasicCompanyDataAsOneFile-2021-09-01.csv';
const previousRows = registerRows(200, 1);
const nextRows = registerRows(199, 1, (row) => (row[columnOf('CompanyStatus')] = 'Active - Proposal to Strike off'));

function folder(name: string): string {
  const path = join(dir, name);
  mkdirSync(path, { recursive: true });
  return path;
}

function csvText(rows: readonly (readonly string[])[]): string {
  const path = join(folder('scratch'), 'rows.csv');
  writeRegisterCsv(path, rows);
  return readFileSync(path, 'utf8');
}

/** The next snapshot, intact, as `AFTER` in a folder of its own. */
function intactNext(name: string): string {
  const path = join(folder(name), AFTER);
  writeRegisterCsv(path, nextRows);
  return path;
}

async function withStore<T>(kind: TestStore, run: (sql: Sql) => Promise<T>): Promise<T> {
  const opened = await kind.open();
  try {
    return await run(opened.sql);
  } finally {
    await opened.close();
  }
}

function load(sql: Sql, paths: string[], options: Partial<RegisterLoadOptions> = {}) {
  const store = createCompanyStore(sql);
  return loadRegister({ companies: store, journal: store }, paths, { ...quiet, ...options });
}

/** Companies outside `listed` (the ones a damaged file must not touch), as rows. */
async function untouched(sql: Sql, listed: (number: string) => boolean): Promise<string[]> {
  const result = await sql.query<{ company_number: string; row: unknown }>(
    `SELECT company_number, to_jsonb(c) - 'updated_at' AS row FROM companies c ORDER BY company_number`,
  );
  return result.rows.filter((r) => !listed(r.company_number)).map((r) => JSON.stringify(r.row));
}

const numberOf = (i: number) => String(i).padStart(8, '0');

for (const kind of testStores) {
  describe(`${kind.name}: a damaged snapshot changes nothing it must not`, () => {
    const previous = join(folder('previous'), BEFORE);
    writeRegisterCsv(previous, previousRows);
    let clean = '';

    test('the clean run: the previous snapshot, then the next one whole (one company removed)', async () => {
      clean = await withStore(kind, async (sql) => {
        await load(sql, [previous]);
        const summary = await load(sql, [intactNext(`clean-${kind.name}`)]);
        assert.equal(summary.complete, true);
        assert.equal(summary.markedDissolved, 1);
        return dumpState(sql);
      });
    });

    /** Load the previous state, the damage, then the intact file: the state ends as the clean run's. */
    async function damaged(
      name: string,
      paths: string[],
      check: (outcome: Awaited<ReturnType<typeof load>> | Error, sql: Sql, before: string[]) => Promise<void>,
      listed: (number: string) => boolean = () => false,
    ) {
      await withStore(kind, async (sql) => {
        await load(sql, [previous]);
        const before = await untouched(sql, listed);
        const outcome = await load(sql, paths).catch((error: Error) => error);
        await check(outcome, sql, before);
        assert.deepEqual(await untouched(sql, listed), before, `${name}: what the file does not list is unchanged`);
        const { rows } = await sql.query(`SELECT 1 FROM companies WHERE removed_from_register IS NOT NULL`);
        assert.equal(rows.length, 0, `${name}: nothing marked removed`);
        await load(sql, [intactNext(`${name}-intact-${kind.name}`)]);
        assert.equal(await dumpState(sql), clean, `${name}: the intact file then ends as one clean load`);
      });
    }

    test('a snapshot cut part-way through a row, named as complete: partial, nothing removed', async () => {
      const text = csvText(nextRows.slice(0, 33));
      const path = join(folder(`cut-${kind.name}`), AFTER);
      writeFileSync(path, text.slice(0, text.length - 200));
      await damaged(
        'cut',
        [path],
        async (outcome) => {
          assert.ok(!(outcome instanceof Error), String(outcome));
          assert.equal(outcome.complete, false);
          assert.equal(outcome.namedComplete, true);
          assert.equal(outcome.markedDissolved, 0);
          assert.match(outcome.partialBecause ?? '', /1 row rejected/);
        },
        (n) => n <= numberOf(32),
      );
    });

    test('a bad line mid-file: that row is rejected, the rest loads, nothing removed', async () => {
      const rows = nextRows.map((row, i) => {
        if (i !== 99) return row;
        const bad = [...row];
        bad[columnOf('IncorporationDate')] = '31/13/2020';
        return bad;
      });
      const path = join(folder(`bad-line-${kind.name}`), AFTER);
      writeRegisterCsv(path, rows);
      await damaged(
        'bad line',
        [path],
        async (outcome, sql) => {
          assert.ok(!(outcome instanceof Error), String(outcome));
          assert.deepEqual([outcome.complete, outcome.rejected, outcome.markedDissolved], [false, 1, 0]);
          assert.match(outcome.partialBecause ?? '', /1 row rejected/);
          const journal = await sql.query<{ detail: { partialBecause?: string } }>(
            `SELECT detail FROM load_journal WHERE kind = 'register' ORDER BY id DESC LIMIT 1`,
          );
          assert.match(journal.rows[0]!.detail.partialBecause ?? '', /1 row rejected/);
        },
        (n) => n <= numberOf(199) && n !== numberOf(100),
      );
    });

    test('Latin-1 text: refused at its line with what to do, no replacement characters stored', async () => {
      const rows = nextRows.map((row, i) => {
        if (i !== 49) return row;
        const bad = [...row];
        bad[columnOf('CompanyName')] = 'CAFÉ LIMITED';
        return bad;
      });
      const path = join(folder(`latin1-${kind.name}`), AFTER);
      writeFileSync(path, csvText(rows), 'latin1');
      await damaged(
        'latin-1',
        [path],
        async (outcome, sql) => {
          assert.ok(!(outcome instanceof Error), String(outcome));
          assert.equal(outcome.complete, false);
          const report = readFileSync(outcome.rejectReport!, 'utf8');
          assert.match(report, /line 51: .*not UTF-8.*convert/);
          const { rows: replaced } = await sql.query(`SELECT 1 FROM companies WHERE name LIKE '%\uFFFD%'`);
          assert.equal(replaced.length, 0);
        },
        (n) => n <= numberOf(49),
      );
    });

    test('an oversized field: rejected with its line number, the rest loads, nothing removed', async () => {
      const rows = nextRows.map((row, i) => {
        if (i !== 59) return row;
        const bad = [...row];
        bad[columnOf('CompanyName')] = 'X'.repeat(3 * 1024 * 1024);
        return bad;
      });
      const path = join(folder(`oversized-${kind.name}`), AFTER);
      writeRegisterCsv(path, rows);
      await damaged(
        'oversized',
        [path],
        async (outcome, sql) => {
          assert.ok(!(outcome instanceof Error), String(outcome));
          assert.deepEqual([outcome.complete, outcome.rejected, outcome.rowsWritten], [false, 1, 198]);
          assert.match(readFileSync(outcome.rejectReport!, 'utf8'), /line 61: .*longer than/);
          const { rows: after } = await sql.query(`SELECT 1 FROM companies WHERE company_number = '00000199'`);
          assert.equal(after.length, 1);
        },
        (n) => n <= numberOf(199) && n !== numberOf(60),
      );
    });

    test('more removals than the bound allows: partial until --allow-removals names the count', async () => {
      await withStore(kind, async (sql) => {
        await load(sql, [previous]);
        const path = join(folder(`removals-${kind.name}`), AFTER);
        writeRegisterCsv(path, nextRows.slice(0, 190));
        const held = await dumpState(sql);
        const refused = await load(sql, [path], { allowRemovals: 9 });
        assert.deepEqual([refused.complete, refused.markedDissolved], [false, 0]);
        assert.match(refused.partialBecause ?? '', /10 companies.*--allow-removals 10/);
        assert.match(refused.partialBecause ?? '', /--allow-removals 9 was given/);
        const bounded = await load(sql, [path]);
        assert.deepEqual([bounded.complete, bounded.markedDissolved], [false, 0]);
        assert.match(bounded.partialBecause ?? '', /would mark 10 of the 200 companies held \(5\.0%\)/);
        assert.notEqual(await dumpState(sql), held, 'the rows it lists are applied');
        const allowed = await load(sql, [path], { allowRemovals: 10 });
        assert.deepEqual([allowed.complete, allowed.markedDissolved], [true, 10]);
      });
    });

    describe('zips from the generator', () => {
      const zips = folder(`zips-${kind.name}`);
      const snapshot = (date: string, parts: number) =>
        writeRegisterSnapshot({
          seed: 7,
          companies: 300,
          snapshotDate: date,
          outDir: join(zips, `${date}-${parts}`),
          parts,
        });
      let reference = '';

      async function zipCase(name: string, damage: (files: string[]) => string[] | Promise<string[]>, expect: RegExp) {
        const first = await snapshot('2024-05-01', 3);
        const next = await snapshot('2024-06-01', 3);
        await withStore(kind, async (sql) => {
          await load(sql, first.files);
          const before = await dumpState(sql);
          const error = await load(sql, await damage(next.files)).then(
            (summary) => summary,
            (thrown: Error) => thrown,
          );
          if (error instanceof Error) {
            assert.ok(error instanceof SnapshotInputError, `${name}: a refusal, not ${error.stack}`);
            assert.match(error.message, expect);
          } else {
            assert.equal(error.complete, false, `${name}: partial`);
            assert.match(error.partialBecause ?? '', expect);
          }
          if (error instanceof Error) assert.equal(await dumpState(sql), before, `${name}: nothing written`);
          const { rows } = await sql.query(`SELECT 1 FROM companies WHERE removed_from_register IS NOT NULL`);
          assert.equal(rows.length, 0, `${name}: nothing marked removed`);
          await load(sql, next.files);
          if (!reference) {
            reference = await withStore(kind, async (fresh) => {
              await load(fresh, first.files);
              await load(fresh, next.files);
              return dumpState(fresh);
            });
          }
          assert.equal(await dumpState(sql), reference, `${name}: the intact files then end as one clean load`);
        });
      }

      test('a missing part: partial, nothing removed', async () => {
        await zipCase('missing part', (files) => [files[0]!, files[2]!], /part 2 of 3 is missing/);
      });

      test('an altered member (bad CRC-32): refused, naming the zip and member, nothing written', async () => {
        await zipCase(
          'altered member',
          async (files) => {
            const altered = join(folder(`altered-${kind.name}`), 'BasicCompanyData-2024-06-01-part2_3.zip');
            writeFileSync(altered, await alterStored(files[1]!));
            return [files[0]!, altered, files[2]!];
          },
          /part2_3\.zip!BasicCompanyData-2024-06-01-part2_3\.csv fails its CRC-32 check.*download it again/,
        );
      });

      test('a truncated zip: refused with a message, never a stack trace', async () => {
        await zipCase(
          'truncated',
          (files) => {
            const cut = join(folder(`truncated-${kind.name}`), 'BasicCompanyData-2024-06-01-part3_3.zip');
            const bytes = readFileSync(files[2]!);
            writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
            return [files[0]!, files[1]!, cut];
          },
          /part3_3\.zip is not a readable zip.*download it again/,
        );
      });
    });
  });
}

/**
 * The zip's CSV stored uncompressed, then one byte of its data changed in place: the central
 * directory still records the size and CRC-32 of the original ("T TANGO" becomes "T MANGO").
 */
async function alterStored(path: string): Promise<Buffer> {
  const zip = await openZipFile(path);
  let name = '';
  let csv: Buffer = Buffer.alloc(0);
  for await (const member of zip.members()) [name, csv] = [member.name, await member.read()];
  zip.close();
  const stored = new yazl.ZipFile();
  stored.addBuffer(csv, name, { compress: false });
  stored.end();
  const chunks: Buffer[] = [];
  for await (const chunk of stored.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  const bytes = Buffer.concat(chunks);
  const at = bytes.indexOf(csv.subarray(csv.length - 400)) + 100;
  bytes[at] = bytes[at] === 0x41 ? 0x42 : 0x41;
  return bytes;
}

describe('ukcd load register from the command line: no stack trace for bad input', () => {
  test('a cut snapshot named as complete exits non-zero, saying why, before any removal', async () => {
    const data = folder('cli-data');
    const previous = join(folder('cli-previous'), BEFORE);
    writeRegisterCsv(previous, previousRows);
    assert.equal((await ukcd(['load', 'register', previous, '--no-index'], data)).code, 0);
    const text = csvText(nextRows.slice(0, 33));
    const cut = join(folder('cli-cut'), AFTER);
    writeFileSync(cut, text.slice(0, text.length - 200));
    const run = await ukcd(['load', 'register', cut, '--no-index'], data);
    assert.equal(run.code, 1, run.stderr);
    assert.doesNotMatch(run.stderr, /\n\s+at /);
    assert.match(run.stderr, /partial: .*1 row rejected.*no company marked removed/);
    assert.match(run.stderr, new RegExp(`${AFTER} is named as the whole register but was not read whole`));
  });

  test('--allow-removals through the command line: refused unless it names the exact count', async () => {
    const data = folder('cli-data-removals');
    const previous = join(folder('cli-removals-previous'), BEFORE);
    writeRegisterCsv(previous, previousRows);
    assert.equal((await ukcd(['load', 'register', previous, '--no-index'], data)).code, 0);
    const next = join(folder('cli-removals-next'), AFTER);
    writeRegisterCsv(next, nextRows.slice(0, 190));
    const bounded = await ukcd(['load', 'register', next, '--no-index'], data);
    assert.equal(bounded.code, 1, bounded.stderr);
    assert.match(bounded.stderr, /would mark 10 of the 200 companies held \(5\.0%\).*--allow-removals 10/);
    const wrongCount = await ukcd(['load', 'register', next, '--no-index', '--allow-removals', '9'], data);
    assert.equal(wrongCount.code, 1, wrongCount.stderr);
    assert.match(wrongCount.stderr, /--allow-removals 9 was given but the snapshot would mark 10 companies/);
    const notANumber = await ukcd(['load', 'register', next, '--no-index', '--allow-removals', 'ten'], data);
    assert.equal(notANumber.code, 2, notANumber.stderr);
    assert.match(notANumber.stderr, /--allow-removals must be the number of companies \(or PSCs\).*got "ten"/);
    const allowed = await ukcd(['load', 'register', next, '--no-index', '--allow-removals', '10'], data);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(
      allowed.stderr,
      /\(complete\): 190 of 190 rows loaded.*10 companies no longer listed marked dissolved/,
    );
    for (const run of [bounded, wrongCount, notANumber, allowed]) assert.doesNotMatch(run.stderr, /\n\s+at /);
  });

  test('a truncated zip is refused with the file and what to do, exit 2', async () => {
    const data = folder('cli-data-zip');
    const zips = folder('cli-zip');
    const { files } = await writeRegisterSnapshot({ seed: 3, companies: 50, snapshotDate: '2024-06-01', outDir: zips });
    const bytes = readFileSync(files[0]!);
    writeFileSync(files[0]!, bytes.subarray(0, bytes.length - 30));
    const run = await ukcd(['load', 'register', files[0]!, '--no-index'], data);
    assert.equal(run.code, 2, run.stderr);
    assert.doesNotMatch(run.stderr, /\n\s+at /);
    assert.match(
      run.stderr,
      /refused: .*BasicCompanyDataAsOneFile-2024-06-01\.zip is not a readable zip.*download it again/,
    );
  });
});

function ukcd(args: string[], dataDir: string): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [join(repoRoot, 'bin', 'ukcd.mjs'), ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr, stdout })));
}
