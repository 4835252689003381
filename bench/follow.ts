/**
 * The stream follower's throughput and event-to-webhook latency, with alert detection on.
 *
 * On a fresh database of the PostgreSQL of scripts/postgres.sh: `--companies` companies, of which
 * `--watched` are on one key's watchlist with one webhook endpoint (a receiver on 127.0.0.1 that
 * records when each alert arrives). A local server speaking the Streaming API's protocol
 * (test/support/stream-server.ts) carries the companies stream; the follower and the webhook
 * sender run in this process, as `ukcd start` runs them.
 *
 * 1. Throughput: `--events` company profile changes published at once (names changed, every 50th a
 *    watched company entering liquidation); events applied per second until the position reaches
 *    the last one.
 * 2. Latency under load: `--rate` events a second for `--seconds`, in ticks of 100 ms, every 50th a
 *    watched company's status change; for each, the time from its publication to its signed
 *    webhook's arrival: p50, p99, max.
 * CPU per event (this process: follower, detection, sender; and PostgreSQL) over phase 1.
 *
 *   npm run bench:follow -- [--companies 20000] [--watched 2000] [--events 20000] [--rate 2000] [--seconds 10]
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createHttpWebhookTransport } from '../src/adapters/http/webhook-transport.ts';
import { createAlertDetectionStore } from '../src/adapters/postgres/alert-detection-store.ts';
import { createCompanyStore } from '../src/adapters/postgres/company-store.ts';
import { migrate } from '../src/adapters/postgres/migrate.ts';
import { createOwnershipReader } from '../src/adapters/postgres/ownership-reader.ts';
import { companiesApplier } from '../src/adapters/postgres/stream-companies.ts';
import { createStreamLedger } from '../src/adapters/postgres/stream-ledger.ts';
import { createWatchlistStore } from '../src/adapters/postgres/watchlist-store.ts';
import { createWebhookStore } from '../src/adapters/postgres/webhook-store.ts';
import { createPgSql } from '../src/adapters/sql/pg-sql.ts';
import { watchSnapshot } from '../src/domain/watch-snapshot.ts';
import { startFollower } from '../src/follow/follower.ts';
import type { StreamGet } from '../src/follow/follow-stream.ts';
import { get } from '../src/net/http-get.ts';
import { createSecretSealer } from '../src/webhooks/secret-sealer.ts';
import { createWebhookSender } from '../src/webhooks/sender.ts';
import { newWebhookSecret } from '../src/webhooks/signing.ts';
import { company } from '../test/support/store-records.ts';
import { startFakeStreamServer } from '../test/support/stream-server.ts';
import { companyEvent } from '../test/support/stream-world.ts';
import { startCpuWindow } from './process-cpu.ts';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    companies: { type: 'string', default: '20000' },
    watched: { type: 'string', default: '2000' },
    events: { type: 'string', default: '20000' },
    rate: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '10' },
    database: { type: 'string', default: 'ukcd_bench_follow' },
  },
});
const companies = Number(values.companies);
const watched = Number(values.watched);
const events = Number(values.events);
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const number = (i: number) => `B${String(i).padStart(7, '0')}`;

const server = spawnSync('bash', [join(root, 'scripts', 'postgres.sh')], { encoding: 'utf8' }).stdout.trim();
if (!server) throw new Error('scripts/postgres.sh did not give a server URL');
const admin = createPgSql({ connectionString: server, max: 1 });
await admin.exec(`DROP DATABASE IF EXISTS ${values.database} WITH (FORCE)`);
await admin.exec(`CREATE DATABASE ${values.database}`);
await admin.close();
const sql = createPgSql({ connectionString: server.replace(/\/[^/]*$/, `/${values.database}`), max: 6 });
await migrate(sql);
const store = createCompanyStore(sql);
for (let at = 0; at < companies; at += 5_000) {
  const batch = Array.from({ length: Math.min(5_000, companies - at) }, (_, i) =>
    company(number(at + i), { accounts_next_due: '2099-09-30' }),
  );
  await store.upsertCompanies(batch, '2026-11-01');
}

// One key watching the first `watched` companies, with one endpoint.
const arrivals = new Map<string, number>();
const receiver = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    const parsed = JSON.parse(body) as { data: { alert: { company_number: string; to: string } } };
    arrivals.set(`${parsed.data.alert.company_number}:${parsed.data.alert.to}`, performance.now());
    response.writeHead(204).end();
  });
});
await new Promise<void>((ready) => receiver.listen(0, '127.0.0.1', ready));
const keyId = (
  await sql.query<{ id: number }>(
    `INSERT INTO api_keys (key_hash, prefix, plan) VALUES ($1, 'ukcd_bfollow', 'pro') RETURNING id`,
    [randomBytes(16).toString('hex')],
  )
).rows[0]!.id;
const watchedNumbers = Array.from({ length: watched }, (_, i) => number(i));
for (let at = 0; at < watched; at += 1_000) {
  const held = await store.getCompanies(watchedNumbers.slice(at, at + 1_000));
  await createWatchlistStore(sql).add(
    keyId,
    held.map((c) => ({ company_number: c.company.company_number, snapshot: watchSnapshot(c, []) })),
    1_000_000,
  );
}
const webhooks = createWebhookStore(sql, createSecretSealer(randomBytes(32)));
await webhooks.createEndpoint(
  {
    keyId,
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    events: null,
    description: null,
    secret: newWebhookSecret(),
  },
  10,
);
const sender = createWebhookSender({
  store: webhooks,
  transport: createHttpWebhookTransport(),
  allowPrivate: true,
  pollMs: 100,
});
sender.start();

const stream = await startFakeStreamServer({ key: 'k', heartbeatMs: 1_000 });
const follower = startFollower(
  {
    ledger: createStreamLedger(sql),
    appliers: [companiesApplier()],
    detection: { store, ownership: createOwnershipReader(sql), detections: createAlertDetectionStore(sql) },
  },
  {
    baseUrl: stream.url,
    key: 'k',
    get: get as StreamGet,
    stallMs: 30_000,
    lease: { holder: 'bench', seconds: 30 },
    log: () => undefined,
  },
);
const until = async (check: () => Promise<boolean>) => {
  while (!(await check())) await new Promise((tick) => setTimeout(tick, 5));
};
await until(async () => stream.connected('companies') > 0);
const position = async () =>
  Number((await sql.query<{ t: string | null }>(`SELECT timepoint::text AS t FROM stream_positions`)).rows[0]?.t ?? -1);

let timepoint = 1;
const at = (i: number) => new Date(Date.UTC(2026, 10, 27, 9) + i * 10).toISOString().slice(0, 19);
/** The i-th event: a rename, or (every 50th) a watched company entering liquidation. */
const line = (i: number): { line: string; alert: string | null } => {
  const tp = timepoint++;
  if (i % 50 === 0) {
    const n = number(Math.floor(i / 50) % watched);
    return {
      line: companyEvent(tp, at(tp), n, { company_status: tp % 2 ? 'liquidation' : 'administration' }),
      alert: `${n}:${tp % 2 ? 'Liquidation' : 'In Administration'}`,
    };
  }
  const n = number(watched + (i % (companies - watched)));
  return { line: companyEvent(tp, at(tp), n, { company_name: `RENAMED ${tp} LIMITED` }), alert: null };
};

