/**
 * Ownership end to end over real HTTP and MCP, on the embedded default and on PostgreSQL with
 * Elasticsearch: PSC records written from snapshot lines in the real format (two of them real
 * published records) read by the loader's own parsePscLine; lookup_company's controllers and
 * statements (never an address or a day of birth), include_ceased; get_ownership up, down and
 * both along a three-level chain, a cycle reported and not looped, an overseas parent, a
 * super-secure PSC, statements withholding details and of no registrable PSC, a company without
 * PSC records, the bounds of depth and direction, 404, the Markdown, and the MCP tool.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { OPERATIONS } from '../../src/operations/index.ts';
import { parsePscLine } from '../../src/ownership/psc-line.ts';
import type { PscRecord } from '../../src/domain/psc.ts';
import { call, markdown, NOW } from '../support/api-fixtures.ts';
import type { Answer } from '../support/api-fixtures.ts';
import type { RegisterFixture, World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';
import { restJson } from '../support/rest-json.ts';
import { connectMcp } from '../support/mcp-client.ts';

const setups = [
  { name: 'embedded (PGlite, Postgres search)', store: testStores[0]!, search: 'postgres' as const },
  { name: 'PostgreSQL and Elasticsearch', store: testStores[1]!, search: 'elasticsearch' as const },
];

const REGISTER: RegisterFixture[] = [
  { number: '10000001', name: 'HOLDCO TOP LIMITED' },
  { number: '10000002', name: 'MIDCO LIMITED' },
  { number: '10000003', name: 'OPCO LIMITED' },
  { number: '10000004', name: 'SUBCO LIMITED', status: 'Liquidation' },
  { number: '10000005', name: 'CIRCLE A LIMITED' },
  { number: '10000006', name: 'CIRCLE B LIMITED' },
  { number: '10000007', name: 'UK ARM LIMITED' },
  { number: '10000009', name: 'UNCONFIRMED LIMITED' },
  { number: '10000010', name: 'NOBODY LIMITED' },
  { number: '10000011', name: 'NO RECORDS LIMITED' },
  { number: '10000012', name: 'VERIFY LIMITED' },
  // The real records' companies.
  { number: '07434180', name: 'HITCHINS SUBSIDIARY LIMITED' },
  { number: '00686734', name: 'ROBERT HITCHINS LIMITED' },
  { number: '02443921', name: 'SECURE LIMITED' },
];

/** A snapshot line as Companies House publishes it. */
function line(companyNumber: string, id: string, data: Record<string, unknown>): string {
  const kind = String(data.kind);
  const segment = kind.startsWith('persons-with-significant-control-statement')
    ? 'persons-with-significant-control-statements'
    : 'persons-with-significant-control/x';
  return JSON.stringify({
    company_number: companyNumber,
    data: { ...data, etag: `etag-${id}`, links: { self: `/company/${companyNumber}/${segment}/${id}` } },
  });
}

function ukParent(child: string, parent: string, name: string): string {
  return line(child, `corp-${parent}`, {
    kind: 'corporate-entity-person-with-significant-control',
    name,
    identification: {
      legal_authority: 'Companies Act 2006',
      legal_form: 'Private Limited Company',
      place_registered: 'Companies House',
      country_registered: 'England',
      registration_number: parent,
    },
    natures_of_control: ['ownership-of-shares-75-to-100-percent', 'voting-rights-75-to-100-percent'],
    notified_on: '2017-01-01',
    address: { premises: '1', address_line_1: 'Corporate Way', locality: 'London', postal_code: 'EC1 1AA' },
  });
}

function statement(companyNumber: string, code: string): string {
  return line(companyNumber, `st-${code}`, {
    kind: 'persons-with-significant-control-statement',
    statement: code,
    notified_on: '2016-09-11',
  });
}

const REAL = readFileSync(new URL('../ownership/fixtures/real-psc-snapshot.jsonl', import.meta.url), 'utf8').split(
  '\n',
);

