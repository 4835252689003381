/**
 * Issue 15's proof, end to end on PGlite and on PostgreSQL: a status change (Active ->
 * Liquidation) loaded through the real register loader, for a company on a key's watchlist with
 * registered endpoints, reaches a real receiver on 127.0.0.1 once, sent by the real sender and
 * verified by the `standardwebhooks` package; loading the same file again sends nothing more; a key
 * not watching the company and an endpoint subscribed only to other events get nothing. Then new
 * accounts loaded through the real accounts loader reach the endpoints that receive new_accounts,
 * and a PSC notified in a snapshot loaded through the real PSC loader raises control_change.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { loadAccounts } from '../../loaders/load-accounts.ts';
import { loadPsc } from '../../loaders/load-psc.ts';
import { loadRegister } from '../../loaders/load-register.ts';
import { createHttpWebhookTransport } from '../../src/adapters/http/webhook-transport.ts';
import { createAlertDetectionStore } from '../../src/adapters/postgres/alert-detection-store.ts';
import { createOwnershipReader } from '../../src/adapters/postgres/ownership-reader.ts';
import { createPscStore } from '../../src/adapters/postgres/psc-store.ts';
import { createWatchlistStore } from '../../src/adapters/postgres/watchlist-store.ts';
import { createWebhookStore } from '../../src/adapters/postgres/webhook-store.ts';
import type { AlertDetectionDeps } from '../../src/alert-detection/detect-alerts.ts';
import { watchSnapshot } from '../../src/domain/watch-snapshot.ts';
import type { Sql } from '../../src/ports/sql.ts';
import type { WebhookStore } from '../../src/ports/webhooks.ts';
import { createSecretSealer } from '../../src/webhooks/secret-sealer.ts';
import { createWebhookSender } from '../../src/webhooks/sender.ts';
import { newWebhookSecret } from '../../src/webhooks/signing.ts';
import { filingHtml } from '../support/api-world.ts';
import { testStores, useStore } from '../support/databases.ts';
import { individualLine, writeSnapshotFile } from '../support/psc-snapshot-lines.ts';
import { columnOf, registerRows, writeRegisterCsv } from '../support/register-csv.ts';
import { writeZip } from '../support/zip.ts';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1 that answers 204 and keeps what it got. */
async function receiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Verified {
  type: string;
  timestamp: string;
  data: {
    alert: { company_number: string; kind: string; from: unknown; to: unknown; severity: string };
    company: { company_number: string; name: string; status: string };
  };
}

/** The body as the receiver's verifier accepts it with `secret` (throws when the signature is wrong). */
function verify(secret: string, got: Received): Verified {
  return new Webhook(secret).verify(got.body, {
    'webhook-id': String(got.headers['webhook-id']),
    'webhook-timestamp': String(got.headers['webhook-timestamp']),
    'webhook-signature': String(got.headers['webhook-signature']),
  }) as Verified;
}

let keys = 0;
async function newKey(sql: Sql): Promise<number> {
  keys += 1;
  const result = await sql.query<{ id: number }>(
    `INSERT INTO api_keys (key_hash, prefix, plan) VALUES ($1, $2, 'pro') RETURNING id`,
    [`alert-delivery-${process.pid}-${keys}`, `ukcd_a${String(keys).padStart(7, '0')}`],
  );
  return result.rows[0]!.id;
}

const ACME = '00000001';
const BETA = '00000002';

/** The register file of `date`, with ACME in `acmeStatus`; accounts due far ahead (no overdue alert). */
/** A PSC snapshot file of `date` listing ACME's PSCs of these ids. */
function pscSnapshot(dir: string, date: string, ids: readonly string[]): Promise<string> {
  return writeSnapshotFile(
    dir,
    `persons-with-significant-control-snapshot-${date}.txt`,
    ids.map((id) => individualLine(ACME, id, { forename: 'Ada', surname: `Owner${id}` })),
  );
}

function writeRegister(dir: string, date: string, acmeStatus: string): string {
  const path = join(dir, `BasicCompanyDataAsOneFile-${date}.csv`);
  const rows = registerRows(2, 1, (row, i) => {
    row[columnOf('CompanyNumber')] = i === 0 ? ACME : BETA;
    row[columnOf('CompanyName')] = i === 0 ? 'ACME LIMITED' : 'BETA LIMITED';
    row[columnOf('CompanyStatus')] = i === 0 ? acmeStatus : 'Active';
    row[columnOf('Accounts.NextDueDate')] = '30/09/2099';
    row[columnOf('DissolutionDate')] = '';
  });
  writeRegisterCsv(path, rows);
  return path;
}

