/**
 * One PeopleIndex contract, run against every adapter with the same PSC records, read from a real
 * store by the real indexer (loaders/index-people.ts): Postgres on PGlite, Postgres on the real
 * server, and the real Elasticsearch (fed from PGlite). Ranking, grouping per person, the birth
 * filters, paging, and updates (a new company, a ceased one, a person removed); officers as people
 * (alone, or one person with their PSC records), the role filter, and officers' changes. A behaviour is
 * added here, never to one adapter's tests alone.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@elastic/elasticsearch';
import { indexPeople } from '../../loaders/index-people.ts';
import { createEsPeopleIndex, ensurePeopleIndex } from '../../src/adapters/elasticsearch/es-people-index.ts';
import { createCompanyStore } from '../../src/adapters/postgres/company-store.ts';
import { createOfficerStore } from '../../src/adapters/postgres/officer-store.ts';
import { createPeopleSource } from '../../src/adapters/postgres/people-source.ts';
import { createPscStore } from '../../src/adapters/postgres/psc-store.ts';
import { createPgliteSql } from '../../src/adapters/sql/pglite-sql.ts';
import { migrate } from '../../src/adapters/postgres/migrate.ts';
import { createPgPeopleIndex } from '../../src/adapters/pg-search/pg-people-index.ts';
import { AppError } from '../../src/errors.ts';
import type { PeopleIndex } from '../../src/ports/people-index.ts';
import type { PeopleQuery, PersonDocument, PersonKey } from '../../src/domain/people.ts';
import type { PscRecord } from '../../src/domain/psc.ts';
import type { Sql } from '../../src/ports/sql.ts';
import { testStores } from '../support/databases.ts';
import { elasticsearchUrl } from '../support/elasticsearch.ts';
import { officerRecord } from '../support/officer-records.ts';
import { corporatePsc, individualPsc, pscStatement } from '../support/psc-records.ts';
import { company } from '../support/store-records.ts';
import { identityVerification } from '../support/officer-records.ts';

const SNAPSHOT = '2025-01-10';

const COMPANIES = [
  company('00000001', { name: 'ALPHA TRADING LIMITED' }),
  company('00000002', { name: 'BETA SERVICES LTD' }),
  company('00000003', { name: 'GAMMA LTD' }),
  company('00000004', { name: 'DELTA LTD' }),
  company('00000005', { name: 'EPSILON LTD' }),
  company('00000006', { name: 'ZETA LTD' }),
  company('00000007', { name: 'ETA LTD' }),
];

const john1970 = { forename: 'John', surname: 'Smith', birthYear: 1970, birthMonth: 5 };
const john1982 = { forename: 'John', surname: 'Smith', birthYear: 1982, birthMonth: 11 };

/** A legal person (a body with legal personality of its own): a corporate record of another kind. */
function legalPerson(companyNumber: string, name: string): PscRecord {
  return corporatePsc(
    companyNumber,
    { name, country: 'United Kingdom' },
    {
      kind: 'legal-person-person-with-significant-control',
      kind_class: 'legal_person',
      overseas: false,
      person_key: `legal_person|${name.toLowerCase()}||`,
    },
  );
}

