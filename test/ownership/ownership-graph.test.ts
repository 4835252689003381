/**
 * The ownership walk on graphs held in arrays: the walk takes the reader's one read
 * (ownershipAround) as a function, so these tests hand it a plain function over lists of PSC
 * records, answering as the reader's contract says (test/contract/ownership-reader.test.ts runs
 * the walk on the real stores). Chains up, down and both; depth; cycles reported and not looped;
 * the flags; the cap; one read.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { OwnershipGraph, OwnershipSource, WalkOptions } from '../../src/ownership/ownership-graph.ts';
import { findCycles, walkOwnership } from '../../src/ownership/ownership-graph.ts';
import type { LevelledControlRecord, RegisteredCompany } from '../../src/ports/ownership.ts';
import type { PscRecord, StoredPsc } from '../../src/domain/psc.ts';
import { corporatePsc, individualPsc, pscStatement } from '../support/psc-records.ts';

/** A register and its PSC records, read as the reader reads them, counting the reads. */
class Register {
  reads = 0;
  private readonly companies = new Map<string, RegisteredCompany>();
  private readonly pscs: StoredPsc[] = [];

  constructor(companies: readonly string[], pscs: readonly PscRecord[]) {
    for (const number of companies)
      this.companies.set(number, { company_number: number, name: `COMPANY ${number} LIMITED`, status: 'Active' });
    for (const psc of pscs) {
      const parent =
        psc.registered_company_number === null ? undefined : this.companies.get(psc.registered_company_number);
      this.pscs.push({
        ...psc,
        snapshot_date: '2025-01-01',
        ceased_by_snapshot: null,
        resolved_company_number: parent?.company_number ?? null,
        resolved_company_name: parent?.name ?? null,
      });
    }
  }

  /** ownershipAround over the arrays: level by level each way, as the contract says. */
  get source(): OwnershipSource {
    const current = this.pscs.filter((p) => !p.ceased);
    const levelled = (psc: StoredPsc, level: number): LevelledControlRecord => {
      const company = this.companies.get(psc.company_number);
      return {
        ...psc,
        level,
        resolved_company_status: psc.resolved_company_number === null ? null : 'Active',
        company_name: company?.name ?? null,
        company_status: company?.status ?? null,
      };
    };
    const order = (a: StoredPsc, b: StoredPsc) =>
      a.company_number.localeCompare(b.company_number) || a.psc_id.localeCompare(b.psc_id);
    return {
      ownershipAround: async (number, reach) => {
        this.reads++;
        const root = this.companies.get(number);
        if (!root) return null;
        const up: LevelledControlRecord[] = [];
        let companies = new Set([number]);
        for (let level = 1; level <= reach.up && companies.size > 0; level++) {
          const records = current.filter((p) => companies.has(p.company_number)).sort(order);
          up.push(...records.map((p) => levelled(p, level)));
          companies = new Set(records.flatMap((p) => p.resolved_company_number ?? []));
        }
        const down: LevelledControlRecord[] = [];
        let parents = new Set([number]);
        for (let level = 1; level <= reach.down && parents.size > 0; level++) {
          const records = current
            .filter((p) => p.registered_company_number !== null && parents.has(p.registered_company_number))
            .sort((a, b) => a.registered_company_number!.localeCompare(b.registered_company_number!) || order(a, b));
          down.push(...records.map((p) => levelled(p, level)));
          parents = new Set(records.map((p) => p.company_number));
        }
        const cut = (records: LevelledControlRecord[]) => records.slice(0, reach.maxRecords + 1);
        const count = (match: (p: StoredPsc) => boolean) =>
          new Set(current.filter(match).map((p) => p.company_number)).size;
        const controlling = new Set([
          number,
          ...up.flatMap((p) => p.resolved_company_number ?? []),
          ...down.map((p) => p.registered_company_number!),
        ]);
        const persons = new Set(up.flatMap((p) => (p.resolved_company_number === null ? (p.person_key ?? []) : [])));
        return {
          root,
          up: cut(up),
          down: cut(down),
          counts: {
            companies: new Map([...controlling].map((n) => [n, count((p) => p.registered_company_number === n)])),
            persons: new Map([...persons].map((k) => [k, count((p) => p.person_key === k)])),
          },
        };
      },
    };
  }

