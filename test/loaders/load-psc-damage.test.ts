/**
 * A damaged or partial PSC snapshot never ceases what it failed to read, on both stores: lines
 * missing, a bad line mid-file, a totals line that does not count what was read, and the real
 * 19-line extract named as the whole register each apply their rows, mark nothing ceased and
 * leave every row they do not list as it was; the intact snapshot loaded next ends exactly as one
 * clean load would. The snapshots are generated in the real format (src/synthetic/psc-*), the
 * extract is the real sample.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
import { loadPsc } from '../../loaders/load-psc.ts';
import type { PscLoadOptions } from '../../loaders/load-psc.ts';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { createPscStore } from '../../src/adapters/postgres/psc-store.ts';
import { parsePscLine } from '../../src/ownership/psc-line.ts';
import type { Sql } from '../../src/ports/sql.ts';
import { writePscSnapshot } from '../../src/synthetic/psc-files.ts';
import { testStores, useStore } from '../support/databases.ts';
import { repoRoot, samplesDir } from '../support/samples.ts';

const execFileAsync = promisify(execFile);
const root = mkdtempSync(join(tmpdir(), 'ukcd-psc-damage-'));
const quiet = { reportDir: join(root, 'reports'), log: () => undefined };
const realExtract = join(samplesDir, 'psc', 'persons-with-significant-control-snapshot-2024-11-22.txt');
let folders = 0;
const folder = () => {
  const dir = join(root, `f${folders++}`);
  mkdirSync(dir);
  return dir;
};

const BEFORE = '2023-01-01';
const AFTER = '2024-06-01';
const COMPANIES = 400;

/** Every psc row by its key, whole (update time included). */
async function pscRows(sql: Sql): Promise<Map<string, string>> {
  const rows = await sql.query<{ key: string; row: unknown }>(
    `SELECT company_number || '/' || psc_id AS key, to_jsonb(p) AS row FROM psc p ORDER BY 1`,
  );
  return new Map(rows.rows.map((r) => [r.key, JSON.stringify(r.row)]));
}

/** The psc table in a stable order, without update times: what two stores can be compared by. */
async function dumpPscs(sql: Sql): Promise<string> {
  const rows = await sql.query<{ row: unknown }>(
    `SELECT to_jsonb(p) - 'updated_at' AS row FROM psc p ORDER BY company_number, psc_id`,
  );
  return rows.rows.map((r) => JSON.stringify(r.row)).join('\n');
}

/** The keys of the PSCs these lines list (lines that do not parse list none). */
function keysListed(lines: readonly string[]): Set<string> {
  const keys = new Set<string>();
  for (const line of lines) {
    const parsed = parsePscLine(line);
    if (parsed.type === 'psc') keys.add(`${parsed.record.company_number}/${parsed.record.psc_id}`);
  }
  return keys;
}

/** The generated snapshot of `date` in two unzipped parts, as its lines per part. */
async function generated(date: string): Promise<{ dir: string; parts: string[][]; names: string[] }> {
  const dir = folder();
  const files = await writePscSnapshot({
    seed: 11,
    companies: COMPANIES,
    snapshotDate: date,
    outDir: dir,
    parts: 2,
    zip: false,
  });
  const parts = files.files.map((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line !== ''),
  );
  return { dir, parts, names: files.files.map((file) => file.slice(dir.length + 1)) };
}

/** The parts, changed by `damage`, written under their own names in a new folder. */
function damagedCopy(
  snapshot: { parts: string[][]; names: string[] },
  damage: (parts: string[][]) => void,
): {
  dir: string;
  lines: string[];
} {
  const parts = snapshot.parts.map((lines) => [...lines]);
  damage(parts);
  const dir = folder();
  parts.forEach((lines, i) => writeFileSync(join(dir, snapshot.names[i]!), lines.map((l) => `${l}\n`).join('')));
  return { dir, lines: parts.flat() };
}

