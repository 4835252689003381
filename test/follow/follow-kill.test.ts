/**
 * `ukcd follow` processes on one PostgreSQL database, as operators run them: two at once never
 * both apply the stream (one holds its lease, the other waits); SIGKILL of the one applying,
 * mid-stream, leaves the other to take the stream over from the last batch stored; the end state
 * (companies, positions, rejects) equals that of one follower that was never interrupted: no event
 * lost, none applied twice.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import type { Sql } from '../../src/ports/sql.ts';
import { dumpState, freshPostgres } from '../support/databases.ts';
import { repoRoot } from '../support/samples.ts';
import { company } from '../support/store-records.ts';
import { startFakeStreamServer } from '../support/stream-server.ts';
import type { FakeStreamServer } from '../support/stream-server.ts';
import { companyEvent, waitFor } from '../support/stream-world.ts';

const COMPANIES = 200;
const EVENTS = 6_000;
const FIRST = 1_000;
const LAST = FIRST + EVENTS;
const number = (i: number) => String(i + 1).padStart(8, '0');

/**
 * The stream: each company renamed again and again; every 50th change published twice (under the
 * next timepoint), every 70th published late (arriving after later ones).
 */
function streamLines(): string[] {
  const lines: string[] = [];
  let tp = FIRST;
  for (let i = 0; lines.length <= EVENTS; i++) {
    const n = i % COMPANIES;
    const second = i % 70 === 69 ? i - 500 : i;
    const at = new Date(Date.UTC(2026, 10, 27, 9, 0, 0) + Math.max(0, second) * 1000).toISOString().slice(0, 19);
    const data = {
      company_name: `COMPANY ${number(n)} VERSION ${i} LIMITED`,
      company_status: i % 13 === 0 ? 'liquidation' : 'active',
    };
    lines.push(companyEvent(tp++, at, number(n), data));
    if (i % 50 === 49) lines.push(companyEvent(tp++, at, number(n), data));
  }
  return lines.slice(0, EVENTS + 1);
}

interface Follow {
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

function startFollow(env: Record<string, string>): Follow {
  const child = spawn(process.execPath, [join(repoRoot, 'bin/ukcd.mjs'), 'follow'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const output: string[] = [];
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => output.push(chunk));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, output, exited };
}

async function seed(sql: Sql): Promise<void> {
  await createCompanyStore(sql).upsertCompanies(
    Array.from({ length: COMPANIES }, (_, i) => company(number(i), { accounts_next_due: '2099-09-30' })),
    '2026-11-01',
  );
  // Followed before: the stream resumes after its first event.
  await sql.query(`INSERT INTO stream_positions (stream, timepoint) VALUES ('companies', $1)`, [FIRST]);
}

async function position(sql: Sql): Promise<{ timepoint: number; applied: number }> {
  const row = (
    await sql.query<{ timepoint: string; events_applied: string }>(
      `SELECT timepoint::text, events_applied::text FROM stream_positions WHERE stream = 'companies'`,
    )
  ).rows[0]!;
  return { timepoint: Number(row.timepoint), applied: Number(row.events_applied) };
}

async function dump(sql: Sql): Promise<string> {
  const positions = await sql.query(`SELECT stream, timepoint, published_at, events_applied FROM stream_positions`);
  const rejects = await sql.query(`SELECT stream, timepoint, reason FROM stream_rejects ORDER BY 1, 2`);
  return [await dumpState(sql), JSON.stringify(positions.rows), JSON.stringify(rejects.rows)].join('\n===\n');
}

describe('ukcd follow: two processes, one SIGKILLed mid-stream', () => {
  let server: FakeStreamServer;
  // The interrupted run's own server: its stream is published once both followers are up.
  let second: FakeStreamServer;
  const dir = mkdtempSync(join(tmpdir(), 'ukcd-follow-kill-'));
  const databases: Awaited<ReturnType<typeof freshPostgres>>[] = [];
  const running: Follow[] = [];

  before(async () => {
    server = await startFakeStreamServer({ key: 'k' });
    server.publish('companies', streamLines());
    second = await startFakeStreamServer({ key: 'k' });
    second.publish('companies', streamLines().slice(0, 1));
  });
  after(async () => {
    for (const follow of running) follow.child.kill('SIGKILL');
    await Promise.all(running.map((follow) => follow.exited));
    await Promise.all([server.close(), second.close()]);
    await Promise.all(databases.map((db) => db.drop()));
    rmSync(dir, { recursive: true, force: true });
  });

  const env = (url: string, stream = server) => ({
    DATABASE_URL: url,
    DATA_DIR: dir,
    CH_STREAM_KEY: 'k',
    CH_STREAM_URL: stream.url,
    CH_STREAMS: 'companies',
    UKCD_STREAM_LEASE_SECONDS: '1',
    LOG_REQUESTS: 'false',
  });

  test('the end state equals an uninterrupted run', async () => {
    // The uninterrupted run.
    const reference = await freshPostgres();
    databases.push(reference);
    await seed(reference.sql);
    const one = startFollow(env(reference.url));
    running.push(one);
    await waitFor(
      'the reference run to finish',
      async () => (await position(reference.sql)).timepoint === LAST,
      120_000,
    );
    one.child.kill('SIGTERM');
    assert.equal(await one.exited, 0, one.output.join(''));

    // Two followers at once; the one applying is killed mid-stream.
    const db = await freshPostgres();
    databases.push(db);
    await seed(db.sql);
    const a = startFollow(env(db.url, second));
    const b = startFollow(env(db.url, second));
    running.push(a, b);
    const holder = await waitFor('one follower to hold the stream', async () => {
      const row = (await db.sql.query<{ holder: string | null }>(`SELECT holder FROM stream_positions`)).rows[0];
      return row?.holder ?? undefined;
    });
    const [applying, waiting] = holder.includes(`:${a.child.pid}:`) ? [a, b] : [b, a];
    // The events are published once the other follower waits for the lease, so that the kill
    // finds it waiting, however fast the first applies the stream.
    await waitFor('the other follower to wait', async () =>
      /followed by another process/.test(waiting.output.join('')),
    );
    await waitFor('the stream to be read', async () => second.connected('companies') > 0);
    second.publish('companies', streamLines().slice(1));
    await waitFor('the first batches applied', async () => (await position(db.sql)).applied > 0);
    const atKill = await position(db.sql);
    applying.child.kill('SIGKILL');
    await applying.exited;
    assert.ok(atKill.timepoint < LAST, `killed mid-stream (at ${atKill.timepoint} of ${LAST})`);
    await waitFor(
      'the other follower to finish the stream',
      async () => (await position(db.sql)).timepoint === LAST,
      120_000,
    );
    assert.match(waiting.output.join(''), /followed by another process/);
    assert.match(waiting.output.join(''), /stream companies: following/);
    waiting.child.kill('SIGTERM');
    assert.equal(await waiting.exited, 0, waiting.output.join(''));

    assert.equal(await dump(db.sql), await dump(reference.sql));
    const { applied } = await position(db.sql);
    assert.equal(applied, EVENTS, 'each event applied once');
  });
});
