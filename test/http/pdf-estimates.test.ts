/**
 * Estimates from scanned PDF accounts in the lookup, over real HTTP (PGlite, Postgres search):
 * each listed as its own accounts entry marked `source.kind: "pdf_ocr"` with its document id and
 * a confidence per figure, iXBRL entries marked `ixbrl`; a balance sheet date with iXBRL figures
 * keeps them; `latest`, signals, risk band and trajectory read estimates only with
 * include_estimates=true, and the answer says so. In JSON, Markdown, over MCP and on the Company page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createPdfEstimateStore } from '../../src/adapters/postgres/pdf-estimate-store.ts';
import { emptyFigures } from '../../src/domain/figures.ts';
import { call, markdown, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { pdfEstimate } from '../support/pdf-estimate-fixture.ts';
import { connectMcp } from '../support/mcp-client.ts';

const PAPER = '50000001';
const MIXED = '50000002';

interface Entry {
  balance_sheet_date: string;
  figures: Record<string, number | null>;
  source: { kind: string; zip: string | null; file: string };
  document_id: string | null;
  confidence: Record<string, string> | null;
}

describe('estimates from scanned PDFs in the lookup', () => {
  let world: World;
  let key: string;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    await world.loadRegister(
      [
        { number: PAPER, name: 'PAPER FILER LIMITED', nextDue: '2025-12-31' },
        { number: MIXED, name: 'MIXED FILER LTD', nextDue: '2025-09-30' },
      ],
      '2025-01-01',
    );
    await world.loadAccounts(
      [
        {
          number: MIXED,
          name: 'MIXED FILER LTD',
          balanceSheetDate: '2024-12-31',
          current: { netAssets: 100_000, cash: 40_000 },
          prior: { netAssets: 80_000, cash: 30_000 },
        },
      ],
      '2025-06-01',
    );
    const estimates = createPdfEstimateStore(world.sql);
    await estimates.savePdfEstimate(
      pdfEstimate(PAPER, 'paper-2024', '2024-03-31', {
        current: { ...emptyFigures(), net_assets: -20_000, cash: 5_000 },
        confidence: { net_assets: 'high', cash: 'medium' },
        warnings: ['the employees note was not found'],
      }),
    );
    await estimates.savePdfEstimate(
      pdfEstimate(PAPER, 'paper-2023', '2023-03-31', {
        current: { ...emptyFigures(), net_assets: 50_000, cash: 9_000 },
        confidence: { net_assets: 'high', cash: 'low' },
      }),
    );
    // The same date as the iXBRL filing (a worse reading of it), and a year before any iXBRL.
    await estimates.savePdfEstimate(
      pdfEstimate(MIXED, 'mixed-2024', '2024-12-31', {
        current: { ...emptyFigures(), net_assets: 999 },
        confidence: { net_assets: 'low' },
      }),
    );
    await estimates.savePdfEstimate(
      pdfEstimate(MIXED, 'mixed-2022', '2022-12-31', {
        current: { ...emptyFigures(), net_assets: 60_000 },
        confidence: { net_assets: 'medium' },
      }),
    );
    key = await world.issueKey('pro');
  });
  after(() => world.close());

  test('each estimate is its own entry, marked pdf_ocr with its document and a confidence per figure', async () => {
    const answer = await call(world, `/v1/company?number=${PAPER}&format=json`, { key });
    assert.equal(answer.status, 200);
    const accounts = answer.body.accounts as Entry[];
    assert.deepEqual(
      accounts.map((a) => [a.balance_sheet_date, a.source.kind, a.document_id]),
      [
        ['2024-03-31', 'pdf_ocr', 'paper-2024'],
        ['2023-03-31', 'pdf_ocr', 'paper-2023'],
      ],
    );
    assert.equal(accounts[0]!.figures.net_assets, -20_000);
    assert.equal(accounts[0]!.confidence?.net_assets, 'high');
    assert.equal(accounts[0]!.confidence?.cash, 'medium');
    assert.deepEqual(accounts[0]!.confidence, { net_assets: 'high', cash: 'medium' }, 'no grade where none was read');
  });

  test('without include_estimates, latest, signals and risk band read no estimate, and the signal says one exists', async () => {
    const { body } = await call(world, `/v1/company?number=${PAPER}&format=json`, { key });
    assert.equal(body.latest, null);
    assert.equal(body.estimates_used, false);
    assert.equal(body.risk_band, 'unknown');
    const signal = body.signals.find((s: { code: string }) => s.code === 'no_machine_readable_accounts');
    assert.match(signal.message, /2 sets of accounts are estimated from scanned PDFs \(include_estimates=true/);
    assert.equal(body.trajectory.direction, 'insufficient_data');
  });

  test('include_estimates=true: latest, signals and trajectory read the estimates, and the answer says so', async () => {
    const { body } = await call(world, `/v1/company?number=${PAPER}&include_estimates=true&format=json`, { key });
    assert.equal(body.estimates_used, true);
    assert.equal(body.latest.balance_sheet_date, '2024-03-31');
    assert.equal(body.latest.source.kind, 'pdf_ocr');
    const codes = body.signals.map((s: { code: string }) => s.code);
    assert.ok(codes.includes('negative_net_assets'), codes.join());
    assert.ok(!codes.includes('no_machine_readable_accounts'));
    assert.notEqual(body.risk_band, 'unknown');
    assert.equal(body.trajectory.periods, 2);
  });

  test('a balance sheet date with iXBRL figures keeps them: its estimate is not listed', async () => {
    for (const include of [false, true]) {
      const { body } = await call(world, `/v1/company?number=${MIXED}&include_estimates=${include}&format=json`, {
        key,
      });
      const accounts = body.accounts as Entry[];
      assert.deepEqual(
        accounts.map((a) => [a.balance_sheet_date, a.source.kind, a.figures.net_assets]),
        [
          ['2024-12-31', 'ixbrl', 100_000],
          ['2023-12-31', 'ixbrl', 80_000],
          ['2022-12-31', 'pdf_ocr', 60_000],
        ],
      );
      assert.equal(accounts[0]!.document_id, null);
      assert.equal(accounts[0]!.confidence, null);
      assert.equal(body.latest.source.kind, 'ixbrl');
      assert.equal(body.trajectory.periods, include ? 3 : 2);
      assert.equal(body.estimates_used, include, 'an estimate was read only when asked');
    }
  });

  test('Markdown marks each estimate, with its confidence, and says when the rules read them', async () => {
    const plain = markdown(await call(world, `/v1/company?number=${PAPER}`, { key }));
    assert.match(plain, /\| 2024-03-31 \(estimated from a scanned PDF\) \|/);
    assert.match(plain, /## Estimated from scanned PDFs/);
    assert.match(plain, /\| 2024-03-31 \| paper-2024 \| net\\?_assets high; cash medium \|/);
    assert.doesNotMatch(plain, /Estimates used/);
    const used = markdown(await call(world, `/v1/company?number=${PAPER}&include_estimates=true`, { key }));
    assert.match(used, /\*\*Estimates used:\*\*/);
    assert.match(used, /## Latest figures \(2024-03-31, estimated from a scanned PDF\)/);
    assert.match(used, /\| net\\?_assets \| -£20k \| high \|/);
  });

  test('over MCP: the same structured answer and Markdown as REST', async () => {
    const client = await connectMcp(world.url, key);
    try {
      const result = (await client.callTool({
        name: 'lookup_company',
        arguments: { company_number: PAPER, include_estimates: true },
      })) as CallToolResult;
      const rest = await call(world, `/v1/company?number=${PAPER}&include_estimates=true&format=json`, { key });
      assert.deepEqual(result.structuredContent, rest.body);
      const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
      assert.equal(text, markdown(await call(world, `/v1/company?number=${PAPER}&include_estimates=true`, { key })));
    } finally {
      await client.close();
    }
  });

  test('a bad include_estimates is a 400 naming it', async () => {
    const bad = await call(world, `/v1/company?number=${PAPER}&include_estimates=perhaps`, { key });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /include_estimates/);
  });

  test('the Company page marks the estimated years and gives their confidence', async () => {
    const response = await fetch(`${world.url}/company/${PAPER}`);
    assert.equal(response.status, 200);
    const page = await response.text();
    assert.match(page, /<strong>Estimated from a scanned PDF:<\/strong> 31 March 2024, 31 March 2023\./);
    assert.match(page, /The risk band and trajectory above do not read them\./);
    assert.match(page, /<tr data-date="2024-03-31" class="estimate">/);
    assert.match(page, /Estimated from a scanned PDF \(confidence: net assets high, cash medium\)/);
    assert.match(page, /Document API id <code>paper-2024<\/code>/);
  });

  test('the Company page offers the estimates to the risk band and takes them back; a bad value is a 400 page', async () => {
    const without = await (await fetch(`${world.url}/company/${PAPER}`)).text();
    const offer = new RegExp(
      `<a href="/company/${PAPER}\\?include_estimates=true">Read them in the risk band and trajectory</a>`,
    );
    assert.match(without, offer);
    assert.match(without, /Risk band: <span class="band band-unknown">/);

    const response = await fetch(`${world.url}/company/${PAPER}?include_estimates=true`);
    assert.equal(response.status, 200);
    const withEstimates = await response.text();
    assert.match(withEstimates, /The risk band and trajectory above read them\./);
    assert.match(withEstimates, new RegExp(`<a href="/company/${PAPER}">Leave the estimates out</a>`));
    assert.match(withEstimates, /Risk band: <span class="band band-(low|medium|high)">/);

    const bad = await fetch(`${world.url}/company/${PAPER}?include_estimates=perhaps`);
    assert.equal(bad.status, 400);
    assert.match(bad.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await bad.text(), /Invalid &quot;include_estimates&quot;: true or false, not &quot;perhaps&quot;\./);
  });
});
