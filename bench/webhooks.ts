/**
 * bench/webhooks: alerts detected by a register load, delivered as signed webhooks (issue 15), on
 * loopback, from the service as operators run it.
 *
 *   npm run bench:webhooks                                      # 10,000 alerts to 100 endpoints, one `ukcd start`
 *   npm run bench:webhooks -- --senders 2                       # two service processes sending
 *   npm run bench:webhooks -- --companies 1000 --endpoints 10   # a quick run
 *
 * On a fresh database (`--database`, dropped and created on the PostgreSQL of scripts/postgres.sh):
 *
 * 1. a generated register (the synthetic one, `--seed`) of `--companies` active companies is
 *    loaded through the register loader, with alert detection on;
 * 2. `--endpoints` keys each watch an equal share of them (100 companies each by default: twice
 *    the pro plan's 50, so the watches are added through the store, which takes the limit as an
 *    argument) and register one endpoint each, a receiver of this process on 127.0.0.1 that
 *    answers 200 at once and checks every signature with the `standardwebhooks` package;
 * 3. `--senders` `ukcd start` processes are started on the database (the sender with its shipped
 *    settings; WEBHOOK_ALLOW_PRIVATE=true for the loopback receivers);
 * 4. a second snapshot, in which every one of those companies went into liquidation, is loaded
 *    through the register loader: its alert detection records one status_change alert per watch
 *    and queues one delivery each.
 *
 * Measured: the load (with its detection), deliveries per second (first to last arrival), and
 * the time from the end of the load to the last delivery. Every delivery must arrive, verified,
 * and none twice, or the run fails.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { loadRegister } from '../loaders/load-register.ts';
import { createAlertDetectionStore } from '../src/adapters/postgres/alert-detection-store.ts';
import { createCompanyStore } from '../src/adapters/postgres/company-store.ts';
import { migrate } from '../src/adapters/postgres/migrate.ts';
import { createOwnershipReader } from '../src/adapters/postgres/ownership-reader.ts';
import { createWatchlistStore } from '../src/adapters/postgres/watchlist-store.ts';
import { createWebhookStore } from '../src/adapters/postgres/webhook-store.ts';
import { createPgSql } from '../src/adapters/sql/pg-sql.ts';
import { watchSnapshot } from '../src/domain/watch-snapshot.ts';
import {
  formatRegisterCsvLine,
  REGISTER_CSV_HEADER,
  REGISTER_CSV_LINE_END,
  registerSnapshot,
} from '../src/synthetic/register.ts';
import type { CompanyStatus, RegisterRecord } from '../src/synthetic/register.ts';
import { createSecretSealer, parseSealerKey } from '../src/webhooks/secret-sealer.ts';
import { newWebhookSecret } from '../src/webhooks/signing.ts';
import { sampleRss } from './process-rss.ts';

const root = resolve(import.meta.dirname, '..');
const FIRST_SNAPSHOT = '2024-06-01';
const SECOND_SNAPSHOT = '2024-07-01';

/** One endpoint's receiver: what arrived, when, and whether each signature verified. */
interface Receiver {
  url: string;
  server: Server;
  ids: string[];
  unverified: number;
}

