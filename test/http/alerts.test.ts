/**
 * GET /v1/alerts end to end, on the embedded default (PGlite with the Postgres search) and on a real
 * PostgreSQL with a real Elasticsearch. Every alert kind comes from data loaded the way the service
 * loads it: companies are watched (and snapshotted) over HTTP, then a later register snapshot and a
 * later accounts bulk file go through the real loaders; nothing is written into the tables by hand.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { call, companies, loadFixtures, markdown, NOW } from '../support/api-fixtures.ts';
import type { FilingFixture, RegisterFixture, World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { connectMcp } from '../support/mcp-client.ts';

const setups = [
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

/** Three companies beside the shared fixtures: one that stays as it is, one to be dissolved, one that files as usual. */
const extraCompanies: RegisterFixture[] = [
  { number: '00000007', name: 'THETA STEADY LTD', nextDue: '2025-12-31' },
  { number: '00000008', name: 'IOTA CLOSING LTD', nextDue: '2025-09-30' },
  { number: '00000009', name: 'KAPPA ORDINARY LTD', nextDue: '2025-09-30' },
];
const extraFilings: FilingFixture[] = [
  {
    number: '00000007',
    name: 'THETA STEADY LTD',
    balanceSheetDate: '2024-12-31',
    current: { netAssets: 300_000, cash: 100_000 },
  },
  {
    number: '00000009',
    name: 'KAPPA ORDINARY LTD',
    balanceSheetDate: '2024-12-31',
    current: { netAssets: 200_000, cash: 50_000 },
  },
];

/** The register a month later: the changes below, every other company as it was. */
const REGISTER_LATER = '2025-07-01';
const changes: Record<string, Partial<RegisterFixture>> = {
  '00000001': { charges: 3, outstanding: 2 }, // two new charges
  '00000002': { status: 'Liquidation' },
  '00000005': { nextDue: '2025-06-30' }, // a shortened period: due before the day we ask
  '00000008': { status: 'Dissolved' },
};
// It knows of the accounts to 2024-12-31 published in June; the due dates are left as they were, so
// that they pass (a register that lagged the accounts would not make them overdue: isAccountsOverdue).
const laterRegister: RegisterFixture[] = [...companies, ...extraCompanies].map((c) => ({
  ...c,
  lastMadeUp: '2024-12-31',
  ...changes[c.number],
}));

/** Newer accounts in a later daily file. */
const ACCOUNTS_LATER = '2025-07-10';
const laterFilings: FilingFixture[] = [
  // Net assets £150k → -£20k; cash £80k → £60k (down 25%: not an alert).
  {
    number: '00000003',
    name: 'GAMMA CAFE LTD',
    balanceSheetDate: '2025-03-31',
    current: { netAssets: -20_000, cash: 60_000 },
  },
  // Cash £3m → £1.5m; net assets up.
  {
    number: '00000004',
    name: 'DELTA HOLDINGS PLC',
    balanceSheetDate: '2025-03-31',
    current: { netAssets: 9_500_000, cash: 1_500_000 },
  },
  // Nothing remarkable: net assets up, cash down 10%.
  {
    number: '00000009',
    name: 'KAPPA ORDINARY LTD',
    balanceSheetDate: '2025-03-31',
    current: { netAssets: 210_000, cash: 45_000 },
  },
];

const ALL = [
  '00000001',
  '00000002',
  '00000003',
  '00000004',
  '00000005',
  '00000006',
  '00000007',
  '00000008',
  '00000009',
];

