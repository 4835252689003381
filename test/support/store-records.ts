/**
 * Register companies and parsed filings as the loaders hand them to the store, for tests that
 * exercise the store and what reads from it.
 */
import type { RegisterCompany } from '../../src/domain/company.ts';
import { emptyFigures } from '../../src/domain/figures.ts';
import type { FigureSet } from '../../src/domain/figures.ts';
import type { FilingRecord } from '../../src/domain/filings.ts';

export function company(number: string, overrides: Partial<RegisterCompany> = {}): RegisterCompany {
  return {
    company_number: number,
    name: `COMPANY ${number} LIMITED`,
    status: 'Active',
    type: 'Private Limited Company',
    incorporated: '2015-01-01',
    dissolved: null,
    country_of_origin: 'United Kingdom',
    accounts_ref_day: 31,
    accounts_ref_month: 12,
    accounts_category: 'MICRO ENTITY',
    accounts_last_made_up_to: '2022-12-31',
    accounts_next_due: '2023-09-30',
    confirmation_last_made_up_to: null,
    confirmation_next_due: null,
    charges_total: 0,
    charges_outstanding: 0,
    charges_part_satisfied: 0,
    charges_satisfied: 0,
    sic_codes: ['62020 - Information technology consultancy activities'],
    address: {
      care_of: null,
      po_box: null,
      line_1: '1 HIGH STREET',
      line_2: null,
      post_town: 'LEEDS',
      county: null,
      country: null,
      postcode: 'LS1 1AA',
    },
    previous_names: [{ name: 'OLD NAME LTD', changed: '2018-05-01' }],
    ...overrides,
  };
}

export function figures(netAssets: number): FigureSet {
  return { ...emptyFigures(), net_assets: netAssets, equity: netAssets };
}

export function filing(
  number: string,
  zip: string,
  file: string,
  date: string,
  netAssets: number,
  extra: Partial<FilingRecord> = {},
): FilingRecord {
  return {
    company_number: number,
    source_zip: zip,
    source_file: file,
    published: '2024-01-10',
    balance_sheet_date: date,
    period_start: null,
    standard: 'FRS 105',
    entity_name: null,
    current: figures(netAssets),
    prior_balance_sheet_date: null,
    prior_period_start: null,
    prior: null,
    quality: [],
    ...extra,
  };
}
