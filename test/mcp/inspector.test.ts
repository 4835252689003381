/**
 * The MCP endpoint through a client nobody here wrote: the MCP Inspector's command line
 * (`@modelcontextprotocol/inspector`, a client of its own on the v2 SDK), one process per call,
 * against the embedded default (PGlite, Postgres search). It lists the tools, with its --strict
 * check of the schemas' portability finding nothing; it calls every tool with a key (in the header,
 * or as ?key=), checking each structuredContent against the tool's outputSchema itself (it fails a
 * call whose answer does not match); and a refusal reaches it as a tool error with the REST text.
 * Each structuredContent is the JSON REST answers with format=json.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { NOTE, SOURCE, withEnvelope } from '../../src/operations/envelope.ts';
import { OPERATIONS } from '../../src/operations/index.ts';
import { FIXTURES_AS_OF, loadFixtures, NOW } from '../support/api-fixtures.ts';
import { addFixtureOfficer, FIXTURE_OFFICER_ID } from '../support/officer-records.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { restJson } from '../support/rest-json.ts';

const PACKAGE = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/inspector/', import.meta.url));
/** Its `mcp-inspector` command, as npx would run it. */
const INSPECTOR = join(
  PACKAGE,
  (JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin[
    'mcp-inspector'
  ]!,
);
/** The Inspector's exit status for a tool result with isError (its `tool_is_error`). */
const TOOL_IS_ERROR = 5;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout as JSON (`--format json`): `{ result }`. */
  json: { result?: Record<string, unknown> };
}

const ToolCallShape = (result: Record<string, unknown> | undefined) =>
  result as { content: { type: string; text: string }[]; structuredContent?: unknown; isError?: boolean };