const load = () => loadavg().map((n) => Math.round(n * 100) / 100);
const seconds = (ms: number) => Math.round(ms) / 1000;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      companies: { type: 'string', default: '10000' },
      endpoints: { type: 'string', default: '100' },
      senders: { type: 'string', default: '1' },
      seed: { type: 'string', default: '1' },
      database: { type: 'string', default: 'ukcd_bench_webhooks' },
      label: { type: 'string' },
    },
  });
  const companies = Number(values.companies);
  const endpoints = Number(values.endpoints);
  const senders = Number(values.senders);
  if (!(companies > 0 && endpoints > 0 && companies % endpoints === 0 && senders > 0)) {
    throw new Error('--companies must be a positive multiple of --endpoints, and --senders at least 1');
  }
  const perEndpoint = companies / endpoints;
  const loadAtStart = load();

  // A fresh database on the project's PostgreSQL.
  const server = spawnSync('bash', [join(root, 'scripts', 'postgres.sh')], { encoding: 'utf8' }).stdout.trim();
  if (!server) throw new Error('scripts/postgres.sh did not give a server URL');
  const admin = createPgSql({ connectionString: server, max: 1 });
  await admin.exec(`DROP DATABASE IF EXISTS ${values.database} WITH (FORCE)`);
  await admin.exec(`CREATE DATABASE ${values.database}`);
  await admin.close();
  const url = server.replace(/\/[^/]*$/, `/${values.database}`);
  const sql = createPgSql({ connectionString: url, max: 4 });
  await migrate(sql);
  const store = createCompanyStore(sql);
  const sealerKey = newSealerKeyText();
  const webhooks = createWebhookStore(sql, createSecretSealer(parseSealerKey(sealerKey)));
  const alerts = { detections: createAlertDetectionStore(sql), store, ownership: createOwnershipReader(sql) };
  const work = mkdtempSync(join(tmpdir(), 'ukcd-bench-webhooks-'));
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const quiet = { reportDir: join(work, 'reports'), complete: false, log: () => {} };

  // 1. The register as it was: active companies, accounts due far ahead (no overdue alert).
  const records = activeCompanies(Number(values.seed), companies);
  const numbers = records.map((r) => r.company_number);
  await loadRegister(
    { companies: store, journal: store, alerts },
    [writeSnapshot(work, FIRST_SNAPSHOT, records, 'Active')],
    quiet,
  );
  log(`first snapshot loaded: ${companies.toLocaleString('en-GB')} active companies`);

  // 2. Keys watching them, one endpoint (and receiver) each.
  const receivers: Receiver[] = [];
  const watchlists = createWatchlistStore(sql);
  for (let e = 0; e < endpoints; e++) {
    const key = await sql.query<{ id: number }>(
      `INSERT INTO api_keys (key_hash, prefix, plan) VALUES ($1, $2, 'pro') RETURNING id`,
      [`bench-webhooks-${e}`, `ukcd_w${String(e).padStart(7, '0')}`],
    );
    const keyId = key.rows[0]!.id;
    const mine = numbers.slice(e * perEndpoint, (e + 1) * perEndpoint);
    const current = await store.getCompanies(mine);
    const added = await watchlists.add(
      keyId,
      current.map((c) => ({ company_number: c.company.company_number, snapshot: watchSnapshot(c, []) })),
      perEndpoint,
    );
    if (added.added.length !== perEndpoint) throw new Error(`key ${keyId} watches ${added.added.length}`);
    const secret = newWebhookSecret();
    const receiver = await startReceiver(secret);
    receivers.push(receiver);
    const created = await webhooks.createEndpoint(
      { keyId, url: receiver.url, events: null, description: null, secret },
      1,
    );
    if (!created.endpoint) throw new Error('endpoint not created');
  }
  log(`${endpoints} keys watching ${perEndpoint} companies each, one endpoint each`);

  // 3. The service(s), sending.
  const services: ChildProcess[] = [];
  const rss: { stop(): number }[] = [];
  for (let s = 0; s < senders; s++) {
    const child = await startService(url, sealerKey, join(work, `data-${s}`));
    services.push(child);
    rss.push(sampleRss(child));
  }
  log(`${senders} \`ukcd start\` sending`);

  // 4. The second snapshot: every watched company in liquidation.
  const arrivals: number[] = [];
  for (const receiver of receivers) receiver.server.on('request', () => arrivals.push(performance.now()));
  const loadStarted = performance.now();
  const summary = await loadRegister(
    { companies: store, journal: store, alerts },
    [writeSnapshot(work, SECOND_SNAPSHOT, records, 'Liquidation')],
    quiet,
  );
  const loadEnded = performance.now();
  const queued = summary.alerts?.deliveries ?? 0;
  log(
    `second snapshot loaded in ${seconds(loadEnded - loadStarted)} s: ${summary.alerts?.alerts} alerts, ${queued} deliveries queued`,
  );
  if (queued !== companies) throw new Error(`expected ${companies} deliveries queued, got ${queued}`);

  const deadline = Date.now() + 30 * 60_000;
  let reported = 0;
  while (receivers.reduce((n, r) => n + r.ids.length, 0) < companies) {
    if (Date.now() > deadline) throw new Error('deliveries still missing after 30 minutes');
    const received = receivers.reduce((n, r) => n + r.ids.length, 0);
    if (received - reported >= 2000) {
      log(`${received.toLocaleString('en-GB')} delivered`);
      reported = received;
    }
    await new Promise((done) => setTimeout(done, 20));
  }
  const first = Math.min(...arrivals);
  const last = Math.max(...arrivals);
  const ids = receivers.flatMap((r) => r.ids);
  const unverified = receivers.reduce((n, r) => n + r.unverified, 0);
  const duplicates = ids.length - new Set(ids).size;
  const peakRssMb = rss.map((r) => r.stop());
  const loadAtEnd = load();

  for (const child of services) child.kill('SIGTERM');
  await Promise.all(services.map((child) => new Promise((done) => child.once('exit', done))));
  for (const receiver of receivers) await new Promise((done) => receiver.server.close(done));
  const stats = await webhooks.queueStats();
  await sql.close();
  rmSync(work, { recursive: true, force: true });

  const result = {
    label: values.label ?? null,
    at: new Date().toISOString(),
    companies,
    endpoints,
    senders,
    alerts: summary.alerts?.alerts,
    deliveriesQueued: queued,
    deliveriesReceived: ids.length,
    duplicates,
    unverified,
    pendingAfter: stats.pending,
    loadSeconds: seconds(loadEnded - loadStarted),
    firstDeliveryAfterLoadStartSeconds: seconds(first - loadStarted),
    firstToLastDeliverySeconds: seconds(last - first),
    deliveriesPerSecond: Math.round(companies / ((last - first) / 1000)),
    loadEndToLastDeliverySeconds: seconds(last - loadEnded),
    senderPeakRssMb: peakRssMb,
    loadAverage: { atStart: loadAtStart, atEnd: loadAtEnd },
  };
  console.log(JSON.stringify(result, null, 2));
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(join(root, 'bench', 'results', 'webhooks.json'), JSON.stringify(result, null, 2) + '\n');
  if (ids.length !== companies || duplicates !== 0 || unverified !== 0 || stats.pending !== 0) {
    throw new Error('not every delivery arrived once, verified: see the result above');
  }
}