const LINES = [
  line('10000001', 'john', {
    kind: 'individual-person-with-significant-control',
    name: 'Mr John Doe',
    name_elements: { title: 'Mr', forename: 'John', surname: 'Doe' },
    date_of_birth: { day: 14, month: 3, year: 1970 },
    address: { premises: '1', address_line_1: 'Secret Street', locality: 'London', postal_code: 'N1 9ZZ' },
    nationality: 'British',
    country_of_residence: 'England',
    natures_of_control: [
      'ownership-of-shares-75-to-100-percent',
      'voting-rights-75-to-100-percent',
      'right-to-appoint-and-remove-directors',
    ],
    notified_on: '2016-04-06',
  }),
  ukParent('10000002', '10000001', 'HOLDCO TOP LIMITED'),
  ukParent('10000003', '10000002', 'MIDCO LIMITED'),
  line('10000003', 'jane', {
    kind: 'individual-person-with-significant-control',
    name: 'Ms Jane Roe',
    name_elements: { title: 'Ms', forename: 'Jane', surname: 'Roe' },
    date_of_birth: { day: 2, month: 11, year: 1980 },
    address: { premises: '9', address_line_1: 'Hidden Lane', locality: 'Leeds', postal_code: 'LS9 9ZZ' },
    nationality: 'Irish',
    country_of_residence: 'Ireland',
    natures_of_control: ['significant-influence-or-control-as-trust'],
    notified_on: '2016-04-06',
    ceased_on: '2019-12-31',
  }),
  ukParent('10000004', '10000003', 'OPCO LIMITED'),
  ukParent('10000005', '10000006', 'CIRCLE B LIMITED'),
  ukParent('10000006', '10000005', 'CIRCLE A LIMITED'),
  line('10000007', 'global', {
    kind: 'corporate-entity-person-with-significant-control',
    name: 'GLOBAL PARENT INC',
    identification: {
      legal_authority: 'Delaware General Corporation Law',
      legal_form: 'Corporation',
      place_registered: 'Delaware Secretary Of State',
      country_registered: 'United States',
      registration_number: '12345',
    },
    natures_of_control: ['ownership-of-shares-50-to-75-percent'],
    notified_on: '2018-02-01',
  }),
  statement('10000009', 'psc-details-not-confirmed'),
  statement('10000010', 'no-individual-or-entity-with-signficant-control'),
  // Identity verification as the snapshot publishes it: one PSC verified through an ACSP (under the
  // block's older name), one whose statement was due before NOW (2025-06-15) and is not supplied.
  line('10000012', 'verified', {
    kind: 'individual-person-with-significant-control',
    name: 'Ms Vera Fied',
    name_elements: { title: 'Ms', forename: 'Vera', surname: 'Fied' },
    natures_of_control: ['ownership-of-shares-50-to-75-percent'],
    notified_on: '2020-01-01',
    verification_details: {
      identity_verified_on: '2025-03-01',
      appointment_verification_start_on: '2025-03-02',
      authorised_corporate_service_provider_name: 'Example Agents Ltd',
      anti_money_laundering_supervisory_bodies: ['HMRC'],
    },
  }),
  line('10000012', 'late', {
    kind: 'individual-person-with-significant-control',
    name: 'Mr Laurie Late',
    name_elements: { title: 'Mr', forename: 'Laurie', surname: 'Late' },
    natures_of_control: ['ownership-of-shares-25-to-50-percent'],
    notified_on: '2021-01-01',
    identity_verification_details: {
      appointment_verification_statement_date: '2025-05-01',
      appointment_verification_statement_due_on: '2025-05-15',
    },
  }),
  REAL[3]!, // 07434180, controlled by Robert Hitchins Limited, Companies House 00686734
  REAL[8]!, // 02443921, a super-secure PSC
];

function records(): PscRecord[] {
  return LINES.map((text) => {
    const parsed = parsePscLine(text);
    assert.equal(parsed.type, 'psc', text);
    return (parsed as { type: 'psc'; record: PscRecord }).record;
  });
}

/** The edges of an answer as "from>to", companies by number, others by name. */
function edges(body: {
  nodes: { id: string; company_number: string | null; name: string | null }[];
  edges: { from: string; to: string }[];
}): string[] {
  const label = (id: string) => {
    const node = body.nodes.find((n) => n.id === id)!;
    return id.startsWith('company:') ? node.company_number! : node.name!;
  };
  return body.edges.map((e) => `${label(e.from)}>${label(e.to)}`);
}