describe('the MCP Inspector CLI against the service (PGlite, Postgres search)', () => {
  let world: World;
  let key: string;
  let home: string;
  const called = new Set<string>();
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    await loadFixtures(world);
    await addFixtureOfficer(world.sql);
    key = await world.issueKey('pro');
    // The Inspector keeps a catalog and client settings under ~/.mcp-inspector: a home of its own.
    home = mkdtempSync(join(tmpdir(), 'ukcd-inspector-'));
  });
  after(async () => {
    await world.close();
    rmSync(home, { recursive: true, force: true });
  });

  /** `mcp-inspector --cli <target> … --format json`, with the key in the header unless told otherwise. */
  function inspector(args: string[], auth: 'header' | 'query' | 'none' = 'header'): Promise<Run> {
    const target = `${world.url}/mcp${auth === 'query' ? `?key=${key}` : ''}`;
    const argv = [INSPECTOR, '--cli', target, '--transport', 'http', '--format', 'json', ...args];
    if (auth === 'header') argv.push('--header', `Authorization: Bearer ${key}`);
    return new Promise((done, fail) => {
      const child = spawn(process.execPath, argv, {
        env: { PATH: process.env.PATH, TMPDIR: tmpdir(), HOME: home, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 120_000,
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', fail);
      child.on('close', (code) => {
        let json: Run['json'] = {};
        try {
          json = JSON.parse(stdout) as Run['json'];
        } catch {
          // asserted by the caller, with stdout and stderr in the message
        }
        done({ code, stdout, stderr, json });
      });
    });
  }

  /** A successful tools/call: exit 0, Markdown ending with the source and note, and its structuredContent. */
  async function callTool(name: string, args: Record<string, unknown>, auth: 'header' | 'query' = 'header') {
    const run = await inspector(
      ['--method', 'tools/call', '--tool-name', name, '--tool-args-json', JSON.stringify(args)],
      auth,
    );
    assert.equal(run.code, 0, `${name}: ${run.stdout} ${run.stderr}`);
    const result = ToolCallShape(run.json.result);
    assert.equal(result.isError ?? false, false, name);
    assert.equal(result.content.length, 1, name);
    assert.ok(result.content[0]!.text.endsWith(`_Source: ${SOURCE}._  \n_${NOTE}_\n`), name);
    assert.ok(result.structuredContent, `${name} returns structuredContent`);
    called.add(name);
    return { markdown: result.content[0]!.text, structured: result.structuredContent };
  }

  const operation = (name: string) => OPERATIONS.find((o) => o.name === name)!;

  test('tools/list without a key: every operation, with its outputSchema and annotations; the strict schema check finds nothing', async () => {
    const run = await inspector(['--method', 'tools/list', '--strict'], 'none');
    assert.equal(run.code, 0, `${run.stdout} ${run.stderr}`);
    // --strict writes each portability finding to stderr (and would exit 6 on an error).
    assert.equal(run.stderr.trim(), '', run.stderr);
    const tools = (run.json.result as { tools: Record<string, unknown>[] }).tools;
    assert.deepEqual(
      tools.map((t) => t.name),
      OPERATIONS.map((o) => o.name),
    );
    for (const tool of tools) {
      const name = tool.name as string;
      assert.equal((tool.outputSchema as { type: string }).type, 'object', name);
      assert.deepEqual(
        tool.annotations,
        {
          title: operation(name).title,
          readOnlyHint: ![
            'watch_add',
            'watch_remove',
            'webhook_create',
            'webhook_test',
            'webhook_rotate_secret',
            'webhook_retry_delivery',
            'webhook_delete',
          ].includes(name),
          destructiveHint: ['webhook_delete', 'watch_remove', 'webhook_rotate_secret'].includes(name),
          idempotentHint: !['webhook_create', 'webhook_test', 'webhook_rotate_secret'].includes(name),
          openWorldHint: ['webhook_create', 'webhook_test', 'webhook_retry_delivery'].includes(name),
        },
        name,
      );
    }
  });

  test('every read tool, called by the Inspector: structuredContent is what REST answers with format=json', async () => {
    const reads: [string, Record<string, unknown>][] = [
      ['lookup_company', { company_number: '00000001' }],
      ['lookup_companies', { company_numbers: ['1', '6', '99'] }],
      ['search_by_name', { name: 'acme widgets', limit: 5 }],
      ['search_companies', { post_town: 'leeds', min_net_assets: 100_000, sort: 'name' }],
      ['search_people', { name: 'smith', limit: 5 }],
      ['get_ownership', { company_number: '1', depth: 2 }],
      ['get_officers', { company_number: '1', include_resigned: true }],
      ['get_appointments', { officer_id: FIXTURE_OFFICER_ID }],
      ['compare_companies', { company_a: '1', company_b: '00000004' }],
      ['market_stats', { post_town: 'leeds' }],
      ['find_triggers', { trigger: 'cash_rich' }],
      ['recent_changes', { days: 30, limit: 2 }],
    ];
    // One process each, run together: most of each call is the Inspector starting.
    const answers = await Promise.all(reads.map(([name, args]) => callTool(name, args)));
    for (const [index, [name, args]] of reads.entries()) {
      const { markdown, structured } = answers[index]!;
      assert.deepEqual(structured, await restJson(world, key, operation(name), args), name);
      if (name === 'lookup_company') assert.match(markdown, /^# ACME WIDGETS LIMITED \(00000001\)/);
    }
    // --tool-arg key=value, the Inspector's other way of passing arguments (values read as JSON).
    const run = await inspector([
      '--method',
      'tools/call',
      '--tool-name',
      'search_by_name',
      '--tool-arg',
      'name=gamma',
      'limit=1',
    ]);
    assert.equal(run.code, 0, run.stderr);
    called.add('search_by_name');
    assert.deepEqual(
      ToolCallShape(run.json.result).structuredContent,
      await restJson(world, key, operation('search_by_name'), { name: 'gamma', limit: 1 }),
    );
  });

  test('the watchlist through the Inspector: add (key as ?key=), list, alerts, remove; then a webhook endpoint and every webhook tool on it', async () => {
    const added = await callTool('watch_add', { company_numbers: ['1', '2', '99'] }, 'query');
    const { companies, ...lists } = added.structured as { companies: { company_number: string }[] };
    assert.deepEqual(
      lists,
      withEnvelope(
        {
          added: ['00000001', '00000002'],
          already_watched: [],
          not_found: ['00000099'],
          over_limit: [],
        },
        FIXTURES_AS_OF,
      ),
    );
    assert.deepEqual(
      companies.map((c) => c.company_number),
      ['00000001', '00000002'],
    );
    assert.match(added.markdown, /Added \(2\):\*\* 00000001, 00000002/);
    const [list, alerts] = await Promise.all([callTool('watch_list', {}), callTool('get_alerts', {})]);
    assert.deepEqual(list.structured, await restJson(world, key, operation('watch_list'), {}));
    assert.deepEqual(alerts.structured, await restJson(world, key, operation('get_alerts'), {}));
    const removed = await callTool('watch_remove', { company_numbers: ['2', '5'] });
    assert.deepEqual(
      removed.structured,
      withEnvelope({ removed: ['00000002'], not_watched: ['00000005'] }, FIXTURES_AS_OF),
    );
    const created = await callTool('webhook_create', { url: 'http://127.0.0.1:9/hook' });
    assert.match(created.markdown, /Signing secret \(shown once, keep it\):\*\* `whsec_/);
    const endpoints = await callTool('webhook_list', {});
    assert.deepEqual(endpoints.structured, await restJson(world, key, operation('webhook_list'), {}));
    const id = (created.structured as { endpoint: { id: string } }).endpoint.id;
    const tested = await callTool('webhook_test', { id });
    const delivery = (tested.structured as { delivery_id: string }).delivery_id;
    const [deliveries, retried, rotated] = await Promise.all([
      callTool('webhook_deliveries', { id }),
      callTool('webhook_retry_delivery', { id, delivery }),
      callTool('webhook_rotate_secret', { id }),
    ]);
    assert.deepEqual(
      (deliveries.structured as { deliveries: { id: string }[] }).deliveries.map((d) => d.id),
      [delivery],
    );
    assert.match(retried.markdown, /is due now/);
    assert.match(rotated.markdown, /Signing secret \(shown once, keep it\):\*\* `whsec_/);
    const deleted = await callTool('webhook_delete', { id });
    assert.deepEqual(deleted.structured, withEnvelope({ id, deleted: true }, FIXTURES_AS_OF));
  });

  test('every tool has been called; a refusal reaches the Inspector as a tool error with the REST text', async () => {
    assert.deepEqual([...called].sort(), OPERATIONS.map((o) => o.name).sort());
    const [noKey, notFound] = await Promise.all([
      inspector(['--method', 'tools/call', '--tool-name', 'watch_list'], 'none'),
      inspector([
        '--method',
        'tools/call',
        '--tool-name',
        'lookup_company',
        '--tool-args-json',
        '{"company_number":"99"}',
      ]),
    ]);
    for (const [run, text] of [
      [noKey, 'Missing API key. Send Authorization: Bearer <API_KEY>.'],
      [notFound, 'Company 00000099 not found.'],
    ] as const) {
      assert.equal(run.code, TOOL_IS_ERROR, `${run.stdout} ${run.stderr}`);
      const result = ToolCallShape(run.json.result);
      assert.equal(result.isError, true);
      assert.deepEqual(result.content, [{ type: 'text', text }]);
      assert.equal(result.structuredContent, undefined);
    }
  });
});