// Phase 1: throughput.
const cpu = startCpuWindow({ bench: 'self', postgres: { comm: 'postgres' } });
const burst = Array.from({ length: events }, (_, i) => line(i).line);
const started = performance.now();
stream.publish('companies', burst);
const last = timepoint - 1;
await until(async () => (await position()) === last);
const applySeconds = (performance.now() - started) / 1000;
const use = cpu.stop();

// Phase 2: latency at `rate` events a second.
const published = new Map<string, number>();
const ticks = seconds * 10;
const perTick = Math.round(rate / 10);
const phase2Start = performance.now();
for (let t = 0; t < ticks; t++) {
  const lines: string[] = [];
  const now = performance.now();
  for (let i = 0; i < perTick; i++) {
    const { line: text, alert } = line(events + t * perTick + i);
    lines.push(text);
    if (alert && !published.has(alert)) published.set(alert, now);
  }
  stream.publish('companies', lines);
  const next = phase2Start + (t + 1) * 100;
  await new Promise((tick) => setTimeout(tick, Math.max(0, next - performance.now())));
}
const deadline = performance.now() + 60_000;
while ([...published.keys()].some((key) => !arrivals.has(key)) && performance.now() < deadline) {
  await new Promise((tick) => setTimeout(tick, 20));
}
const latencies = [...published].flatMap(([key, sent]) => {
  const got = arrivals.get(key);
  return got === undefined ? [] : [(got - sent) / 1000];
});
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;

await follower.stop();
await sender.stop();
await stream.close();
receiver.close();
await sql.close();

const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;
console.log(
  JSON.stringify(
    {
      companies,
      watched,
      phase1: {
        events,
        seconds: round(applySeconds),
        events_per_s: Math.round(events / applySeconds),
        cpu_ms_per_event: {
          bench: round(((use.groups.bench ?? NaN) * 1000) / events),
          postgres: round(((use.groups.postgres ?? NaN) * 1000) / events),
        },
      },
      phase2: {
        rate,
        seconds,
        alerts_sent: published.size,
        alerts_received: latencies.length,
        latency_s: { p50: round(pct(50)), p99: round(pct(99)), max: round(latencies.at(-1) ?? NaN) },
      },
    },
    null,
    2,
  ),
);