/** The first `count` companies of the synthetic register that are active, due far ahead. */
function activeCompanies(seed: number, count: number): RegisterRecord[] {
  const records: RegisterRecord[] = [];
  for (const record of registerSnapshot({ seed, companies: count * 4, snapshotDate: FIRST_SNAPSHOT })) {
    if (record.status !== 'Active') continue;
    records.push({
      ...record,
      accounts: { ...record.accounts, next_due: '2099-09-30' },
      conf_stmt: { ...record.conf_stmt, next_due: '2099-09-30' },
    });
    if (records.length === count) return records;
  }
  throw new Error(`only ${records.length} active companies among the first ${count * 4}`);
}

/** The register file of `date` with every one of `records` in `status`; otherwise unchanged. */
function writeSnapshot(dir: string, date: string, records: readonly RegisterRecord[], status: CompanyStatus): string {
  const path = join(dir, `BasicCompanyDataAsOneFile-${date}.csv`);
  const lines = records.map((record) => formatRegisterCsvLine({ ...record, status }));
  writeFileSync(path, [REGISTER_CSV_HEADER, ...lines].join(REGISTER_CSV_LINE_END) + REGISTER_CSV_LINE_END);
  return path;
}

/** A receiver on 127.0.0.1 answering 200 at once, recording each webhook-id and checking its signature. */
async function startReceiver(secret: string): Promise<Receiver> {
  const verifier = new Webhook(secret);
  const receiver: Receiver = { url: '', server: createServer(), ids: [], unverified: 0 };
  receiver.server.on('request', (request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const header = (name: string) => String(request.headers[name] ?? '');
      try {
        verifier.verify(body, {
          'webhook-id': header('webhook-id'),
          'webhook-timestamp': header('webhook-timestamp'),
          'webhook-signature': header('webhook-signature'),
        });
      } catch {
        receiver.unverified += 1;
      }
      receiver.ids.push(header('webhook-id'));
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((ready) => receiver.server.listen(0, '127.0.0.1', ready));
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hook`;
  return receiver;
}

/** `ukcd start` on the database, resolved once it serves. */
async function startService(databaseUrl: string, sealerKey: string, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(root, 'bin', 'ukcd.mjs'), 'start'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATABASE_READ_URL: '',
      ELASTICSEARCH_URL: '',
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_REQUESTS: 'false',
      DELIVER_WEBHOOKS: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_SECRET_KEY: sealerKey,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  await new Promise<void>((ready, fail) => {
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('webhooks: sending')) ready();
    });
    child.once('exit', () => fail(new Error(`ukcd start exited:\n${output}`)));
  });
  return child;
}

function newSealerKeyText(): string {
  return randomBytes(32).toString('base64');
}

await main();