const RECORDS: PscRecord[] = [
  // One person across three companies (the same name and month and year of birth), one ceased.
  // Identity verification as filed in the record: under the older name (due, not yet verified), and
  // verified; the ceased record carries none.
  individualPsc('00000001', john1970, {
    notified_on: '2019-01-01',
    data: { name: 'Mr John Smith', verification_details: { appointment_verification_statement_due_on: '2026-03-01' } },
  }),
  individualPsc('00000002', john1970, {
    notified_on: '2021-06-01',
    data: {
      name: 'Mr John Smith',
      identity_verification_details: {
        identity_verified_on: '2025-11-20',
        appointment_verification_statement_date: '2025-11-18',
        appointment_verification_statement_due_on: '2026-03-01',
      },
    },
  }),
  individualPsc('00000003', john1970, { notified_on: '2016-04-06', ceased: true, ceased_on: '2020-02-02' }),
  // The same name born in another year: another person.
  individualPsc('00000004', john1982),
  individualPsc('00000005', { forename: 'John', surname: 'Smithson', birthYear: 1960, birthMonth: 1 }),
  individualPsc('00000005', { forename: 'Peter John', surname: 'Smith', birthYear: 1955, birthMonth: 3 }),
  individualPsc('00000006', { forename: 'Alice', surname: 'Smith-Johnstone', birthYear: 1990, birthMonth: 7 }),
  individualPsc('00000006', { forename: 'Johann', surname: 'Smythe', birthYear: 1975, birthMonth: 2 }),
  individualPsc('00000007', { forename: 'Jon', surname: 'Smyth', birthYear: 1988, birthMonth: 8 }),
  // A company name among people: found by name, with its kind; a company not on the register.
  corporatePsc('00000003', { name: 'JOHN SMITH HOLDINGS LIMITED', registeredNumber: '09999999' }),
  corporatePsc('00000006', { name: 'JOHN SMITH HOLDINGS LIMITED', registeredNumber: '09999999' }),
  corporatePsc('00000007', { name: 'JOHN SMITH HOLDINGS LIMITED', registeredNumber: '09999999' }),
  corporatePsc('00000001', { name: 'ACME HOLDINGS LIMITED', registeredNumber: '08888888' }),
  corporatePsc('77777777', { name: 'ACME HOLDINGS LIMITED', registeredNumber: '08888888' }),
  legalPerson('00000002', 'THE SECRETARY OF STATE FOR DEFENCE'),
  // Not people: a statement and a super-secure PSC (no name, no person_key).
  pscStatement('00000004', 'no-individual-or-entity-with-signficant-control'),
  {
    ...pscStatement('00000005', 'x'),
    psc_id: 'super-secure-1',
    kind: 'super-secure-person-with-significant-control',
    kind_class: 'super_secure',
    statement: null,
  },
];

interface Harness {
  sql: Sql;
  index: PeopleIndex;
  target: string;
  close(): Promise<void>;
}