/** Everything the pro key's list should report on 2025-07-20, in the contract's order. */
const expected = [
  {
    company_number: '00000002',
    name: 'BETA BUILDERS LTD',
    kind: 'status_change',
    severity: 'high',
    message: 'Status changed from Active to Liquidation.',
    detected: REGISTER_LATER,
    from: 'Active',
    to: 'Liquidation',
  },
  {
    company_number: '00000003',
    name: 'GAMMA CAFE LTD',
    kind: 'negative_net_assets',
    severity: 'high',
    message: 'Net assets fell from £150k to -£20k (2025-03-31).',
    detected: ACCOUNTS_LATER,
    from: 150_000,
    to: -20_000,
  },
  {
    company_number: '00000008',
    name: 'IOTA CLOSING LTD',
    kind: 'status_change',
    severity: 'high',
    message: 'Status changed from Active to Dissolved.',
    detected: REGISTER_LATER,
    from: 'Active',
    to: 'Dissolved',
  },
  {
    company_number: '00000001',
    name: 'ACME WIDGETS LIMITED',
    kind: 'new_charges',
    severity: 'medium',
    message: '2 new charges registered: 3 in all, was 1 (2 outstanding).',
    detected: REGISTER_LATER,
    from: 1,
    to: 3,
  },
  {
    company_number: '00000003',
    name: 'GAMMA CAFE LTD',
    kind: 'financial_deterioration',
    severity: 'medium',
    message: 'Net assets fell 113% from £150k (2024-12-31) to -£20k (2025-03-31).',
    detected: ACCOUNTS_LATER,
    from: 150_000,
    to: -20_000,
  },
  {
    company_number: '00000004',
    name: 'DELTA HOLDINGS PLC',
    kind: 'financial_deterioration',
    severity: 'medium',
    message: 'Cash fell 50% from £3m (2024-12-31) to £1.5m (2025-03-31).',
    detected: ACCOUNTS_LATER,
    from: 3_000_000,
    to: 1_500_000,
  },
  {
    company_number: '00000005',
    name: 'EPSILON TRADING LTD',
    kind: 'overdue_accounts',
    severity: 'medium',
    message: 'Accounts were due by 2025-06-30 and have not been filed.',
    detected: '2025-07-01',
    from: '2025-07-31',
    to: '2025-06-30',
  },
  {
    company_number: '00000003',
    name: 'GAMMA CAFE LTD',
    kind: 'new_accounts',
    severity: 'info',
    message: 'New accounts made up to 2025-03-31, published 2025-07-10: net assets -£20k, cash £60k.',
    detected: ACCOUNTS_LATER,
    from: '2024-12-31',
    to: '2025-03-31',
  },
  {
    company_number: '00000004',
    name: 'DELTA HOLDINGS PLC',
    kind: 'new_accounts',
    severity: 'info',
    message: 'New accounts made up to 2025-03-31, published 2025-07-10: net assets £9.5m, cash £1.5m.',
    detected: ACCOUNTS_LATER,
    from: '2024-12-31',
    to: '2025-03-31',
  },
  {
    company_number: '00000009',
    name: 'KAPPA ORDINARY LTD',
    kind: 'new_accounts',
    severity: 'info',
    message: 'New accounts made up to 2025-03-31, published 2025-07-10: net assets £210k, cash £45k.',
    detected: ACCOUNTS_LATER,
    from: '2024-12-31',
    to: '2025-03-31',
  },
];

