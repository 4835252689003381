/**
 * lookup_company's Markdown carries what its JSON carries: each field of the profile that a
 * reader of the JSON would see is somewhere in the text (issue 13, part 7). Pure: a profile built
 * from a register record and a history, rendered.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emptyFigures } from '../../src/domain/figures.ts';
import type { AccountsEntry } from '../../src/domain/filings.ts';
import { companyProfile } from '../../src/operations/company-profile.ts';
import { renderProfile } from '../../src/operations/lookup-company.ts';
import { renderProfiles } from '../../src/operations/lookup-companies.ts';
import { company } from '../support/store-records.ts';

const register = {
  ...company('01234567', {
    name: 'NEWCO TRADING LIMITED',
    accounts_category: 'SMALL',
    confirmation_last_made_up_to: '2024-04-30',
    confirmation_next_due: '2025-05-14',
    address: {
      care_of: 'SMITH & CO ACCOUNTANTS',
      po_box: 'PO BOX 42',
      line_1: '1 HIGH STREET',
      line_2: 'UNIT 4',
      post_town: 'HARROGATE',
      county: 'NORTH YORKSHIRE',
      country: 'ENGLAND',
      postcode: 'HG1 1AA',
    },
    previous_names: [
      { name: 'OLDCO LIMITED', changed: '2019-03-01' },
      { name: 'FIRSTCO LTD', changed: '2012-07-15' },
    ],
  }),
  removed_from_register: null,
  snapshot_date: '2025-01-01',
};

const accounts: AccountsEntry[] = [
  {
    balance_sheet_date: '2024-12-31',
    period_start: '2024-01-01',
    published: '2025-06-01',
    standard: 'FRS 102',
    figures: {
      ...emptyFigures(),
      net_assets: 250_000,
      equity: 250_000,
      total_assets_less_current_liabilities: 310_000,
      cash: 90_000,
      current_assets: 400_000,
      creditors: 210_000,
      creditors_within_one_year: 150_000,
      creditors_after_one_year: 60_000,
      debtors: 120_000,
    },
    quality: [{ field: 'employees', period: 'current', message: 'employees 4,000 is implausible for a small company' }],
    from_prior_period: false,
    source: { zip: 'Accounts_Bulk_Data-2025-06-01.zip', file: 'Prod223_3456_01234567_20241231.html' },
  },
  {
    balance_sheet_date: '2023-12-31',
    period_start: '2023-01-01',
    published: '2024-05-20',
    standard: 'FRS 102',
    figures: { ...emptyFigures(), net_assets: 200_000, creditors_within_one_year: 130_000 },
    quality: [{ field: 'cash', period: 'prior', message: 'cash is larger than current assets' }],
    from_prior_period: false,
    source: { zip: null, file: '01234567_20231231.xml' },
  },
];

const markdown = renderProfile(companyProfile({ company: register, accounts }, '2025-06-15'));

const shown: [what: string, pattern: RegExp][] = [
  ['the name and number', /^# NEWCO TRADING LIMITED \(01234567\)/],
  [
    'care of, PO box, county and country in the address',
    /c\/o SMITH & CO ACCOUNTANTS, PO BOX 42, 1 HIGH STREET, UNIT 4, HARROGATE, NORTH YORKSHIRE, HG1 1AA, ENGLAND/,
  ],
  ['the accounts category', /\*\*Accounts:\*\* SMALL; last made up to 2022-12-31/],
  ['the confirmation statement', /\*\*Confirmation statement:\*\* last made up to 2024-04-30, next due 2025-05-14/],
  [
    'the previous names with their dates',
    /## Previous names[\s\S]*\| OLDCO LIMITED \| 2019-03-01 \|\n\| FIRSTCO LTD \| 2012-07-15 \|/,
  ],
  [
    'the creditors split, every year',
    /\| 2024-12-31 \| 2024-01-01 \| £250k \| £310k \| £400k \| £120k \| £210k \| £150k \| £60k \|/,
  ],
  ['the creditors split of an older year', /\| 2023-12-31 \| 2023-01-01 \| — \| — \| — \| — \| — \| £130k \| — \|/],
  [
    'the latest filing’s quality warning',
    /\| 2024-12-31 \| current \| employees \| employees 4,000 is implausible for a small company \|/,
  ],
  ['an older filing’s quality warning', /\| 2023-12-31 \| prior \| cash \| cash is larger than current assets \|/],
  ['the latest figures, creditors included', /\| creditors_after_one_year \| £60k \|/],
  [
    'each year’s source filing',
    /## Source filings\n\n\| Balance sheet date \| Filed file \| Bulk file \|\n\|---\|---\|---\|\n\| 2024-12-31 \| Prod223_3456_01234567_20241231\.html \| Accounts_Bulk_Data-2025-06-01\.zip \|\n\| 2023-12-31 \| 01234567_20231231\.xml \| \(loaded on its own\) \|/,
  ],
];

for (const [what, pattern] of shown) test(`lookup Markdown shows ${what}`, () => assert.match(markdown, pattern));

test('lookup Markdown leaves out the previous names and warnings sections when there are none', () => {
  const plain = renderProfile(
    companyProfile(
      {
        company: { ...register, previous_names: [] },
        accounts: accounts.map((a) => ({ ...a, quality: [] })),
      },
      '2025-06-15',
    ),
  );
  assert.doesNotMatch(plain, /## Previous names/);
  assert.doesNotMatch(plain, /## Quality warnings/);
});

test('batch Markdown: one row per company found, its signals, and the numbers not found', () => {
  const profile = {
    ...companyProfile({ company: register, accounts }, '2025-06-15'),
    controllers: [],
    psc_statements: [],
  };
  const text = renderProfiles({ results: [profile], not_found: ['00000099', 'SC000001'] });
  assert.match(text, /^# 1 of 3 companies found/);
  assert.match(
    text,
    /\| 01234567 \| NEWCO TRADING LIMITED \| Active \| 2015-01-01 \| 2024-12-31 \| £250k \| £90k \| — \| — \| — \| \w+ \| \w+ \(2 periods\) \|/,
  );
  assert.match(text, /\*\*Not on the register \(2\):\*\* 00000099, SC000001/);
  assert.match(renderProfiles({ results: [], not_found: ['00000099'] }), /^# 0 of 1 company found/);
});