function peopleIndexContract(name: string, make: () => Promise<Harness>): void {
  describe(`${name} honours PeopleIndex`, () => {
    let harness: Harness;
    const reindex = () =>
      indexPeople(
        { store: createCompanyStore(harness.sql), source: createPeopleSource(harness.sql) },
        { index: harness.index, target: harness.target },
        { log: () => {}, batchSize: 3 },
      );
    before(async () => {
      harness = await make();
      await createCompanyStore(harness.sql).upsertCompanies(COMPANIES, '2025-01-01');
      await createPscStore(harness.sql).upsertPscs(RECORDS, SNAPSHOT);
      const built = await reindex();
      assert.equal(built.mode, 'full');
    });
    after(async () => harness.close());

    const search = (query: Partial<PeopleQuery> & { name: string }) =>
      harness.index.searchPeople({ limit: 20, ...query });
    const names = async (query: Partial<PeopleQuery> & { name: string }) =>
      (await search(query)).people.map((p) => `${p.name}${p.birth_year ? ` ${p.birth_year}` : ''}`);

    test('one document per person: the named PSCs, not statements or super-secure ones', async () => {
      assert.equal(await harness.index.count(), 10);
    });

    test('exact name, then names starting with it, containing it, then word prefixes; ties by current companies, then length', async () => {
      assert.deepEqual(await names({ name: 'john smith' }), [
        // Exact: two people of one name, the one with more current companies first.
        'Mr John Smith 1970',
        'Mr John Smith 1982',
        // Starts with: the company with three current companies before the shorter name with one.
        'JOHN SMITH HOLDINGS LIMITED',
        'Mr John Smithson 1960',
        // Contains at a word start.
        'Mr Peter John Smith 1955',
        // Every word starts a word.
        'Mr Alice Smith-Johnstone 1990',
      ]);
    });

    test('the title, case, punctuation and a legal suffix are ignored; a word inside a word does not match', async () => {
      assert.deepEqual(await names({ name: 'Mr JOHN smith' }), await names({ name: 'john smith' }));
      assert.deepEqual(await names({ name: 'acme holdings ltd' }), ['ACME HOLDINGS LIMITED']);
      assert.deepEqual(await names({ name: 'smith johnstone' }), ['Mr Alice Smith-Johnstone 1990']);
      assert.deepEqual(await names({ name: 'ohn' }), []);
      assert.deepEqual(await names({ name: 'smy' }), ['Mr Jon Smyth 1988', 'Mr Johann Smythe 1975']);
    });

    test('grouped per person: its companies (current first, newest first), with the register names', async () => {
      const [john] = (await search({ name: 'john smith', birth_year: 1970 })).people;
      assert.ok(john);
      assert.equal(john.kind, 'individual');
      assert.equal(john.birth_month, 5);
      assert.equal(john.nationality, 'British');
      assert.equal(john.country_of_residence, 'England');
      assert.equal(john.current_companies, 2);
      assert.equal(john.company_count, 3);
      assert.deepEqual(
        john.companies.map((c) => [c.company_number, c.company_name, c.ceased, c.notified_on]),
        [
          ['00000002', 'BETA SERVICES LTD', false, '2021-06-01'],
          ['00000001', 'ALPHA TRADING LIMITED', false, '2019-01-01'],
          ['00000003', 'GAMMA LTD', true, '2016-04-06'],
        ],
      );
      assert.deepEqual(john.companies[0]!.natures_of_control, ['ownership-of-shares-75-to-100-percent']);
      // Each company's PSC record with its identity verification as filed (either name); none: null.
      assert.deepEqual(
        john.companies.map((c) => [c.company_number, c.identity_verification]),
        [
          [
            '00000002',
            identityVerification({
              identity_verified_on: '2025-11-20',
              appointment_verification_statement_date: '2025-11-18',
              appointment_verification_statement_due_on: '2026-03-01',
            }),
          ],
          ['00000001', identityVerification({ appointment_verification_statement_due_on: '2026-03-01' })],
          ['00000003', null],
        ],
      );
      // Never an address or a full date of birth.
      assert.doesNotMatch(JSON.stringify(john), /address|date_of_birth|"day"/);
    });

    test('corporate PSCs and legal persons are found by name, with their kind', async () => {
      const [acme] = (await search({ name: 'ACME HOLDINGS' })).people;
      assert.equal(acme?.kind, 'corporate');
      assert.equal(acme?.registered_company_number, '08888888');
      assert.deepEqual(
        acme?.companies.map((c) => [c.company_number, c.company_name]),
        [
          ['00000001', 'ALPHA TRADING LIMITED'],
          ['77777777', null],
        ],
      );
      const [defence] = (await search({ name: 'secretary of state' })).people;
      assert.equal(defence?.kind, 'legal_person');
      assert.equal(defence?.name, 'THE SECRETARY OF STATE FOR DEFENCE');
    });

    test('birth year, and month with it, narrow the people (companies have none)', async () => {
      assert.deepEqual(await names({ name: 'john smith', birth_year: 1982 }), ['Mr John Smith 1982']);
      assert.deepEqual(await names({ name: 'smith', birth_year: 1970, birth_month: 5 }), ['Mr John Smith 1970']);
      assert.deepEqual(await names({ name: 'smith', birth_year: 1970, birth_month: 6 }), []);
      assert.equal((await search({ name: 'john', birth_year: 1970 })).total, 1);
    });

    test('total counts every match; the limit cuts the list, and pages follow without repeats or gaps', async () => {
      const all = await search({ name: 'j' });
      assert.equal(all.total, 8);
      assert.equal(all.total_is_lower_bound, false);
      assert.equal(all.people.length, 8);
      assert.equal(all.next, null);
      const first = await search({ name: 'j', limit: 3 });
      assert.equal(first.total, 8);
      assert.equal(first.people.length, 3);
      assert.ok(first.next);
      const paged: PersonDocument[] = [...first.people];
      let next: PersonKey | null = first.next;
      while (next) {
        const page = await search({ name: 'j', limit: 2, after: next });
        paged.push(...page.people);
        next = page.next;
      }
      assert.deepEqual(
        paged.map((p) => p.person_key),
        all.people.map((p) => p.person_key),
      );
      // One at a time through every tier, the last (word prefixes only) included.
      const ranked = (await search({ name: 'john smith' })).people.map((p) => p.person_key);
      const oneByOne: string[] = [];
      let place: PersonKey | null | undefined;
      do {
        const page = await search({ name: 'john smith', limit: 1, ...(place ? { after: place } : {}) });
        oneByOne.push(...page.people.map((p) => p.person_key));
        place = page.next;
      } while (place);
      assert.equal(ranked.length, 6);
      assert.deepEqual(oneByOne, ranked);
    });

    test('the count stops at count_up_to: past it the total is that bound and says so; at it, exact', async () => {
      const bounded = await search({ name: 'j', count_up_to: 5 });
      assert.deepEqual([bounded.total, bounded.total_is_lower_bound, bounded.people.length], [5, true, 8]);
      const exactly = await search({ name: 'j', count_up_to: 8, limit: 2 });
      assert.deepEqual([exactly.total, exactly.total_is_lower_bound, exactly.people.length], [8, false, 2]);
      const paged = await search({ name: 'j', count_up_to: 7, limit: 2, after: exactly.next! });
      assert.deepEqual([paged.total, paged.total_is_lower_bound], [7, true]);
    });

    test('no match, or a name of no letters or digits, is an empty page, not an error', async () => {
      const empty = { total: 0, total_is_lower_bound: false, people: [], next: null };
      assert.deepEqual(await search({ name: 'qqqzzz' }), empty);
      assert.deepEqual(await search({ name: '!!!' }), empty);
    });

    test('an update: a new company, a ceased one, a renamed company, a person removed and another added', async () => {
      const pscs = createPscStore(harness.sql);
      const later = '2025-02-10';
      await pscs.upsertPscs(
        [
          // John Smith (1970) takes control of a new company and ceases at Alpha.
          individualPsc('00000007', john1970, { notified_on: '2025-02-01', content_hash: 'new' }),
          individualPsc('00000001', john1970, {
            notified_on: '2019-01-01',
            ceased: true,
            ceased_on: '2025-01-31',
            content_hash: 'ceased',
          }),
          // Jon Smyth's name corrected: the same record now names another person.
          individualPsc(
            '00000007',
            { forename: 'John', surname: 'Smyth', birthYear: 1988, birthMonth: 8, id: 'ind-jon-smyth' },
            { content_hash: 'corrected' },
          ),
        ],
        later,
      );
      await createCompanyStore(harness.sql).upsertCompanies(
        [company('00000002', { name: 'BETA RENAMED LTD' })],
        '2025-02-01',
      );
      const updated = await reindex();
      assert.equal(updated.mode, 'update');
      assert.equal(updated.removed, 1);
      const [john] = (await search({ name: 'john smith', birth_year: 1970 })).people;
      assert.deepEqual(
        john?.companies.map((c) => [c.company_number, c.company_name, c.ceased]),
        [
          ['00000007', 'ETA LTD', false],
          ['00000002', 'BETA RENAMED LTD', false],
          ['00000001', 'ALPHA TRADING LIMITED', true],
          ['00000003', 'GAMMA LTD', true],
        ],
      );
      assert.equal(john?.current_companies, 2);
      assert.deepEqual(await names({ name: 'jon smyth' }), []);
      assert.deepEqual(await names({ name: 'john smyth' }), ['Mr John Smyth 1988']);
      assert.equal(await harness.index.count(), 10);
      // Nothing changed since: an update that reads nobody.
      const idle = await reindex();
      assert.deepEqual([idle.mode, idle.people, idle.removed], ['update', 0, 0]);
    });

    test('a rebuild replaces the whole index, and can be run again', async () => {
      const [john] = (await search({ name: 'john smith', birth_year: 1982 })).people;
      assert.ok(john);
      async function* batches(...people: PersonDocument[][]) {
        yield* people;
      }
      assert.equal(await harness.index.rebuild(batches([{ ...john, name: 'Mr John Rebuilt' }])), 1);
      assert.equal(await harness.index.count(), 1);
      assert.deepEqual(await names({ name: 'john' }), ['Mr John Rebuilt 1982']);
      assert.equal(await harness.index.rebuild(batches([john], [])), 1);
      assert.deepEqual(await names({ name: 'john' }), ['Mr John Smith 1982']);
      // And the indexer, asked, builds it all again from the store.
      const full = await indexPeople(
        { store: createCompanyStore(harness.sql), source: createPeopleSource(harness.sql) },
        { index: harness.index, target: harness.target },
        { log: () => {}, full: true },
      );
      assert.deepEqual([full.mode, full.people], ['full', 10]);
    });

    const t1 = '2026-11-01T00:00:00Z';
    const john = { name: 'SMITH, John', officerId: 'off-john', birthYear: 1970, birthMonth: 5 };
    const joe = { name: 'BLOGGS, Joe Frederick', officerId: 'off-joe', birthYear: 1965, birthMonth: 3 };
    /** John's directorship's identity verification, as published: verified directly with Companies House. */
    const johnVerified = {
      appointment_verification_start_on: '2025-12-01',
      appointment_verification_end_on: '2026-12-01',
    };

    test('officers are people: a director who is a PSC is one person with both; officers alone are found by name', async () => {
      const officers = createOfficerStore(harness.sql);
      await officers.replaceCompanyOfficers(
        '00000004',
        [
          officerRecord('00000004', {
            ...john,
            appointedOn: '2022-03-01',
            nationality: 'British',
            identityVerification: johnVerified,
          }),
        ],
        t1,
      );
      await officers.replaceCompanyOfficers(
        '00000005',
        [
          officerRecord('00000005', {
            ...john,
            role: 'secretary',
            appointedOn: '2019-01-01',
            resignedOn: '2021-01-01',
          }),
          officerRecord('00000005', {
            ...joe,
            appointedOn: '2018-01-01',
            nationality: 'Irish',
            countryOfResidence: 'Wales',
          }),
        ],
        t1,
      );
      await officers.replaceCompanyOfficers(
        '00000002',
        [
          officerRecord('00000002', {
            name: 'ACME SECRETARIES LIMITED',
            role: 'corporate-secretary',
            officerId: 'off-acme',
          }),
        ],
        t1,
      );
      const updated = await reindex();
      assert.equal(updated.mode, 'update');
      assert.equal(await harness.index.count(), 12);

      const [smith] = (await search({ name: 'john smith', birth_year: 1970 })).people;
      assert.equal(smith?.name, 'Mr John Smith');
      assert.deepEqual(smith?.roles, ['psc', 'director', 'secretary']);
      assert.deepEqual(smith?.officer_ids, ['off-john']);
      assert.deepEqual([smith?.current_companies, smith?.current_appointments, smith?.appointment_count], [2, 1, 2]);
      assert.deepEqual(
        smith?.appointments.map((a) => [a.company_number, a.company_name, a.company_status, a.role, a.resigned_on]),
        [
          ['00000004', 'DELTA LTD', 'Active', 'director', null],
          ['00000005', 'EPSILON LTD', 'Active', 'secretary', '2021-01-01'],
        ],
      );
      // Each appointment with its own identity verification; the secretaryship published none.
      assert.deepEqual(
        smith?.appointments.map((a) => a.identity_verification),
        [identityVerification(johnVerified), null],
      );
      assert.equal(smith?.active_companies, 3);

      // An officer alone: found by their name in the usual order, with what the appointment says.
      for (const query of ['joe bloggs', 'bloggs', 'BLOGGS, Joe']) {
        const found = (await search({ name: query })).people;
        assert.deepEqual(
          found.map((p) => p.name),
          ['BLOGGS, Joe Frederick'],
          query,
        );
      }
      const [bloggs] = (await search({ name: 'joe bloggs', birth_year: 1965, birth_month: 3 })).people;
      assert.deepEqual(
        [bloggs?.kind, bloggs?.nationality, bloggs?.country_of_residence, bloggs?.company_count],
        ['individual', 'Irish', 'Wales', 0],
      );
      assert.deepEqual(bloggs?.roles, ['director']);
      assert.deepEqual(bloggs?.name_elements, {
        title: null,
        forename: 'Joe',
        middle_name: 'Frederick',
        surname: 'BLOGGS',
      });
      const [acme] = (await search({ name: 'acme secretaries' })).people;
      assert.deepEqual([acme?.kind, acme?.roles], ['corporate', ['corporate-secretary']]);

      // Only PSCs, or only officers.
      assert.deepEqual(await names({ name: 'john smith', role: 'officer' }), ['Mr John Smith 1970']);
      assert.deepEqual(await names({ name: 'bloggs', role: 'psc' }), []);
      assert.deepEqual(await names({ name: 'bloggs', role: 'officer' }), ['BLOGGS, Joe Frederick 1965']);
      assert.equal((await search({ name: 'acme', role: 'psc' })).total, 1);
    });

    test('a resignation, a deletion and a corrected name reach the index by update; a full build agrees', async () => {
      const officers = createOfficerStore(harness.sql);
      const t2 = '2026-11-02T00:00:00Z';
      await officers.replaceCompanyOfficers(
        '00000004',
        [
          officerRecord('00000004', {
            ...john,
            appointedOn: '2022-03-01',
            resignedOn: '2026-10-01',
            nationality: 'British',
            identityVerification: johnVerified,
          }),
        ],
        t2,
      );
      // John's old secretaryship is no longer listed; Joe's name is corrected on the same appointment.
      await officers.replaceCompanyOfficers(
        '00000005',
        [officerRecord('00000005', { ...joe, name: 'BLOGGS, Joseph Frederick', appointedOn: '2018-01-01' })],
        t2,
      );
      const updated = await reindex();
      assert.deepEqual([updated.mode, updated.removed], ['update', 1]);
      const [smith] = (await search({ name: 'john smith', birth_year: 1970 })).people;
      assert.deepEqual(smith?.roles, ['psc', 'director']);
      assert.deepEqual([smith?.current_appointments, smith?.appointment_count, smith?.active_companies], [0, 1, 2]);
      assert.deepEqual(
        smith?.appointments.map((a) => [a.company_number, a.role, a.resigned_on, a.identity_verification]),
        [['00000004', 'director', '2026-10-01', identityVerification(johnVerified)]],
      );
      assert.deepEqual(await names({ name: 'joe bloggs' }), []);
      assert.deepEqual(await names({ name: 'joseph bloggs' }), ['BLOGGS, Joseph Frederick 1965']);
      assert.equal(await harness.index.count(), 12);

      const full = await indexPeople(
        { store: createCompanyStore(harness.sql), source: createPeopleSource(harness.sql) },
        { index: harness.index, target: harness.target },
        { log: () => {}, full: true },
      );
      assert.deepEqual([full.mode, full.people], ['full', 12]);
      const [rebuilt] = (await search({ name: 'john smith', birth_year: 1970 })).people;
      assert.deepEqual(rebuilt, smith);
    });
  });
}