for (const setup of setups) {
  describe(`alerts on ${setup.name}`, () => {
    let world: World;
    /** Watches all nine companies, added on two days before the later loads. */
    let pro: string;
    /** Watches only companies the later loads leave alone (ZETA was overdue already when added). */
    let quiet: string;
    /** Adds companies after the later loads: its snapshots already hold the changes. */
    let late: string;

    const alerts = async (key: string) => {
      const answer = await call(world, '/v1/alerts?format=json', { key });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body;
    };
    const add = async (key: string, numbers: string[]) => {
      const answer = await call(world, '/v1/watchlist/add', { key, body: { company_numbers: numbers } });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.match(markdown(answer), new RegExp(`Added \\(${numbers.length}\\)`));
    };

    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await loadFixtures(world);
      await world.loadRegister(extraCompanies, '2025-01-01');
      await world.loadAccounts(extraFilings, '2025-05-30');
      pro = await world.issueKey('pro');
      quiet = await world.issueKey('free');
      late = await world.issueKey('pro');
    });
    after(() => world.close());

    test('before anything changes, a watched list has no alerts; since is 30 days before the day asked', async () => {
      await add(pro, ['1', '2', '3', '4', '5']); // 2025-06-15
      world.setNow(new Date('2025-06-20T09:30:00Z'));
      await add(pro, ['6', '7', '8', '9']);
      await add(quiet, ['00000006', '00000007']);
      const body = await alerts(pro);
      assert.deepEqual(body.alerts, []);
      assert.equal(body.since, '2025-05-21');
      assert.equal(body.severity, 'info');
      assert.deepEqual(body.watched, ALL);
      const list = (await call(world, '/v1/watchlist?format=json', { key: pro })).body;
      assert.deepEqual(
        list.companies.map((c: { company_number: string; added: string }) => [c.company_number, c.added.slice(0, 10)]),
        ALL.map((n) => [n, n <= '00000005' ? '2025-06-15' : '2025-06-20']),
      );
      assert.equal(markdown(await call(world, '/v1/alerts', { key: pro })).split('\n\n')[1], 'No changes.');
    });

    test('a later register snapshot and later accounts, through the loaders, raise each kind for the right company', async () => {
      await world.loadRegister(laterRegister, REGISTER_LATER);
      await world.loadAccounts(laterFilings, ACCOUNTS_LATER);
      world.setNow(new Date('2025-07-20T08:00:00Z'));

      const body = await alerts(pro);
      assert.equal(body.since, '2025-06-20');
      assert.deepEqual(body.watched, ALL);
      assert.deepEqual(body.alerts, expected);
      assert.ok(body.source);
      assert.ok(body.note);
      // Unchanged companies (ZETA, overdue already when added with the same due date; THETA) say nothing.
      const alerted = new Set(body.alerts.map((a: { company_number: string }) => a.company_number));
      assert.ok(!alerted.has('00000006') && !alerted.has('00000007'));
    });

    test('the order is severity, then company number, then kind', async () => {
      const rank = { high: 0, medium: 1, low: 2, info: 3 } as Record<string, number>;
      const { alerts: list } = await alerts(pro);
      const keys = list.map((a: { severity: string; company_number: string }) => [rank[a.severity], a.company_number]);
      const sorted = [...keys].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
      assert.deepEqual(keys, sorted);
      assert.deepEqual(
        list.map((a: { severity: string }) => a.severity),
        ['high', 'high', 'high', 'medium', 'medium', 'medium', 'medium', 'info', 'info', 'info'],
      );
    });

    test('since and a minimum severity (info the lowest) select among them, over REST and MCP', async () => {
      const selected = async (query: string) => {
        const answer = await call(world, `/v1/alerts?format=json&${query}`, { key: pro });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        return answer.body.alerts as typeof expected;
      };
      assert.deepEqual(await selected('severity=info'), expected);
      assert.deepEqual(
        await selected('severity=low'),
        expected.filter((a) => a.severity !== 'info'),
      );
      assert.deepEqual(
        await selected('severity=medium'),
        expected.filter((a) => a.severity === 'high' || a.severity === 'medium'),
      );
      assert.deepEqual(
        await selected('severity=high'),
        expected.filter((a) => a.severity === 'high'),
      );
      assert.deepEqual(
        await selected(`since=${ACCOUNTS_LATER}`),
        expected.filter((a) => a.detected >= ACCOUNTS_LATER),
      );
      assert.deepEqual(
        await selected(`since=${ACCOUNTS_LATER}&severity=medium`),
        expected.filter((a) => a.detected >= ACCOUNTS_LATER && a.severity !== 'info'),
      );
      assert.deepEqual(await selected('since=2099-01-01'), []);
      const body = (await call(world, '/v1/alerts?format=json&since=2099-01-01', { key: pro })).body;
      assert.equal(body.since, '2099-01-01', 'since in the answer is the one applied');
      assert.equal((await call(world, '/v1/alerts?format=json&severity=medium', { key: pro })).body.severity, 'medium');
      for (const [query, param] of [
        ['since=2025-02-30', 'since'],
        ['since=yesterday', 'since'],
        ['severity=critical', 'severity'],
      ]) {
        const answer = await call(world, `/v1/alerts?${query}`, { key: pro });
        assert.equal(answer.status, 400, query);
        assert.match(answer.body.error, new RegExp(`"${param}"`));
      }
      const client = await connectMcp(world.url, pro);
      try {
        const result = (await client.callTool({
          name: 'get_alerts',
          arguments: { since: ACCOUNTS_LATER, severity: 'medium' },
        })) as CallToolResult;
        assert.equal(result.isError, undefined);
        const rows = (result.content[0] as { text: string }).text
          .split('\n')
          .filter((line) => /^\| (high|medium|low|info) \|/.test(line));
        assert.deepEqual(
          rows.map((row) => row.split(' | ')[3]),
          expected.filter((a) => a.detected >= ACCOUNTS_LATER && a.severity !== 'info').map((a) => a.kind),
        );
      } finally {
        await client.close();
      }
    });

    test('detected is read from the data: asking on another day gives the same alerts', async () => {
      const first = await alerts(pro);
      world.setNow(new Date('2025-07-25T23:59:00Z'));
      const again = await alerts(pro);
      assert.deepEqual(again.alerts, first.alerts);
      world.setNow(new Date('2025-07-20T08:00:00Z'));
    });

    test('without since, alerts detected more than 30 days before the day asked are left out', async () => {
      world.setNow(new Date('2025-08-05T12:00:00Z'));
      try {
        const body = await alerts(pro);
        assert.equal(body.since, '2025-07-06');
        assert.deepEqual(
          body.alerts,
          expected.filter((a) => a.detected >= '2025-07-06'),
        );
        assert.ok(body.alerts.length < expected.length, 'the register alerts of 2025-07-01 are older');
        assert.deepEqual(
          (await call(world, '/v1/alerts?format=json&since=2025-06-01', { key: pro })).body.alerts,
          expected,
        );
      } finally {
        world.setNow(new Date('2025-07-20T08:00:00Z'));
      }
    });

    test('the Markdown shape lists every alert in the same order', async () => {
      const text = markdown(await call(world, '/v1/alerts', { key: pro }));
      assert.match(text, /^# Alerts since 2025-06-20 on 9 watched companies\n\n/);
      assert.match(text, /\n_Severity info and above \(all\); detected on or after 2025-06-20\._\n/);
      const rows = text.split('\n').filter((line) => /^\| (high|medium|low|info) \|/.test(line));
      assert.deepEqual(
        rows,
        expected.map(
          (a) => `| ${a.severity} | ${a.company_number} | ${a.name} | ${a.kind} | ${a.message} | ${a.detected} |`,
        ),
      );
      assert.match(text, /\| Severity \| Number \| Name \| Alert \| Detail \| Detected \|/);
    });

    test('a key whose companies did not change gets alerts: []', async () => {
      const body = await alerts(quiet);
      assert.deepEqual(
        { since: body.since, watched: body.watched, alerts: body.alerts },
        { since: '2025-06-20', watched: ['00000006', '00000007'], alerts: [] }, // asked on 2025-07-20
      );
      assert.match(markdown(await call(world, '/v1/alerts', { key: quiet })), /on 2 watched companies\n\nNo changes\./);
    });

    test('companies added after the changes are snapshotted with them: no alerts', async () => {
      await add(late, ['2', '3', '4', '5', '8']);
      const body = await alerts(late);
      assert.deepEqual(
        { since: body.since, watched: body.watched, alerts: body.alerts },
        { since: '2025-06-20', watched: ['00000002', '00000003', '00000004', '00000005', '00000008'], alerts: [] },
      );
    });

    test('an adding key keeps its first snapshot: adding again changes nothing', async () => {
      const answer = await call(world, '/v1/watchlist/add', { key: pro, body: { company_numbers: ['2', '3'] } });
      assert.match(markdown(answer), /Already watched \(2\):\*\* 00000002, 00000003/);
      assert.deepEqual((await alerts(pro)).alerts, expected);
    });

    test('a due date passing after the add raises overdue_accounts, detected the day after it', async () => {
      world.setNow(new Date('2025-10-01T00:00:00Z'));
      // Since July: the register's alerts of 2025-07-01 are older than the default 30 days.
      const body = (await call(world, '/v1/alerts?format=json&since=2025-07-01', { key: pro })).body;
      const acme = body.alerts.filter((a: { company_number: string }) => a.company_number === '00000001');
      assert.deepEqual(
        acme.map((a: { kind: string; severity: string; detected: string; from: unknown; to: unknown }) => [
          a.kind,
          a.severity,
          a.detected,
          a.from,
          a.to,
        ]),
        [
          ['overdue_accounts', 'medium', '2025-10-01', '2025-09-30', '2025-09-30'],
          ['new_charges', 'medium', REGISTER_LATER, 1, 3],
        ],
      );
      // A dissolved company cannot be overdue; the quiet key's companies are still quiet.
      assert.ok(
        !body.alerts.some(
          (a: { company_number: string; kind: string }) =>
            a.company_number === '00000008' && a.kind === 'overdue_accounts',
        ),
      );
      assert.deepEqual((await alerts(quiet)).alerts, []);
      world.setNow(new Date('2025-07-20T08:00:00Z'));
    });

    test('removing a company drops its alerts and its snapshot', async () => {
      await call(world, '/v1/watchlist/remove', { key: pro, body: { company_numbers: ['3'] } });
      const body = await alerts(pro);
      assert.deepEqual(
        body.watched,
        ALL.filter((n) => n !== '00000003'),
      );
      assert.deepEqual(
        body.alerts,
        expected.filter((a) => a.company_number !== '00000003'),
      );
    });
  });
}