  async walk(root: string, options: Partial<WalkOptions> = {}): Promise<OwnershipGraph> {
    const walked = await walkOwnership(this.source, root, { direction: 'both', depth: 5, ...options });
    assert.ok(walked, `${root} is on the register`);
    return walked;
  }
}

/** "A" owns "B": B's corporate PSC is company A. */
const owns = (parent: string, child: string, more: Partial<PscRecord> = {}) =>
  corporatePsc(child, { name: `COMPANY ${parent} LIMITED`, registeredNumber: parent, id: `corp-${parent}` }, more);
const person = (forename: string, company: string, more: Partial<PscRecord> = {}) =>
  individualPsc(company, { forename, surname: 'Smith', birthYear: 1970, birthMonth: 3 }, more);

/** The edges as "from>to" with companies by number and other nodes by name. */
function edgesOf(graph: OwnershipGraph): string[] {
  const label = (id: string) => {
    const node = graph.nodes.find((n) => n.id === id)!;
    return node.kind === 'company' ? node.company_number! : node.name!;
  };
  return graph.edges.map((e) => `${label(e.from)}>${label(e.to)}`);
}

const labels = (graph: OwnershipGraph, ids: readonly string[]) =>
  ids.map((id) => {
    const node = graph.nodes.find((n) => n.id === id)!;
    return node.kind === 'company' ? node.company_number! : (node.name ?? node.statement ?? node.kind);
  });

const NO_FLAGS = {
  overseas_parent: false,
  circular_ownership: false,
  super_secure_psc: false,
  psc_details_withheld: false,
  many_companies_under_one_controller: false,
  no_registrable_psc: false,
};

// 00000001 is owned by 00000002, owned by 00000003, owned by Mr Alan Smith; 00000001 owns 00000004
// and 00000005; 00000004 owns 00000006.
const chain = () =>
  new Register(
    ['00000001', '00000002', '00000003', '00000004', '00000005', '00000006'],
    [
      owns('00000002', '00000001'),
      owns('00000003', '00000002'),
      person('Alan', '00000003'),
      owns('00000001', '00000004'),
      owns('00000001', '00000005'),
      owns('00000004', '00000006'),
      // Ceased: no longer an edge either way.
      person('Old', '00000001', { ceased: true, ceased_on: '2020-01-01' }),
      owns('00000001', '00000006', { ceased: true, ceased_on: '2021-01-01', psc_id: 'corp-old' }),
    ],
  );