for (const kind of testStores) {
  describe(`${kind.name}: alerts detected by loads reach webhook receivers`, () => {
    const db = useStore(kind);
    const dir = mkdtempSync(join(tmpdir(), 'ukcd-alert-delivery-'));
    const lines: string[] = [];
    const quiet = { reportDir: join(dir, 'reports'), log: (line: string) => lines.push(line) };
    let webhooks: WebhookStore;
    let alerts: AlertDetectionDeps;
    const hooks: Awaited<ReturnType<typeof receiver>>[] = [];
    let everything: Awaited<ReturnType<typeof receiver>>;
    let accountsOnly: Awaited<ReturnType<typeof receiver>>;
    let bystanders: Awaited<ReturnType<typeof receiver>>;
    const secrets = {
      everything: newWebhookSecret(),
      accountsOnly: newWebhookSecret(),
      bystanders: newWebhookSecret(),
    };

    before(async () => {
      webhooks = createWebhookStore(db.sql, createSecretSealer(randomBytes(32)));
      alerts = {
        detections: createAlertDetectionStore(db.sql),
        store: db.store,
        ownership: createOwnershipReader(db.sql),
      };
      for (let i = 0; i < 3; i++) hooks.push(await receiver());
      [everything, accountsOnly, bystanders] = hooks as [typeof everything, typeof everything, typeof everything];

      // The register and the PSC register as they were, loaded through the loaders; nobody watches anything yet.
      await loadRegister(
        { companies: db.store, journal: db.store, alerts },
        [writeRegister(dir, '2025-01-01', 'Active')],
        {
          ...quiet,
          complete: false,
        },
      );
      await loadPsc(
        { journal: db.store, pscs: createPscStore(db.sql), alerts },
        [await pscSnapshot(dir, '2025-01-01', ['p1'])],
        {
          ...quiet,
          complete: false,
        },
      );

      // The watcher watches ACME (snapshotted as watch_add does), with two endpoints: one for every
      // event, one for new accounts only. The bystander watches BETA only, with an endpoint for all.
      const [watcher, bystander] = [await newKey(db.sql), await newKey(db.sql)];
      const watchlists = createWatchlistStore(db.sql);
      const [acme] = await db.store.getCompanies([ACME]);
      const [beta] = await db.store.getCompanies([BETA]);
      const acmePscs = await createOwnershipReader(db.sql).currentPscsOf([ACME]);
      assert.equal(acmePscs.length, 1);
      await watchlists.add(watcher, [{ company_number: ACME, snapshot: watchSnapshot(acme!, acmePscs) }], 10);
      await watchlists.add(bystander, [{ company_number: BETA, snapshot: watchSnapshot(beta!, []) }], 10);
      const register = async (keyId: number, url: string, events: string[] | null, secret: string) =>
        assert.ok((await webhooks.createEndpoint({ keyId, url, events, description: null, secret }, 10)).endpoint);
      await register(watcher, everything.url, null, secrets.everything);
      await register(watcher, accountsOnly.url, ['alert.new_accounts'], secrets.accountsOnly);
      await register(bystander, bystanders.url, null, secrets.bystanders);
    });
    after(async () => {
      await Promise.all(hooks.map((hook) => hook.close()));
      rmSync(dir, { recursive: true, force: true });
    });

    const sender = () =>
      createWebhookSender({ store: webhooks, transport: createHttpWebhookTransport(), allowPrivate: true });
    /** Sender rounds until nothing is due (and at least `rounds`): what the outbox holds is sent. */
    const sendAll = async (rounds = 3) => {
      const s = sender();
      for (let i = 0, idle = 0; i < 50 && idle < rounds; i++) idle = (await s.runOnce()) === 0 ? idle + 1 : 0;
    };

    test('Active -> Liquidation through the register loader: one signed alert.status_change, to the watcher only', async () => {
      lines.length = 0;
      const summary = await loadRegister(
        { companies: db.store, journal: db.store, alerts },
        [writeRegister(dir, '2025-02-01', 'Liquidation')],
        {
          ...quiet,
          complete: false,
        },
      );
      assert.equal(summary.alerts?.alerts, 1);
      assert.equal(summary.alerts?.keys, 1);
      assert.equal(summary.alerts?.deliveries, 1);
      assert.ok(
        lines.some((line) => line.startsWith('alerts: 1 new for 1 key, 1 delivery queued')),
        lines.join('\n'),
      );
      await sendAll();

      assert.equal(everything.received.length, 1);
      const got = everything.received[0]!;
      const body = verify(secrets.everything, got);
      assert.equal(body.type, 'alert.status_change');
      assert.match(body.timestamp, /^\d{4}-\d\d-\d\dT/);
      assert.deepEqual(
        { ...body.data.alert, message: undefined, detected: undefined, name: undefined },
        {
          company_number: ACME,
          kind: 'status_change',
          severity: 'high',
          from: 'Active',
          to: 'Liquidation',
          message: undefined,
          detected: undefined,
          name: undefined,
        },
      );
      assert.equal(body.data.company.company_number, ACME);
      assert.equal(body.data.company.name, 'ACME LIMITED');
      assert.equal(body.data.company.status, 'Liquidation');
      assert.deepEqual(Object.keys(JSON.parse(got.body) as object).sort(), ['data', 'timestamp', 'type']);
      assert.deepEqual(Object.keys(body.data).sort(), ['alert', 'company']);
      // Signed with that endpoint's secret, not another's.
      assert.throws(() => verify(secrets.bystanders, got));

      assert.equal(accountsOnly.received.length, 0, 'subscribed only to alert.new_accounts');
      assert.equal(bystanders.received.length, 0, 'the key does not watch ACME');
    });

    test('the same file loaded again sends nothing more', async () => {
      const summary = await loadRegister(
        { companies: db.store, journal: db.store, alerts },
        [writeRegister(dir, '2025-02-01', 'Liquidation')],
        {
          ...quiet,
          complete: false,
        },
      );
      assert.equal(summary.alerts?.alerts, 0);
      assert.equal(summary.alerts?.deliveries, 0);
      await sendAll();
      assert.equal(everything.received.length, 1);
      assert.equal(accountsOnly.received.length, 0);
      assert.equal(bystanders.received.length, 0);
    });

    test('new accounts through the accounts loader: alert.new_accounts to both of the watcher endpoints', async () => {
      const path = join(dir, 'Accounts_Bulk_Data-2025-03-01.zip');
      const filing = {
        number: ACME,
        name: 'ACME LIMITED',
        balanceSheetDate: '2024-12-31',
        current: { netAssets: 120_000, cash: 30_000 },
      };
      await writeZip(path, { [`Prod223_0001_${ACME}_20241231.html`]: Buffer.from(filingHtml(filing)) });
      const summary = await loadAccounts({ filings: db.store, journal: db.store, alerts }, [path], {
        ...quiet,
        workers: 1,
      });
      assert.equal(summary.failed, 0);
      assert.equal(summary.alerts?.alerts, 1);
      assert.equal(summary.alerts?.deliveries, 2);
      await sendAll();

      assert.equal(everything.received.length, 2);
      assert.equal(accountsOnly.received.length, 1);
      for (const [hook, secret] of [
        [everything.received[1]!, secrets.everything],
        [accountsOnly.received[0]!, secrets.accountsOnly],
      ] as const) {
        const body = verify(secret, hook);
        assert.equal(body.type, 'alert.new_accounts');
        assert.equal(body.data.alert.kind, 'new_accounts');
        assert.equal(body.data.alert.to, '2024-12-31');
      }
      // One event to two endpoints: two deliveries, each with its own webhook-id.
      assert.notEqual(everything.received[1]!.headers['webhook-id'], accountsOnly.received[0]!.headers['webhook-id']);
      assert.equal(bystanders.received.length, 0);
    });

    test('a PSC notified, through the PSC loader: alert.control_change to the endpoint for every event only', async () => {
      const summary = await loadPsc(
        { journal: db.store, pscs: createPscStore(db.sql), alerts },
        [await pscSnapshot(dir, '2025-04-01', ['p1', 'p2'])],
        { ...quiet, complete: false },
      );
      assert.equal(summary.alerts?.alerts, 1);
      assert.equal(summary.alerts?.deliveries, 1);
      await sendAll();
      assert.equal(everything.received.length, 3);
      const body = verify(secrets.everything, everything.received[2]!);
      assert.equal(body.type, 'alert.control_change');
      assert.equal(body.data.alert.kind, 'control_change');
      assert.equal(body.data.alert.from, 'Ms Ada Ownerp1');
      assert.deepEqual(String(body.data.alert.to).split('; ').sort(), ['Ms Ada Ownerp1', 'Ms Ada Ownerp2']);
      assert.equal(accountsOnly.received.length, 1);
      assert.equal(bystanders.received.length, 0);
    });
  });
}
