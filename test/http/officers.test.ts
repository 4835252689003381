/**
 * Officers end to end over real HTTP: appointments written by the officers stream applier from
 * events in the real shape, then get_officers (current, include_resigned, a disqualification in
 * force, identity verification, an empty list, 404, 400, Markdown that escapes the register's
 * values) and lookup_company's current officers, in JSON and Markdown.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  createDisqualifiedOfficersApplier,
  createOfficersApplier,
} from '../../src/adapters/postgres/officer-appliers.ts';
import type { StreamEvent } from '../../src/ports/stream-appliers.ts';
import { officerItem, syntheticOfficerId } from '../../src/synthetic/officers.ts';
import type { OfficerAppointmentPlan } from '../../src/synthetic/officers.ts';
import { call, markdown, NOW } from '../support/api-fixtures.ts';
import type { World } from '../support/api-world.ts';
import { startWorld } from '../support/api-world.ts';
import { testStores } from '../support/databases.ts';

const SEED = 5;

function event(plan: OfficerAppointmentPlan, timepoint: number, more: Record<string, unknown> = {}): StreamEvent {
  const data = { ...officerItem(SEED, plan), ...more };
  const self = (data.links as { self: string }).self;
  return {
    resource_kind: 'company-officers',
    resource_uri: self,
    resource_id: self.slice(self.lastIndexOf('/') + 1),
    data,
    event: { timepoint, published_at: '2025-06-01T10:00:00', type: 'changed' },
  };
}

describe('get_officers and the lookup’s officers', () => {
  let world: World;
  let key: string;
  before(async () => {
    world = await startWorld({ store: testStores[0]!, search: 'postgres', now: NOW });
    await world.loadRegister(
      [
        { number: '40000001', name: 'BOARD *ROOM* LIMITED' },
        { number: '40000002', name: 'NO BOARD LIMITED' },
        { number: '40000003', name: 'OTHER BOARD LIMITED' },
      ],
      '2025-01-01',
    );
    key = await world.issueKey('pro');
    await world.sql.transaction((tx) =>
      createOfficersApplier().apply(tx, [
        event({ companyNumber: '40000001', personId: 1, appointedOn: '2015-04-01' }, 1, {
          name: 'O’BRIEN, *Star* [link](http://x) <b>',
          identity_verification_details: { appointment_verification_statement_due_on: '2025-05-01' },
        }),
        event({ companyNumber: '40000001', personId: 2, appointedOn: '2020-09-01', role: 'secretary' }, 2),
        event({ companyNumber: '40000001', personId: 3, appointedOn: '2010-01-01', resignedOn: '2019-12-31' }, 3),
      ]),
    );
    await world.sql.transaction((tx) =>
      createDisqualifiedOfficersApplier().apply(tx, [
        {
          resource_kind: 'disqualified-officer-natural',
          resource_uri: `/disqualified-officers/natural/${syntheticOfficerId(SEED, 2)}`,
          resource_id: syntheticOfficerId(SEED, 2),
          data: { disqualifications: [{ disqualified_from: '2025-01-01', disqualified_until: '2099-01-01' }] },
          event: { timepoint: 9, published_at: '2025-06-02T10:00:00', type: 'changed' },
        },
      ]),
    );
  });
  after(() => world.close());

  test('current officers, newest appointed first, in JSON', async () => {
    const answer = await call(world, '/v1/officers?number=40000001&format=json', { key });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.name, 'BOARD *ROOM* LIMITED');
    assert.deepEqual(
      answer.body.officers.map((o: { role: string; appointed_on: string }) => [o.role, o.appointed_on]),
      [
        ['secretary', '2020-09-01'],
        ['director', '2015-04-01'],
      ],
    );
    const [secretary, director] = answer.body.officers;
    assert.equal(secretary.disqualified_until, '2099-01-01');
    assert.equal(secretary.officer_id, syntheticOfficerId(SEED, 2));
    assert.equal(director.identity_verification.appointment_verification_statement_due_on, '2025-05-01');
    assert.equal(typeof director.birth_year, 'number');
    assert.equal(director.address, undefined, 'never an address');
    assert.ok(answer.body.source && answer.body.note);
  });

  test('include_resigned lists resigned officers after the current ones', async () => {
    const answer = await call(world, '/v1/officers?number=40000001&include_resigned=true&format=json', { key });
    assert.deepEqual(
      answer.body.officers.map((o: { resigned_on: string | null }) => o.resigned_on),
      [null, null, '2019-12-31'],
    );
  });

  test('Markdown shows the register’s text as written: emphasis, links and HTML escaped', async () => {
    const text = markdown(await call(world, '/v1/officers?number=40000001', { key }));
    assert.match(text, /^# Officers of BOARD \\\*ROOM\\\* LIMITED \(40000001\)/);
    assert.ok(text.includes('O’BRIEN, \\*Star\\* \\[link\\](http://x) &lt;b&gt;'), text);
    assert.match(text, /\*\*disqualified until 2099-01-01\*\*/);
    assert.match(text, /due 2025-05-01/);
  });

  test('a company with no officers held: an empty list; a number not on the register: 404; bad input: 400', async () => {
    const empty = await call(world, '/v1/officers?number=40000002&format=json', { key });
    assert.deepEqual(empty.body.officers, []);
    assert.match(markdown(await call(world, '/v1/officers?number=40000002', { key })), /_No current officers are held/);
    const missing = await call(world, '/v1/officers?number=49999999', { key });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { error: 'Company 49999999 not found.' });
    const bad = await call(world, '/v1/officers?number=40000001&include_resigned=maybe', { key });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /include_resigned/);
  });

  test('lookup_company lists the current officers, in JSON and Markdown', async () => {
    const json = await call(world, '/v1/company?number=40000001&format=json', { key });
    assert.equal(json.body.officers.length, 2);
    const text = markdown(await call(world, '/v1/company?number=40000001', { key }));
    assert.match(
      text,
      /## Officers\n\n\| Name \| Role \| Appointed \| Nationality \| Occupation \| Country of residence \| Born \|\n/,
    );
    assert.equal(json.body.officers[0].identity_verification, undefined, 'get_officers has it');
  });

  test("a director's network: each officer's other appointments counted, and get_appointments lists them", async () => {
    // Person 1 also sits on another board, and left a third company's before.
    await world.sql.transaction((tx) =>
      createOfficersApplier().apply(tx, [
        event({ companyNumber: '40000003', personId: 1, appointedOn: '2021-02-01' }, 10),
        event(
          {
            companyNumber: '40000003',
            personId: 1,
            appointedOn: '2012-01-01',
            resignedOn: '2014-01-01',
            role: 'secretary',
          },
          11,
          {
            links: {
              self: '/company/40000003/appointments/old-secretary',
              officer: { appointments: `/officers/${syntheticOfficerId(SEED, 1)}/appointments` },
            },
          },
        ),
      ]),
    );
    const officers = await call(world, '/v1/officers?number=40000001&format=json', { key });
    assert.deepEqual(
      officers.body.officers.map((o: { role: string; other_appointments: number }) => [o.role, o.other_appointments]),
      [
        ['secretary', 0],
        ['director', 2],
      ],
    );
    assert.match(
      markdown(await call(world, '/v1/officers?number=40000001', { key })),
      /\| Other appointments \| Officer id \|/,
    );

    const id = syntheticOfficerId(SEED, 1);
    const network = await call(world, `/v1/officers/appointments?officer_id=${id}&format=json`, { key });
    assert.equal(network.status, 200);
    assert.equal(network.body.officer_id, id);
    assert.equal(network.body.current_appointments, 2);
    assert.deepEqual(
      network.body.appointments.map((a: Record<string, unknown>) => [
        a.company_number,
        a.company_name,
        a.company_status,
        a.role,
        a.resigned_on,
      ]),
      [
        ['40000003', 'OTHER BOARD LIMITED', 'Active', 'director', null],
        ['40000001', 'BOARD *ROOM* LIMITED', 'Active', 'director', null],
        ['40000003', 'OTHER BOARD LIMITED', 'Active', 'secretary', '2014-01-01'],
      ],
    );
    assert.equal(network.body.address, undefined, 'never an address');
    const text = markdown(await call(world, `/v1/officers/appointments?officer_id=${id}`, { key }));
    // Named as on the newest appointment written.
    assert.match(text, /^# Appointments of EDWARDS, Paul\n/);
    assert.match(text, /\| 40000001 \| BOARD \\\*ROOM\\\* LIMITED \| Active \| director \| 2015-04-01 \| current \|/);

    const unknown = await call(world, '/v1/officers/appointments?officer_id=nobody', { key });
    assert.deepEqual(
      [unknown.status, unknown.body],
      [404, { error: 'Officer nobody not found: no appointment is held.' }],
    );
    const bad = await call(world, '/v1/officers/appointments?officer_id=a%2Fb', { key });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /officer_id/);
    const missing = await call(world, '/v1/officers/appointments', { key });
    assert.equal(missing.status, 400);
    assert.match(missing.body.error, /officer_id/);
  });
});