describe('walking the chain', () => {
  const cases: [name: string, options: Partial<WalkOptions>, edges: string[], ultimate: string[]][] = [
    [
      'up: the controlling companies to the ultimate controller',
      { direction: 'up' },
      ['00000002>00000001', '00000003>00000002', 'Mr Alan Smith>00000003'],
      ['Mr Alan Smith'],
    ],
    ['up, depth 1: only the company’s own PSCs', { direction: 'up', depth: 1 }, ['00000002>00000001'], []],
    [
      'up, depth 2: the chain stops at the second level',
      { direction: 'up', depth: 2 },
      ['00000002>00000001', '00000003>00000002'],
      [],
    ],
    [
      'down: the companies it controls, and theirs',
      { direction: 'down' },
      ['00000001>00000004', '00000001>00000005', '00000004>00000006'],
      [],
    ],
    ['down, depth 1', { direction: 'down', depth: 1 }, ['00000001>00000004', '00000001>00000005'], []],
    [
      'both',
      { direction: 'both' },
      [
        '00000002>00000001',
        '00000003>00000002',
        'Mr Alan Smith>00000003',
        '00000001>00000004',
        '00000001>00000005',
        '00000004>00000006',
      ],
      ['Mr Alan Smith'],
    ],
  ];
  for (const [name, options, edges, ultimate] of cases)
    test(name, async () => {
      const graph = await chain().walk('00000001', options);
      assert.deepEqual(edgesOf(graph), edges);
      assert.deepEqual(labels(graph, graph.ultimate_controllers), ultimate);
      assert.deepEqual(graph.flags, NO_FLAGS);
      assert.deepEqual(graph.cycles, []);
      assert.equal(graph.truncated, false);
      assert.equal(graph.nodes[0]!.id, 'company:00000001', 'the company asked about first');
    });

  test('one read, both ways, whatever the depth', async () => {
    const register = chain();
    await register.walk('00000001', { direction: 'both', depth: 10 });
    assert.equal(register.reads, 1);
  });

  test('a company not on the register: no graph', async () =>
    assert.equal(await walkOwnership(chain().source, '00000099', { direction: 'both', depth: 5 }), null));

  test('companies carry their number, name, status and whether their PSCs were read', async () => {
    const graph = await chain().walk('00000001', { direction: 'up', depth: 2 });
    const companies = graph.nodes.filter((n) => n.kind === 'company');
    assert.deepEqual(
      companies.map((n) => [n.company_number, n.name, n.status, n.psc_records]),
      [
        ['00000001', 'COMPANY 00000001 LIMITED', 'Active', 'found'],
        ['00000002', 'COMPANY 00000002 LIMITED', 'Active', 'found'],
        ['00000003', 'COMPANY 00000003 LIMITED', 'Active', 'not_read'],
      ],
    );
  });

  test('an edge carries the natures in words, the bands and the date notified', async () => {
    const graph = await chain().walk('00000001', { direction: 'up', depth: 1 });
    assert.deepEqual(graph.edges[0], {
      from: 'company:00000002',
      to: 'company:00000001',
      psc_id: 'corp-00000002',
      natures: [
        { code: 'ownership-of-shares-75-to-100-percent', words: 'owns 75–100% of shares' },
        { code: 'voting-rights-75-to-100-percent', words: 'holds 75–100% of voting rights' },
      ],
      bands: { ownership: '75_to_100', voting: '75_to_100', appoints_board: false, significant_influence: false },
      notified_on: '2016-04-06',
      identity_verification: null,
    });
  });

  test('an individual keeps nationality, residence, month and year of birth, and nothing more', async () => {
    const graph = await chain().walk('00000003', { direction: 'up' });
    const alan = graph.nodes.find((n) => n.kind === 'individual')!;
    assert.deepEqual(
      [alan.name, alan.nationality, alan.country_of_residence, alan.birth_month, alan.birth_year, alan.controls],
      ['Mr Alan Smith', 'British', 'England', 3, 1970, 1],
    );
  });

  test('a company without PSC records: the answer says so, with no edges', async () => {
    const graph = await new Register(['00000009'], []).walk('00000009');
    assert.deepEqual(graph.edges, []);
    assert.equal(graph.nodes.length, 1);
    assert.equal(graph.nodes[0]!.psc_records, 'none');
  });
});

