/** A Public Data API company profile read as the register company the store keeps. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { companyFromProfile, ProfileError } from '../../src/domain/company-profile.ts';
import { company } from '../support/store-records.ts';
import { profile } from '../support/stream-world.ts';

describe('companyFromProfile', () => {
  const cases: { name: string; data: Record<string, unknown>; want: Partial<ReturnType<typeof companyFromProfile>> }[] =
    [
      {
        name: 'status key to the snapshot word',
        data: { company_status: 'liquidation' },
        want: { status: 'Liquidation' },
      },
      { name: 'administration', data: { company_status: 'administration' }, want: { status: 'In Administration' } },
      {
        name: 'proposal to strike off from the status detail',
        data: { company_status: 'active', company_status_detail: 'active-proposal-to-strike-off' },
        want: { status: 'Active - Proposal to Strike off' },
      },
      { name: 'type key to the category', data: { type: 'llp' }, want: { type: 'Limited Liability Partnership' } },
      { name: 'accounts type to the category', data: {}, want: { accounts_category: 'MICRO ENTITY' } },
      { name: 'dates', data: {}, want: { accounts_next_due: '2099-09-30', confirmation_next_due: '2099-01-15' } },
      { name: 'reference day and month as numbers', data: {}, want: { accounts_ref_day: 31, accounts_ref_month: 12 } },
      {
        name: 'SIC codes keep the description held',
        data: { sic_codes: ['62020', '70229'] },
        want: { sic_codes: ['62020 - Information technology consultancy activities', '70229'] },
      },
      { name: 'charges counts are kept from the record held', data: {}, want: { charges_total: 3 } },
      {
        name: 'previous names',
        data: {
          previous_company_names: [{ name: 'OLD LIMITED', ceased_on: '2020-02-02', effective_from: '2015-01-01' }],
        },
        want: { previous_names: [{ name: 'OLD LIMITED', changed: '2020-02-02' }] },
      },
    ];
  const held = company('00000001', { charges_total: 3 });
  for (const { name, data, want } of cases) {
    test(name, () => {
      const got = companyFromProfile(profile('00000001', data), held);
      assert.deepEqual(Object.fromEntries(Object.keys(want).map((k) => [k, got[k as keyof typeof got]])), want);
    });
  }
  test('a malformed date is refused naming the field', () =>
    assert.throws(
      () => companyFromProfile(profile('00000001', { date_of_creation: '01/02/2015' }), null),
      (error: unknown) => error instanceof ProfileError && /date_of_creation/.test(error.message),
    ));
  test('no name is refused', () =>
    assert.throws(() => companyFromProfile(profile('00000001', { company_name: '' }), null), /company_name/));
});