for (const kind of testStores) {
  describe(`${kind.name}: a damaged PSC snapshot ceases nothing`, () => {
    const db = useStore(kind);
    const load = (paths: string[], options: Partial<PscLoadOptions> = {}) =>
      loadPsc({ journal: db.store, pscs: createPscStore(db.sql) }, paths, { ...quiet, ...options });

    test('lines missing, a bad line mid-file, totals not met: rows applied, nothing ceased; then the intact file loads as one clean load', async () => {
      const before = await generated(BEFORE);
      const after = await generated(AFTER);
      // The clean run, on a store of its own: the earlier snapshot, then the intact later one.
      const clean = await kind.open();
      try {
        const cleanLoad = (dir: string) =>
          loadPsc({ journal: createCompanyStore(clean.sql), pscs: createPscStore(clean.sql) }, [dir], quiet);
        await cleanLoad(before.dir);
        const once = await cleanLoad(after.dir);
        assert.equal(once.complete, true, String(once.partialBecause));
        assert.ok(
          once.markedCeased > 0,
          'the later snapshot no longer lists some PSCs: the test has something to lose',
        );

        assert.equal((await load([before.dir])).complete, true);
        const [part1, part2] = after.parts;
        const middle = (lines: string[]) => Math.floor(lines.length / 2);
        // A PSC of both snapshots, whose line in the later one is broken.
        const earlier = await pscRows(db.sql);
        const brokenAt = part2!.findIndex(
          (line, i) => i >= middle(part2!) && earlier.has([...keysListed([line])][0] ?? ''),
        );
        assert.ok(brokenAt > 0);
        const brokenKey = [...keysListed([part2![brokenAt]!])][0]!;
        const damages: { name: string; damage: (parts: string[][]) => void; why: RegExp }[] = [
          {
            name: '15 lines missing from part 1',
            damage: (parts) => parts[0]!.splice(middle(part1!), 15),
            why: /the totals line counts [\d,]+ records .* but [\d,]+ were read: lines are missing/,
          },
          {
            name: 'a bad line mid-file in part 2',
            damage: (parts) => {
              parts[1]![brokenAt] = parts[1]![brokenAt]!.slice(0, 60);
            },
            why: /1 line\(s\) rejected/,
          },
          {
            name: 'a totals line that counts one more record than the parts hold',
            damage: (parts) => {
              const last = parts[1]!.length - 1;
              const totals = JSON.parse(parts[1]![last]!) as { data: { statements_count: number } };
              totals.data.statements_count++;
              parts[1]![last] = JSON.stringify(totals);
            },
            why: /the totals line counts [\d,]+ records .* but [\d,]+ were read/,
          },
        ];
        for (const { name, damage, why } of damages) {
          const damaged = damagedCopy(after, damage);
          const previous = await pscRows(db.sql);
          const summary = await load([damaged.dir]);
          assert.deepEqual([summary.complete, summary.refusedAsWhole, summary.markedCeased], [false, true, 0], name);
          assert.match(summary.partialBecause!, why, name);
          const listed = keysListed(damaged.lines);
          // The PSC of the bad line is one the store holds: it is among those checked unchanged below.
          if (name.includes('bad line')) assert.ok(previous.has(brokenKey) && !listed.has(brokenKey));
          const now = await pscRows(db.sql);
          for (const [key, row] of previous) {
            if (!listed.has(key)) assert.equal(now.get(key), row, `${name}: ${key}, not listed, is unchanged`);
          }
          const ceased = await db.sql.query(`SELECT 1 FROM psc WHERE ceased_by_snapshot = $1`, [AFTER]);
          assert.equal(ceased.rowCount, 0, `${name}: nothing ceased by the damaged load`);
          const journal = await db.sql.query<{ status: string; detail: Record<string, unknown> }>(
            `SELECT status, detail FROM load_journal WHERE kind = 'psc' ORDER BY id DESC LIMIT 1`,
          );
          assert.equal(journal.rows[0]?.status, 'done');
          assert.deepEqual([journal.rows[0]?.detail.complete, journal.rows[0]?.detail.markedCeased], [false, 0]);
          assert.match(String(journal.rows[0]?.detail.partialBecause), why, `${name}: the journal says why`);
        }

        const intact = await load([after.dir]);
        assert.deepEqual(
          [intact.complete, intact.partialBecause, intact.markedCeased],
          [true, null, once.markedCeased],
        );
        assert.equal(await dumpPscs(db.sql), await dumpPscs(clean.sql), 'ends as one clean load');
      } finally {
        await clean.close();
      }
    });

    test('the real 19-line extract, named as the whole register, is not taken as it: nothing ceased', async () => {
      const dir = folder();
      const copy = join(dir, 'persons-with-significant-control-snapshot-2024-11-22.txt');
      copyFileSync(realExtract, copy);
      const previous = await pscRows(db.sql);
      assert.ok(previous.size > 100, 'a register loaded before');
      const summary = await load([copy]);
      assert.deepEqual(
        [summary.complete, summary.refusedAsWhole, summary.markedCeased, summary.rejected, summary.linesRead],
        [false, true, 0, 0, 20],
      );
      assert.equal(
        summary.partialBecause,
        'the totals line counts 13,574,320 records (12,799,821 PSCs, 774,422 statements, 77 exemptions) but 19 were read: lines are missing, or this is an extract of the snapshot',
      );
      const now = await pscRows(db.sql);
      for (const [key, row] of previous) assert.equal(now.get(key), row, `${key} is unchanged`);
      assert.equal(now.size, previous.size + 19, 'its own 19 records are applied');
    });

    test('a file that begins with a byte-order mark loads as one without', async () => {
      const dir = folder();
      const text = readFileSync(realExtract);
      const path = join(dir, 'psc-with-bom.txt');
      writeFileSync(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text]));
      const summary = await load([path], { snapshotDate: '2024-11-23' });
      assert.deepEqual([summary.rejected, summary.pscsWritten + summary.statementsWritten], [0, 19]);
    });
  });
}

describe('ukcd load psc of a snapshot named whole but not read whole', () => {
  test('exits 1 and says why, having marked nothing ceased', async () => {
    const dataDir = mkdtempSync(join(root, 'cli-'));
    const dir = folder();
    const copy = join(dir, 'persons-with-significant-control-snapshot-2024-11-22.txt');
    copyFileSync(realExtract, copy);
    const run = await execFileAsync(
      process.execPath,
      [join(repoRoot, 'bin/ukcd.mjs'), 'load', 'psc', copy, '--no-index'],
      {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ELASTICSEARCH_URL: '' },
        timeout: 120_000,
      },
    ).then(
      ({ stderr }) => ({ status: 0, stderr }),
      (error: { code?: number; stderr?: string }) => ({ status: error.code ?? -1, stderr: error.stderr ?? '' }),
    );
    assert.equal(run.status, 1, run.stderr);
    assert.match(
      run.stderr,
      /PSC snapshot 2024-11-22 \(partial: the totals line counts 13,574,320 records .* but 19 were read: .*; nothing marked ceased\).*named as the whole snapshot but not read whole/,
    );
  });
});