describe('cycles', () => {
  // 00000001 is owned by 00000002, owned by 00000003, owned by 00000001.
  const triangle = () =>
    new Register(
      ['00000001', '00000002', '00000003'],
      [owns('00000002', '00000001'), owns('00000003', '00000002'), owns('00000001', '00000003')],
    );
  const cases: [name: string, register: () => Register, options: Partial<WalkOptions>, companies: string[][]][] = [
    [
      'up: reported once, the companies in control order',
      triangle,
      { direction: 'up', depth: 10 },
      [['00000001', '00000003', '00000002']],
    ],
    ['down', triangle, { direction: 'down', depth: 10 }, [['00000002', '00000001', '00000003']]],
    ['both', triangle, { direction: 'both', depth: 10 }, [['00000001', '00000003', '00000002']]],
    [
      'a company that is its own PSC',
      () => new Register(['00000001'], [owns('00000001', '00000001')]),
      { direction: 'up' },
      [['00000001']],
    ],
    [
      'a diamond is not a cycle',
      () =>
        new Register(
          ['00000001', '00000002', '00000003', '00000004'],
          [
            owns('00000002', '00000001'),
            owns('00000003', '00000001'),
            owns('00000004', '00000002'),
            owns('00000004', '00000003'),
          ],
        ),
      { direction: 'both' },
      [],
    ],
    ['a cycle beyond the depth walked is not seen', triangle, { direction: 'up', depth: 2 }, []],
  ];
  for (const [name, register, options, companies] of cases)
    test(name, async () => {
      const walked = register();
      const graph = await walked.walk('00000001', options);
      assert.deepEqual(
        graph.cycles.map((c) => c.companies),
        companies,
      );
      assert.equal(graph.flags.circular_ownership, companies.length > 0);
      // Each edge once: never looped.
      assert.equal(new Set(graph.edges.map((e) => `${e.from}>${e.to}`)).size, graph.edges.length);
    });

  test('the closing edge is the one that met a company already reached', async () => {
    const graph = await triangle().walk('00000001', { direction: 'up', depth: 10 });
    assert.deepEqual(graph.cycles[0]!.closing_edge, { from: 'company:00000001', to: 'company:00000003' });
    assert.equal(graph.edges.length, 3);
  });

  test('findCycles ignores an edge that met a company reached another way', () =>
    assert.deepEqual(
      findCycles(
        [
          { from: 'company:A', to: 'company:B' },
          { from: 'company:C', to: 'company:B' },
        ].map((e) => ({
          ...e,
          psc_id: 'x',
          natures: [],
          bands: { ownership: null, voting: null, appoints_board: false, significant_influence: false },
          notified_on: null,
          identity_verification: null,
        })),
        [
          {
            from: 'company:C',
            to: 'company:B',
            psc_id: 'x',
            natures: [],
            bands: { ownership: null, voting: null, appoints_board: false, significant_influence: false },
            notified_on: null,
            identity_verification: null,
          },
        ],
      ),
      [],
    ));
});