for (const store of testStores) {
  peopleIndexContract(`postgres (${store.name})`, async () => {
    const { sql, close } = await store.open();
    return { sql, index: createPgPeopleIndex(sql), target: 'postgres:people_search', close };
  });
}

let aliases = 0;
const newAlias = () => `people_contract_${process.pid}_${++aliases}`;

peopleIndexContract('elasticsearch', async () => {
  const sql = await createPgliteSql();
  await migrate(sql);
  const client = new Client({ node: elasticsearchUrl() });
  const alias = newAlias();
  await ensurePeopleIndex({ client, alias });
  return {
    sql,
    index: createEsPeopleIndex({ client, alias }),
    target: `elasticsearch:${alias}`,
    async close() {
      await client.indices.delete({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true });
      await client.close();
      await sql.close();
    },
  };
});

describe('Elasticsearch people index: versions and outages', () => {
  test('an index built from an older mapping is outdated, and the indexer rebuilds it', async (t) => {
    const client = new Client({ node: elasticsearchUrl() });
    const sql = await createPgliteSql();
    const alias = newAlias();
    t.after(async () => {
      await client.indices.delete({ index: `${alias}_v*`, ignore_unavailable: true, allow_no_indices: true });
      await client.close();
      await sql.close();
    });
    await migrate(sql);
    await client.indices.create({
      index: `${alias}_v1`,
      mappings: { _meta: { version: 0 }, properties: { person_key: { type: 'keyword' } } },
      aliases: { [alias]: {} },
    });
    await client.index({ index: alias, id: 'old', document: { person_key: 'old' }, refresh: true });
    await ensurePeopleIndex({ client, alias });
    const index = createEsPeopleIndex({ client, alias });
    assert.equal(await index.count(), 1);
    assert.equal(await index.outdated(), true);
    await createPscStore(sql).upsertPscs(RECORDS.slice(0, 4), SNAPSHOT);
    const store = createCompanyStore(sql);
    const target = `elasticsearch:${alias}`;
    await store.recordSearchIndexedThrough(target, await store.now());
    const summary = await indexPeople({ store, source: createPeopleSource(sql) }, { index, target }, { log: () => {} });
    assert.deepEqual([summary.mode, summary.people], ['full', 2]);
    assert.equal(await index.outdated(), false);
    assert.deepEqual(Object.keys(await client.indices.getAlias({ name: alias })), [`${alias}_v2`]);
  });

  test('an Elasticsearch that does not answer is "search unavailable" (503), as for companies', async (t) => {
    const client = new Client({ node: 'http://127.0.0.1:9', maxRetries: 0, requestTimeout: 2000 });
    t.after(() => client.close());
    const index = createEsPeopleIndex({ client, alias: 'people' });
    await assert.rejects(
      index.searchPeople({ name: 'john', limit: 5 }),
      (error) => error instanceof AppError && error.code === 'UPSTREAM_UNAVAILABLE',
    );
  });
});
