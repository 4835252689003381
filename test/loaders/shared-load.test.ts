/**
 * Loads and full index builds shared by several processes (docs/shared-loads.md), as operators run
 * them: real `ukcd` processes (bin/ukcd.mjs) on one real PostgreSQL and one real Elasticsearch,
 * over a generated corpus. Four processes end in the state one process ends in; four of which one
 * is killed with SIGKILL while it holds a file (or a range) end there too, the others taking its
 * work over when its lease runs out.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@elastic/elasticsearch';
import type { Sql } from '../../src/ports/sql.ts';
import { dumpState, freshPostgres } from '../support/databases.ts';
import { elasticsearchUrl } from '../support/elasticsearch.ts';
import { repoRoot } from '../support/samples.ts';

const dir = mkdtempSync(join(tmpdir(), 'ukcd-shared-'));
const corpus = join(dir, 'accounts');
const register = join(dir, 'register');
/** Short, so that a dead process's work is taken over within the test. */
const LEASE_SECONDS = '2';

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `ukcd …args` in a process of its own; its stderr is kept. */
function ukcd(args: readonly string[], env: Record<string, string>): Run {
  const base = { ...process.env };
  for (const name of ['DATABASE_URL', 'DATABASE_READ_URL', 'ELASTICSEARCH_URL', 'UKCD_WORKERS']) delete base[name];
  const child = spawn(process.execPath, [join(repoRoot, 'bin', 'ukcd.mjs'), ...args], {
    env: { ...base, DATA_DIR: join(dir, 'data'), UKCD_LOAD_LEASE_SECONDS: LEASE_SECONDS, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, output: () => output, exited };
}

async function succeeds(run: Run): Promise<string> {
  const code = await run.exited;
  assert.equal(code, 0, `ukcd exited ${code}:\n${run.output()}`);
  return run.output();
}

/** The holder name a process announced ("loading as …", "indexing as …"). */
async function holderOf(run: Run): Promise<string> {
  for (let waited = 0; waited < 60_000; waited += 20) {
    const match = / as (\S+:\d+:[0-9a-f]+)\n/.exec(run.output());
    if (match) return match[1]!;
    await sleep(20);
  }
  assert.fail(`no holder announced:\n${run.output()}`);
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The file `holder` is loading now: its claim's lease is live and its journal entry running; null when none. */
async function fileLoadingUnder(sql: Sql, holder: string): Promise<string | null> {
  const held = await sql.query<{ source: string }>(
    `SELECT c.source FROM load_claims c
     JOIN load_journal j ON j.source = c.source AND j.detail->>'holder' = c.holder AND j.status = 'running'
     WHERE c.holder = $1 AND c.lease_until > now()`,
    [holder],
  );
  return held.rows[0]?.source ?? null;
}

/**
 * SIGKILL `run` at a moment it holds a claim: stopped (SIGSTOP) first, so that what it holds can
 * be read while it cannot change; let go again (SIGCONT) when it holds nothing, and tried again.
 * Returns what it held; or null when the statement that finished the work was already on its way
 * to the server when it stopped (`finished` says so a moment after the kill): then nothing was
 * left to take over, and the caller tries again.
 */
async function killWhileHolding(
  run: Run,
  holds: () => Promise<string | null>,
  finished: (held: string) => Promise<boolean>,
): Promise<string | null> {
  for (let attempt = 0; attempt < 2_000; attempt++) {
    run.child.kill('SIGSTOP');
    const held = await holds();
    if (held !== null) {
      run.child.kill('SIGKILL');
      await run.exited;
      await sleep(300);
      return (await finished(held)) ? null : held;
    }
    run.child.kill('SIGCONT');
    await sleep(15 + Math.random() * 30);
  }
  assert.fail(`never caught holding a claim:\n${run.output()}`);
}

before(async () => {
  // 65 daily bulk zips, 715 filings; and the register snapshot of the same companies.
  await succeeds(
    ukcd(
      ['generate', 'accounts', '--out', corpus, '--companies', '4000', '--years', '3'].concat([
        '--from',
        '2024-01-01',
        '--until',
        '2024-04-01',
      ]),
      {},
    ),
  );
  await succeeds(ukcd(['generate', 'register', '--out', register, '--date', '2024-05-01', '--companies', '4000'], {}));
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('ukcd load accounts: several processes share the files through the load journal', () => {
  const dbs: { sql: Sql; url: string; drop(): Promise<void> }[] = [];
  let one: { sql: Sql; url: string };
  before(async () => {
    one = await freshPostgres();
    dbs.push(one as (typeof dbs)[number]);
    await succeeds(ukcd(['load', 'accounts', corpus, '--no-index', '--workers', '1'], { DATABASE_URL: one.url }));
  });
  after(async () => {
    for (const db of dbs) await db.drop();
  });

  test('four processes end in the state one process ends in, each file loaded once', async () => {
    const four = await freshPostgres();
    dbs.push(four);
    const runs = [1, 2, 3, 4].map(() =>
      ukcd(['load', 'accounts', corpus, '--no-index', '--workers', '1'], { DATABASE_URL: four.url }),
    );
    const outputs = await Promise.all(runs.map(succeeds));
    assert.equal(await dumpState(four.sql), await dumpState(one.sql));

    const journal = await four.sql.query<{ source: string; status: string; holder: string }>(
      `SELECT source, status, detail->>'holder' AS holder FROM load_journal ORDER BY source, id`,
    );
    const zips = (await one.sql.query(`SELECT DISTINCT source_zip FROM filings`)).rowCount;
    assert.equal(journal.rowCount, zips, 'one journal entry per file: none loaded twice');
    assert.ok(journal.rows.every((row) => row.status === 'done'));
    const holders = new Set(journal.rows.map((row) => row.holder));
    assert.ok(holders.size >= 2, `the files were split between processes (${[...holders].join(', ')})`);
    // Each process's own summary counts what it loaded; together, every filing once.
    const loaded = outputs.map((output) => Number(/accounts: (\d+) of \d+ filings loaded/.exec(output)?.[1]));
    assert.equal(
      loaded.reduce((sum, n) => sum + n, 0),
      (await one.sql.query(`SELECT 1 FROM filings`)).rowCount,
      outputs.join('\n'),
    );
  });

  test('one of four killed with SIGKILL while loading a file: the others load it, and end in the same state', async () => {
    for (let attempt = 1; ; attempt++) {
      const killed = await freshPostgres();
      dbs.push(killed);
      const runs = [1, 2, 3, 4].map(() =>
        ukcd(['load', 'accounts', corpus, '--no-index', '--workers', '1'], { DATABASE_URL: killed.url }),
      );
      const [victim, ...others] = runs as [Run, ...Run[]];
      const holder = await holderOf(victim);
      // Half-way: once it has loaded a file, at a moment it is loading another.
      for (let waited = 0; ; waited += 20) {
        const done = await killed.sql.query(
          `SELECT 1 FROM load_journal WHERE detail->>'holder' = $1 AND status = 'done'`,
          [holder],
        );
        if (done.rowCount > 0) break;
        if (waited > 60_000) assert.fail(`the victim never loaded a file:\n${victim.output()}`);
        await sleep(20);
      }
      const file = await killWhileHolding(
        victim,
        () => fileLoadingUnder(killed.sql, holder),
        async (source) =>
          (
            await killed.sql.query(
              `SELECT 1 FROM load_journal WHERE source = $1 AND detail->>'holder' = $2 AND status = 'done'`,
              [source, holder],
            )
          ).rowCount > 0,
      );
      const outputs = await Promise.all(others.map(succeeds));
      assert.equal(await dumpState(killed.sql), await dumpState(one.sql));
      if (file === null) {
        assert.ok(attempt < 3, 'three times the victim died just as it finished its file');
        continue;
      }

      // The file it held: its attempt interrupted, then loaded by another that took it over.
      const attempts = await killed.sql.query<{ status: string; holder: string; from: string | null }>(
        `SELECT status, detail->>'holder' AS holder, detail->>'taken_over_from' AS from FROM load_journal
         WHERE source = $1 ORDER BY id`,
        [file],
      );
      assert.deepEqual(
        attempts.rows.map((row) => [row.status, row.holder === holder, row.from === holder]),
        [
          ['interrupted', true, false],
          ['done', false, true],
        ],
      );
      assert.ok(outputs.some((output) => output.includes(`${file}: taken over from ${holder}`)));
      const doneTwice = await killed.sql.query(
        `SELECT source FROM load_journal WHERE status = 'done' GROUP BY source HAVING count(*) > 1`,
      );
      assert.equal(doneTwice.rowCount, 0, 'no file loaded twice');
      const running = await killed.sql.query(`SELECT 1 FROM load_journal WHERE status = 'running'`);
      assert.equal(running.rowCount, 0, 'nothing left running');
      return;
    }
  });

  test('one killed on this machine, then started again: it goes on at once (the pid is gone), not after the lease', async () => {
    for (let attempt = 1; ; attempt++) {
      const again = await freshPostgres();
      dbs.push(again);
      const env = { DATABASE_URL: again.url, UKCD_LOAD_LEASE_SECONDS: '600' };
      const victim = ukcd(['load', 'accounts', corpus, '--no-index', '--workers', '1'], env);
      const holder = await holderOf(victim);
      const file = await killWhileHolding(
        victim,
        () => fileLoadingUnder(again.sql, holder),
        async (source) =>
          (await again.sql.query(`SELECT 1 FROM load_journal WHERE source = $1 AND status = 'done'`, [source]))
            .rowCount > 0,
      );
      if (file === null) {
        assert.ok(attempt < 3, 'three times the victim died just as it finished its file');
        continue;
      }
      const started = Date.now();
      const output = await succeeds(ukcd(['load', 'accounts', corpus, '--no-index', '--workers', '1'], env));
      assert.ok(Date.now() - started < 300_000, 'well within the 600 s lease');
      assert.ok(output.includes(`${holder} no longer runs on this machine`), output);
      assert.ok(output.includes(`${file}: taken over from ${holder}`), output);
      assert.equal(await dumpState(again.sql), await dumpState(one.sql));
      return;
    }
  });
});

describe('ukcd index --full on Elasticsearch: several processes share one build in ranges', () => {
  const es = new Client({ node: elasticsearchUrl() });
  const aliases = ['one', 'four', 'killed'].map((name) => `ukcd-t-shared-${process.pid}-${name}`);
  let db: { sql: Sql; url: string; drop(): Promise<void> };
  const envFor = (alias: string) => ({
    DATABASE_URL: db.url,
    ELASTICSEARCH_URL: elasticsearchUrl(),
    ELASTICSEARCH_INDEX: alias,
    ELASTICSEARCH_PEOPLE_INDEX: `${alias}-people`,
    // About 65 ranges of the 3,210 companies.
    UKCD_INDEX_RANGE_COMPANIES: '50',
  });
  /** Every document behind the alias, by company number. */
  const documents = async (alias: string) => {
    const result = await es.search({ index: alias, size: 10_000, query: { match_all: {} } });
    return result.hits.hits.map((hit) => JSON.stringify([hit._id, hit._source])).sort();
  };
  let single: string[];

  before(async () => {
    db = await freshPostgres();
    await succeeds(ukcd(['load', 'register', register, '--no-index'], { DATABASE_URL: db.url }));
    await succeeds(ukcd(['load', 'accounts', corpus, '--no-index', '--workers', '1'], { DATABASE_URL: db.url }));
    await succeeds(ukcd(['index', '--full'], envFor(aliases[0]!)));
    single = await documents(aliases[0]!);
  });
  after(async () => {
    // By name: a cluster may refuse deletes by wildcard (action.destructive_requires_name).
    for (const alias of aliases) {
      const names = Object.keys(
        await es.indices.get({ index: `${alias}*`, ignore_unavailable: true, allow_no_indices: true }),
      );
      if (names.length > 0) await es.indices.delete({ index: names });
    }
    await es.close();
    await db?.drop();
  });

  test('four processes build the index one process builds; exactly one publishes it', async () => {
    assert.equal(single.length, 3210);
    const outputs = await Promise.all([1, 2, 3, 4].map(() => succeeds(ukcd(['index', '--full'], envFor(aliases[1]!)))));
    assert.deepEqual(await documents(aliases[1]!), single);
    assert.equal(outputs.filter((output) => output.includes('it published the build')).length, 1, outputs.join('\n'));
    assert.equal(outputs.filter((output) => output.includes('it started the build')).length, 1);
    const builds = await db.sql.query<{ status: string; writers: number; ranges: number; documents: number }>(
      `SELECT b.status, count(DISTINCT r.written_by)::int AS writers, count(*)::int AS ranges,
         sum(r.documents)::int AS documents
       FROM index_builds b JOIN index_build_ranges r ON r.build_id = b.id
       WHERE b.target = $1 GROUP BY b.id, b.status`,
      [`elasticsearch:${aliases[1]}`],
    );
    assert.equal(builds.rowCount, 1, 'one build, joined by every process');
    const build = builds.rows[0]!;
    assert.equal(build.status, 'done');
    assert.equal(build.documents, 3210);
    assert.ok(build.writers >= 2, `the ranges were split between processes (${build.writers} wrote)`);
    const through = await db.sql.query(`SELECT 1 FROM search_index_runs WHERE target = $1`, [
      `elasticsearch:${aliases[1]}`,
    ]);
    assert.equal(through.rowCount, 1, 'indexed-through recorded');
  });

  test('one of four killed with SIGKILL while writing a range: another takes the range over', async () => {
    for (let attempt = 1; ; attempt++) {
      const alias = `${aliases[2]}-${attempt}`;
      const target = `elasticsearch:${alias}`;
      const runs = [1, 2, 3, 4].map(() => ukcd(['index', '--full'], envFor(alias)));
      const [victim, ...others] = runs as [Run, ...Run[]];
      const holder = await holderOf(victim);
      const range = await killWhileHolding(
        victim,
        async () => {
          const held = await db.sql.query<{ after_number: string }>(
            `SELECT after_number FROM index_build_ranges WHERE holder = $1 AND NOT done AND lease_until > now()`,
            [holder],
          );
          return held.rows[0]?.after_number ?? null;
        },
        async (after) =>
          (
            await db.sql.query(
              `SELECT 1 FROM index_build_ranges r JOIN index_builds b ON b.id = r.build_id
               WHERE b.target = $1 AND r.after_number = $2 AND r.written_by = $3`,
              [target, after, holder],
            )
          ).rowCount > 0,
      );
      const outputs = await Promise.all(others.map(succeeds));
      assert.deepEqual(await documents(alias), single);
      assert.equal(outputs.filter((output) => output.includes('it published the build')).length, 1);
      if (range === null) {
        assert.ok(attempt < 3, 'three times the victim died just as it finished its range');
        continue;
      }
      const taken = await db.sql.query<{ claims: number; written_by: string }>(
        `SELECT r.claims, r.written_by FROM index_build_ranges r JOIN index_builds b ON b.id = r.build_id
         WHERE b.target = $1 AND r.after_number = $2`,
        [target, range],
      );
      assert.equal(taken.rows[0]!.claims, 2);
      assert.notEqual(taken.rows[0]!.written_by, holder);
      assert.ok(outputs.some((output) => output.includes(`taken over from ${holder}`)));
      return;
    }
  });
});