describe('flags', () => {
  const cases: [
    name: string,
    register: () => Register,
    direction: WalkOptions['direction'],
    flags: Partial<typeof NO_FLAGS>,
    ultimate: string[],
  ][] = [
    [
      'an overseas parent up the chain',
      () =>
        new Register(
          ['00000001', '00000002'],
          [
            owns('00000002', '00000001'),
            corporatePsc('00000002', { name: 'ACME HOLDINGS INC', country: 'United States' }),
          ],
        ),
      'up',
      { overseas_parent: true },
      ['ACME HOLDINGS INC'],
    ],
    [
      'a UK parent not on the register is an entity, not overseas',
      () =>
        new Register(['00000001'], [corporatePsc('00000001', { name: 'GONE LIMITED', registeredNumber: '07777777' })]),
      'up',
      {},
      ['GONE LIMITED'],
    ],
    [
      'walking down finds no parent',
      () =>
        new Register(['00000001'], [corporatePsc('00000001', { name: 'ACME HOLDINGS INC', country: 'United States' })]),
      'down',
      {},
      [],
    ],
    [
      'a super-secure PSC',
      () =>
        new Register(
          ['00000001'],
          [
            {
              ...pscStatement('00000001', 'x'),
              psc_id: 'ss1',
              kind: 'super-secure-person-with-significant-control',
              kind_class: 'super_secure',
              statement: null,
            },
          ],
        ),
      'up',
      { super_secure_psc: true },
      ['super_secure'],
    ],
    [
      'a statement that withholds details',
      () => new Register(['00000001'], [pscStatement('00000001', 'psc-details-not-confirmed')]),
      'up',
      { psc_details_withheld: true },
      ['psc-details-not-confirmed'],
    ],
    [
      'a restrictions notice up the chain',
      () =>
        new Register(
          ['00000001', '00000002'],
          [owns('00000002', '00000001'), pscStatement('00000002', 'restrictions-notice-issued-to-psc')],
        ),
      'both',
      { psc_details_withheld: true },
      ['restrictions-notice-issued-to-psc'],
    ],
    [
      'no registrable PSC',
      () => new Register(['00000001'], [pscStatement('00000001', 'no-individual-or-entity-with-signficant-control')]),
      'up',
      { no_registrable_psc: true },
      ['no-individual-or-entity-with-signficant-control'],
    ],
    [
      'a statement of another kind flags nothing',
      () => new Register(['00000001'], [pscStatement('00000001', 'all-beneficial-owners-identified')]),
      'up',
      {},
      ['all-beneficial-owners-identified'],
    ],
    [
      'a parent company holding no PSC records ends the chain',
      () => new Register(['00000001', '00000002'], [owns('00000002', '00000001')]),
      'up',
      {},
      ['00000002'],
    ],
    [
      'a person controlling more than 25 companies',
      () =>
        new Register(
          ['00000001'],
          Array.from({ length: 26 }, (_, i) => person('Busy', String(i + 1).padStart(8, '0'))),
        ),
      'up',
      { many_companies_under_one_controller: true },
      ['Mr Busy Smith'],
    ],
    [
      'a person controlling 25 companies is not flagged',
      () =>
        new Register(
          ['00000001'],
          Array.from({ length: 25 }, (_, i) => person('Busy', String(i + 1).padStart(8, '0'))),
        ),
      'up',
      {},
      ['Mr Busy Smith'],
    ],
  ];
  for (const [name, register, direction, flags, ultimate] of cases)
    test(name, async () => {
      const graph = await register().walk('00000001', { direction });
      assert.deepEqual(graph.flags, { ...NO_FLAGS, ...flags });
      assert.deepEqual(labels(graph, graph.ultimate_controllers), ultimate);
    });

  test('an overseas entity node says where, and the statement what, in words', async () => {
    const graph = await new Register(
      ['00000001'],
      [
        corporatePsc('00000001', { name: 'ACME HOLDINGS INC', country: 'United States' }),
        pscStatement('00000001', 'psc-details-not-confirmed'),
      ],
    ).walk('00000001', { direction: 'up' });
    const entity = graph.nodes.find((n) => n.kind === 'corporate_entity')!;
    assert.deepEqual(
      [entity.country, entity.overseas, entity.registration_number, entity.legal_form],
      ['United States', true, '7654321', 'Corporation'],
    );
    const statement = graph.nodes.find((n) => n.kind === 'statement')!;
    assert.equal(statement.company_number, '00000001');
    assert.match(statement.words!, /details are not confirmed/);
  });

  test('one person over two companies of the chain is one node with two edges', async () => {
    const graph = await new Register(
      ['00000001', '00000002', '00000003'],
      [
        owns('00000002', '00000001'),
        owns('00000003', '00000001'),
        person('Ann', '00000002'),
        person('Ann', '00000003'),
      ],
    ).walk('00000001', { direction: 'up' });
    const ann = graph.nodes.filter((n) => n.kind === 'individual');
    assert.equal(ann.length, 1);
    assert.equal(graph.edges.filter((e) => e.from === ann[0]!.id).length, 2);
    assert.equal(ann[0]!.controls, 2);
  });
});

describe('the cap', () => {
  // 00000001 controls 600 companies.
  const numbers = Array.from({ length: 600 }, (_, i) => String(i + 2).padStart(8, '0'));
  const big = () =>
    new Register(
      ['00000001', ...numbers],
      numbers.map((n) => owns('00000001', n)),
    );

  test('a controller of 600 companies: 500 edges, truncated, and the true count', async () => {
    const graph = await big().walk('00000001', { direction: 'down' });
    assert.equal(graph.edges.length, 500);
    assert.equal(graph.truncated, true);
    assert.equal(graph.nodes[0]!.controls, 600);
    assert.equal(graph.flags.many_companies_under_one_controller, true);
    assert.deepEqual(graph.limits, { max_edges: 500, many_companies: 25 });
  });

  test('a smaller cap, and a walk that fits it exactly is not truncated', async () => {
    assert.equal((await big().walk('00000001', { direction: 'down', maxEdges: 10 })).edges.length, 10);
    const fits = await chain().walk('00000001', { direction: 'down', maxEdges: 3 });
    assert.equal(fits.edges.length, 3);
    assert.equal(fits.truncated, false);
    const cut = await chain().walk('00000001', { direction: 'down', maxEdges: 2 });
    assert.equal(cut.edges.length, 2);
    assert.equal(cut.truncated, true);
  });
});