const NO_FLAGS = {
  overseas_parent: false,
  circular_ownership: false,
  super_secure_psc: false,
  psc_details_withheld: false,
  many_companies_under_one_controller: false,
  no_registrable_psc: false,
};

for (const setup of setups) {
  describe(`ownership on ${setup.name}`, () => {
    let world: World;
    let key: string;
    let client: Client;
    before(async () => {
      world = await startWorld({ store: setup.store, search: setup.search, now: NOW });
      await world.loadRegister(REGISTER, '2025-01-01');
      await world.pscs.upsertPscs(records(), '2025-01-01');
      key = await world.issueKey('pro');
      client = await connectMcp(world.url, key);
    });
    after(async () => {
      await client.close();
      await world.close();
    });

    const get = (path: string): Promise<Answer> => call(world, path, { key });
    const json = async (path: string) => {
      const answer = await get(`${path}${path.includes('?') ? '&' : '?'}format=json`);
      assert.equal(answer.status, 200, `${path}: ${JSON.stringify(answer.body).slice(0, 300)}`);
      return answer.body;
    };

    test('lookup_company lists the controllers in words, and never an address or a day of birth', async () => {
      const body = await json('/v1/company?number=10000001');
      assert.deepEqual(body.controllers, [
        {
          kind: 'individual-person-with-significant-control',
          kind_class: 'individual',
          name: 'Mr John Doe',
          natures_of_control: [
            { code: 'ownership-of-shares-75-to-100-percent', words: 'owns 75–100% of shares' },
            { code: 'voting-rights-75-to-100-percent', words: 'holds 75–100% of voting rights' },
            { code: 'right-to-appoint-and-remove-directors', words: 'can appoint or remove the majority of the board' },
          ],
          bands: { ownership: '75_to_100', voting: '75_to_100', appoints_board: true, significant_influence: false },
          notified_on: '2016-04-06',
          nationality: 'British',
          country_of_residence: 'England',
          birth_year: 1970,
          birth_month: 3,
          company_number: null,
          company_name: null,
          registration_number: null,
          country: null,
          overseas: null,
          beneficial_owner: false,
          identity_verification: null,
        },
      ]);
      assert.deepEqual(body.psc_statements, []);
      const text = JSON.stringify(body);
      for (const secret of ['Secret Street', 'N1 9ZZ', '"day"', 'address_line', '"date_of_birth"'])
        assert.ok(!text.includes(secret), `the answer has no ${secret}`);
      // Nor is it stored: the row keeps month and year only.
      const stored = await world.sql.query<{ data: unknown }>('SELECT data FROM psc WHERE company_number = $1', [
        '10000001',
      ]);
      assert.doesNotMatch(JSON.stringify(stored.rows), /Secret Street|N1 9ZZ|"day"/);

      const md = markdown(await get('/v1/company?number=10000001'));
      assert.match(md, /## Persons with significant control/);
      assert.match(
        md,
        /\| Mr John Doe \| individual \| owns 75–100% of shares; holds 75–100% of voting rights; can appoint or remove the majority of the board \| 2016-04-06 \| British; lives in England; born Mar 1970 \|/,
      );
      assert.doesNotMatch(md, /Secret Street|N1 9ZZ|14 Mar/);
    });

    test('identity verification on the controllers, in get_ownership, and the identity_unverified signal', async () => {
      const body = await json('/v1/company?number=10000012');
      const byName = new Map(
        (body.controllers as { name: string; identity_verification: unknown }[]).map((c) => [c.name, c]),
      );
      assert.deepEqual(byName.get('Ms Vera Fied')!.identity_verification, {
        identity_verified_on: '2025-03-01',
        appointment_verification_start_on: '2025-03-02',
        appointment_verification_end_on: null,
        appointment_verification_statement_date: null,
        appointment_verification_statement_due_on: null,
        authorised_corporate_service_provider_name: 'Example Agents Ltd',
        preferred_name: null,
      });
      assert.equal(
        (byName.get('Mr Laurie Late')!.identity_verification as { appointment_verification_statement_due_on: string })
          .appointment_verification_statement_due_on,
        '2025-05-15',
      );
      const signals = body.signals as { code: string; severity: string; message: string }[];
      assert.deepEqual(
        signals.filter((s) => s.code === 'identity_unverified'),
        [
          {
            code: 'identity_unverified',
            severity: 'medium',
            message:
              'Identity not verified by its due date: Mr Laurie Late (person with significant control, due 2025-05-15).',
          },
        ],
      );
      // A company whose PSCs publish no verification has no such signal.
      const john = await json('/v1/company?number=10000001');
      assert.ok(!(john.signals as { code: string }[]).some((s) => s.code === 'identity_unverified'));

      const md = markdown(await get('/v1/company?number=10000012'));
      assert.match(md, /\| Ms Vera Fied \|[^\n]*identity verified 2025-03-01 \|/);
      assert.match(md, /\| Mr Laurie Late \|[^\n]*identity due 2025-05-15 \|/);
      assert.match(md, /Identity not verified by its due date: Mr Laurie Late/);

      const graph = await json('/v1/ownership?number=10000012&direction=up');
      const verifications = (graph.edges as { psc_id: string; identity_verification: unknown }[])
        .map((e) => [e.psc_id, e.identity_verification !== null])
        .sort();
      assert.deepEqual(verifications, [
        ['late', true],
        ['verified', true],
      ]);
      assert.match(markdown(await get('/v1/ownership?number=10000012&direction=up')), /identity due 2025-05-15/);
    });

    test('a corporate controller on the register is named by its number; statements in words', async () => {
      const mid = await json('/v1/company?number=10000002');
      assert.deepEqual(
        [mid.controllers[0].company_number, mid.controllers[0].company_name, mid.controllers[0].overseas],
        ['10000001', 'HOLDCO TOP LIMITED', false],
      );
      // A real record: Robert Hitchins Limited, "Companies House Cardiff", 00686734.
      const real = await json('/v1/company?number=07434180');
      assert.deepEqual(
        [real.controllers[0].name, real.controllers[0].company_number, real.controllers[0].company_name],
        ['Robert Hitchins Limited', '00686734', 'ROBERT HITCHINS LIMITED'],
      );
      const overseas = await json('/v1/company?number=10000007');
      assert.deepEqual(
        [overseas.controllers[0].country, overseas.controllers[0].overseas, overseas.controllers[0].company_number],
        ['United States', true, null],
      );
      const unconfirmed = await json('/v1/company?number=10000009');
      assert.deepEqual(unconfirmed.controllers, []);
      assert.deepEqual(unconfirmed.psc_statements, [
        {
          statement: 'psc-details-not-confirmed',
          words: 'a person with significant control has been identified but their details are not confirmed',
          notified_on: '2016-09-11',
        },
      ]);
      assert.match(
        markdown(await get('/v1/company?number=10000009')),
        /\*\*Statements:\*\*[\s\S]*details are not confirmed/,
      );
      assert.match(
        markdown(await get('/v1/company?number=10000011')),
        /## Persons with significant control\n\n_No PSC records are held for this company._/,
      );
    });

    test('include_ceased adds the ceased ones with ceased_on; bad values are refused naming it', async () => {
      const current = await json('/v1/company?number=10000003');
      assert.deepEqual(
        current.controllers.map((c: { name: string }) => c.name),
        ['MIDCO LIMITED'],
      );
      assert.equal('ceased_on' in current.controllers[0], false);
      const all = await json('/v1/company?number=10000003&include_ceased=true');
      assert.deepEqual(
        all.controllers.map((c: { name: string; ceased_on: string | null }) => [c.name, c.ceased_on]),
        [
          ['MIDCO LIMITED', null],
          ['Ms Jane Roe', '2019-12-31'],
        ],
      );
      assert.deepEqual(all.controllers[1].natures_of_control, [
        {
          code: 'significant-influence-or-control-as-trust',
          words: 'has significant influence or control through control over a trust',
        },
      ]);
      assert.match(
        markdown(await get('/v1/company?number=10000003&include_ceased=true')),
        /\| Ms Jane Roe \|[^\n]*\| 2019-12-31 \|/,
      );
      const bad = await get('/v1/company?number=10000003&include_ceased=maybe');
      assert.equal(bad.status, 400);
      assert.match(bad.body.error, /"include_ceased"/);
    });

    test('up: the chain of controlling companies to the ultimate controller', async () => {
      const body = await json('/v1/ownership?number=10000003&direction=up');
      assert.deepEqual(edges(body), ['10000002>10000003', '10000001>10000002', 'Mr John Doe>10000001']);
      assert.deepEqual(
        [body.company_number, body.name, body.direction, body.depth],
        ['10000003', 'OPCO LIMITED', 'up', 5],
      );
      assert.deepEqual(body.flags, NO_FLAGS);
      assert.equal(body.truncated, false);
      const john = body.nodes.find((n: { kind: string }) => n.kind === 'individual');
      assert.deepEqual(body.ultimate_controllers, [john.id]);
      assert.deepEqual([john.birth_year, john.birth_month, john.nationality], [1970, 3, 'British']);
      assert.doesNotMatch(JSON.stringify(body), /Secret Street|"day"/);
      assert.deepEqual(body.edges[0].natures[0], {
        code: 'ownership-of-shares-75-to-100-percent',
        words: 'owns 75–100% of shares',
      });
      assert.equal(body.edges[0].bands.ownership, '75_to_100');
      // Depth 2 stops below the individual.
      const shallow = await json('/v1/ownership?number=10000003&direction=up&depth=2');
      assert.deepEqual(edges(shallow), ['10000002>10000003', '10000001>10000002']);
      assert.deepEqual(shallow.ultimate_controllers, []);
    });

    test('down: the companies it controls, and theirs; both: the two together', async () => {
      const down = await json('/v1/ownership?number=10000001&direction=down');
      assert.deepEqual(edges(down), ['10000001>10000002', '10000002>10000003', '10000003>10000004']);
      const sub = down.nodes.find((n: { company_number: string }) => n.company_number === '10000004');
      assert.deepEqual([sub.name, sub.status], ['SUBCO LIMITED', 'Liquidation']);
      const both = await json('/v1/ownership?number=10000002');
      assert.equal(both.direction, 'both');
      assert.deepEqual(edges(both), [
        '10000001>10000002',
        'Mr John Doe>10000001',
        '10000002>10000003',
        '10000003>10000004',
      ]);
    });

    test('a cycle is reported once and not looped', async () => {
      const body = await json('/v1/ownership?number=10000005&depth=10');
      assert.deepEqual(body.cycles, [
        {
          companies: ['10000005', '10000006'],
          closing_edge: { from: 'company:10000005', to: 'company:10000006' },
        },
      ]);
      assert.equal(body.flags.circular_ownership, true);
      assert.deepEqual(edges(body), ['10000006>10000005', '10000005>10000006']);
      assert.match(
        markdown(await get('/v1/ownership?number=10000005&depth=10')),
        /## Cycles\n\n- 10000005 → 10000006 → 10000005/,
      );
    });

    test('flags: overseas parent, super-secure PSC, details withheld, no registrable PSC', async () => {
      const cases: [number: string, flags: Partial<typeof NO_FLAGS>][] = [
        ['10000007', { overseas_parent: true }],
        ['02443921', { super_secure_psc: true }],
        ['10000009', { psc_details_withheld: true }],
        ['10000010', { no_registrable_psc: true }],
        ['10000011', {}],
      ];
      for (const [number, flags] of cases) {
        const body = await json(`/v1/ownership?number=${number}&direction=up`);
        assert.deepEqual(body.flags, { ...NO_FLAGS, ...flags }, number);
      }
      const overseas = await json('/v1/ownership?number=10000007');
      const parent = overseas.nodes.find((n: { kind: string }) => n.kind === 'corporate_entity');
      assert.deepEqual(
        [parent.name, parent.country, parent.overseas, parent.registration_number],
        ['GLOBAL PARENT INC', 'United States', true, '12345'],
      );
      assert.deepEqual(overseas.ultimate_controllers, [parent.id]);
    });

    test('a company without PSC records answers, saying so', async () => {
      const body = await json('/v1/ownership?number=10000011');
      assert.deepEqual(body.edges, []);
      assert.equal(body.nodes[0].psc_records, 'none');
      const md = markdown(await get('/v1/ownership?number=10000011'));
      assert.match(md, /_No PSC records held._/);
      assert.match(md, /_Controls no company on the register._/);
    });

    test('depth, direction and the number are checked: a 400 naming the parameter; an unknown company is a 404', async () => {
      for (const [query, name] of [
        ['number=10000001&depth=0', 'depth'],
        ['number=10000001&depth=11', 'depth'],
        ['number=10000001&depth=2.5', 'depth'],
        ['number=10000001&depth=deep', 'depth'],
        ['number=10000001&direction=sideways', 'direction'],
        ['number=ABC-123', 'number'],
        ['depth=2', 'number'],
        ['number=10000001&company=1', 'company'],
      ] as const) {
        const answer = await get(`/v1/ownership?${query}`);
        assert.equal(answer.status, 400, query);
        assert.match(answer.body.error, new RegExp(`"${name}"`), `${query}: ${answer.body.error}`);
      }
      const depth = await get('/v1/ownership?number=10000001&depth=11');
      assert.equal(depth.body.error, 'Invalid "depth": must be at most 10.');
      const missing = await get('/v1/ownership?number=99999999');
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { error: 'Company 99999999 not found.' });
    });

    test('the Markdown: the chain as nested lists, natures in words, the flags', async () => {
      const md = markdown(await get('/v1/ownership?number=10000003'));
      assert.match(md, /^# Ownership of OPCO LIMITED \(10000003\)/);
      assert.match(md, /Direction both, depth 5: \d+ nodes, 4 control relationships\./);
      assert.match(md, /\*\*Flags:\*\* none\./);
      assert.match(
        md,
        /## Controlled by \(up\)\n\n- \*\*OPCO LIMITED\*\* \(10000003, Active\)\n {2}- \*\*MIDCO LIMITED\*\* \(10000002, Active\) — owns 75–100% of shares; holds 75–100% of voting rights \(since 2017-01-01\)\n {4}- \*\*HOLDCO TOP LIMITED\*\* \(10000001, Active\) — [^\n]+\n {6}- Mr John Doe \(individual; British; lives in England; born 1970-03\) — owns 75–100% of shares/,
      );
      assert.match(
        md,
        /## Controls \(down\)\n\n- \*\*OPCO LIMITED\*\* \(10000003, Active\)\n {2}- \*\*SUBCO LIMITED\*\* \(10000004, Liquidation\) — owns 75–100% of shares/,
      );
      const flagged = markdown(await get('/v1/ownership?number=10000007'));
      assert.match(
        flagged,
        /\*\*Flags:\*\* overseas parent: an entity registered outside the UK controls a company up the chain\./,
      );
      assert.match(
        flagged,
        /GLOBAL PARENT INC \(corporate entity; United States, overseas; registration 12345\) — owns 50–75% of shares/,
      );
      assert.match(
        markdown(await get('/v1/ownership?number=10000009')),
        /_Statement:_ a person with significant control has been identified but their details are not confirmed/,
      );
    });

    test('over MCP: get_ownership and lookup_company answer as REST does, Markdown and structured', async () => {
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === 'get_ownership');
      assert.ok(tool, 'get_ownership is a tool');
      assert.match(tool.description ?? '', /ultimate controllers/);
      assert.deepEqual(tool.inputSchema.required, ['company_number']);
      const operation = OPERATIONS.find((o) => o.name === 'get_ownership')!;
      for (const args of [
        { company_number: '10000003', direction: 'up' },
        { company_number: '10000005', depth: 10 },
        { company_number: '10000001', direction: 'down', depth: 2 },
      ]) {
        const result = (await client.callTool({ name: 'get_ownership', arguments: args })) as CallToolResult;
        assert.ok(!result.isError, JSON.stringify(result));
        assert.deepEqual(result.structuredContent, await restJson(world, key, operation, args));
      }
      const lookup = OPERATIONS.find((o) => o.name === 'lookup_company')!;
      const args = { company_number: '10000003', include_ceased: true };
      const result = (await client.callTool({ name: 'lookup_company', arguments: args })) as CallToolResult;
      assert.deepEqual(result.structuredContent, await restJson(world, key, lookup, args));
      const refused = (await client.callTool({
        name: 'get_ownership',
        arguments: { company_number: '10000003', depth: 0 },
      })) as CallToolResult;
      assert.equal(refused.isError, true);
      assert.match((refused.content[0] as { text: string }).text, /"depth"/);
    });
  });
}
