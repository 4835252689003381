/**
 * The SearchIndex contract for criteria search, triggers and stats, run by search-index.test.ts
 * against every adapter with the fixtures of test/support/search-fixtures.ts (read them beside
 * these expectations: each company is built to meet or miss particular rules).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { companyTypeKey } from '../../src/domain/company-type.ts';
import type { CompanyFilters, CompanyQuery, MarketStats, SortOrder } from '../../src/domain/criteria.ts';
import { postTownKey } from '../../src/domain/search-document.ts';
import type { Trigger } from '../../src/domain/triggers.ts';
import type { SearchIndex } from '../../src/ports/search-index.ts';
import { AS_OF, criteriaCompanies as c, searchDocuments } from '../support/search-fixtures.ts';

const BY_NET_ASSETS: SortOrder = { field: 'net_assets', descending: true };
const LEEDS = postTownKey('leeds')!;

export function criteriaContract(
  name: string,
  make: () => Promise<{ index: SearchIndex; close(): Promise<void> }>,
): void {
  describe(`${name} honours SearchIndex.findCompanies and stats`, () => {
    let index: SearchIndex;
    let close: () => Promise<void>;
    before(async () => {
      ({ index, close } = await make());
      await index.upsertCompanies(searchDocuments);
      await index.refresh();
    });
    after(async () => close());

    const find = async (filters: Partial<CompanyFilters>, options: Partial<Omit<CompanyQuery, 'filters'>> = {}) =>
      index.findCompanies({
        filters: { status: 'active', ...filters },
        sort: BY_NET_ASSETS,
        limit: 50,
        asOf: AS_OF,
        ...options,
      });
    const names = async (filters: Partial<CompanyFilters>, options: Partial<Omit<CompanyQuery, 'filters'>> = {}) =>
      (await find(filters, options)).documents.map((d) => d.name);
    const triggered = async (trigger: Trigger, filters: Partial<CompanyFilters> = {}) =>
      names(filters, { trigger, sort: { field: 'name', descending: false } });

    test('status defaults to active; sorted by net assets, missing last; total counts every match', async () => {
      const result = await find({ post_town: LEEDS });
      assert.deepEqual(
        result.documents.map((d) => d.name),
        [c.northwind.name, c.northwindLabs.name, c.southwind.name, c.highwind.name],
      );
      assert.equal(result.total, 4);
      assert.deepEqual(await names({ post_town: LEEDS, status: 'any' }), [
        c.northwind.name,
        c.northwindLabs.name,
        c.southwind.name,
        c.westwind.name,
        c.highwind.name,
      ]);
    });
    test('status groups: dissolved, liquidation', async () => {
      assert.deepEqual(await names({ status: 'dissolved' }), [
        c.westwind.name,
        'MARKS AND SPENCER LIMITED',
        'ACME WIDGETS LIMITED',
      ]);
      assert.deepEqual(await names({ status: 'liquidation' }), [c.midwind.name]);
    });
    test('type by category key, SIC by code prefix', async () => {
      assert.deepEqual(await names({ type: companyTypeKey('llp') }), [c.northwindLabs.name]);
      assert.deepEqual(await names({ type: companyTypeKey('Public Limited Company') }), [c.eastwind.name]);
      assert.deepEqual(await names({ sic: '62' }), [c.northwind.name]);
      assert.deepEqual(await names({ sic: '6', status: 'any' }), [
        c.upwind.name,
        c.northwind.name,
        c.westwind.name,
        c.midwind.name,
      ]);
      assert.deepEqual(await names({ sic: '620' }), [c.northwind.name]);
      assert.deepEqual(await names({ sic: '63' }), []);
    });
    test('incorporation date range, inclusive', async () => {
      assert.deepEqual(
        await names({ incorporated_from: '2018-09-09' }, { sort: { field: 'incorporated', descending: true } }),
        [c.southwind.name, c.highwind.name, c.northwindLabs.name],
      );
      assert.deepEqual(await names({ incorporated_to: '1999-05-05' }), [c.eastwind.name]);
    });
    test('figure bounds are inclusive and never match a missing figure', async () => {
      assert.deepEqual(await names({ figures: { net_assets: { min: 150_000 } } }), [
        c.upwind.name,
        c.northwind.name,
        c.northwindLabs.name,
        c.southwind.name,
      ]);
      assert.deepEqual(await names({ figures: { net_assets: { max: 0 } } }), [c.eastwind.name]);
      assert.deepEqual(
        await names({ figures: { employees: { min: 10 } } }, { sort: { field: 'employees', descending: true } }),
        [c.eastwind.name, c.northwind.name, c.upwind.name],
      );
      assert.deepEqual(await names({ figures: { turnover: { min: 1_000_000, max: 12_000_000 } } }), [
        c.upwind.name,
        c.northwind.name,
      ]);
    });
    test('size bands', async () => {
      // Every fixture's latest period began before 6 April 2025, so the earlier thresholds apply:
      // Upwind's £12m turnover is medium (over £10.2m), Northwind Labs' £800k small (over £632k).
      assert.deepEqual(await names({ size: 'large' }), [c.eastwind.name]);
      assert.deepEqual(await names({ size: 'medium' }), [c.upwind.name]);
      assert.deepEqual(await names({ size: 'small' }), [c.northwind.name, c.northwindLabs.name]);
      assert.deepEqual(await names({ size: 'micro' }), [c.highwind.name]);
    });
    test('risk band on the day asked: overdue accounts raise it once the due date has passed', async () => {
      assert.deepEqual(await names({ risk_band: 'high' }), [c.eastwind.name]);
      // Dissolved companies are high, whatever their last accounts (Westwind's were healthy).
      assert.deepEqual(await names({ risk_band: 'high', status: 'any' }), [
        c.westwind.name,
        c.eastwind.name,
        'MARKS AND SPENCER LIMITED',
        'ACME WIDGETS LIMITED',
        c.midwind.name,
      ]);
      assert.deepEqual(await names({ risk_band: 'low', status: 'dissolved' }), []);
      assert.deepEqual(await names({ risk_band: 'medium' }), [c.highwind.name]);
      assert.deepEqual(await names({ risk_band: 'low' }), [
        c.upwind.name,
        c.northwind.name,
        c.northwindLabs.name,
        c.southwind.name,
      ]);
      assert.deepEqual(await names({ risk_band: 'low' }, { asOf: '2025-01-01' }), [
        c.upwind.name,
        c.northwind.name,
        c.northwindLabs.name,
        c.southwind.name,
        c.highwind.name,
      ]);
      assert.equal((await find({ risk_band: 'unknown' })).total, 12);
    });
    test('signals', async () => {
      assert.deepEqual(await names({ signal: 'cash_rich' }), [c.upwind.name, c.northwind.name]);
      assert.deepEqual(await names({ signal: 'negative_net_assets' }), [c.eastwind.name]);
      assert.deepEqual(await names({ signal: 'growing' }), [c.northwind.name]);
      assert.deepEqual(await names({ signal: 'declining' }), [c.eastwind.name]);
      assert.deepEqual(await names({ signal: 'accounts_overdue' }), [c.eastwind.name, c.highwind.name]);
      assert.deepEqual(await names({ signal: 'accounts_overdue', status: 'any' }), [
        c.eastwind.name,
        c.midwind.name,
        c.highwind.name,
      ]);
      assert.deepEqual(await names({ signal: 'charges_outstanding' }), [c.northwindLabs.name]);
    });
    test('trajectory: the overall direction of the filed figures', async () => {
      assert.deepEqual(await names({ trajectory: 'growing' }), [c.northwind.name]);
      assert.deepEqual(await names({ trajectory: 'declining' }), [c.eastwind.name]);
      // Northwind Labs: every figure within 10% of its first value.
      assert.deepEqual(await names({ trajectory: 'stable' }), [c.northwindLabs.name]);
      // One balance sheet date, or none, is no trajectory at all.
      assert.deepEqual(await names({ trajectory: 'stable', post_town: LEEDS }), [c.northwindLabs.name]);
    });
    test('growth per figure: the latest value against the period before, by direction and percent', async () => {
      // Turnover: Northwind 4m to 5m (+25%), Eastwind 90m to 80m (-11.1%), Northwind Labs 780k to 800k (+2.6%).
      assert.deepEqual(await names({ growth: { turnover: { trend: 'growing' } } }), [c.northwind.name]);
      assert.deepEqual(await names({ growth: { turnover: { trend: 'declining' } } }), [c.eastwind.name]);
      assert.deepEqual(await names({ growth: { turnover: { trend: 'stable' } } }), [c.northwindLabs.name]);
      assert.deepEqual(await names({ growth: { turnover: { min: 0 } } }), [c.northwind.name, c.northwindLabs.name]);
      assert.deepEqual(await names({ growth: { turnover: { min: -20, max: 3 } } }), [
        c.northwindLabs.name,
        c.eastwind.name,
      ]);
      assert.deepEqual(await names({ growth: { turnover: { max: 25 } } }), [
        c.northwind.name,
        c.northwindLabs.name,
        c.eastwind.name,
      ]);
      // Profit from -50k to 300k is a rise of 700% of the loss; employees 650 to 600 is within 10%.
      assert.deepEqual(await names({ growth: { profit: { trend: 'growing', min: 700 } } }), [c.northwind.name]);
      assert.deepEqual(await names({ growth: { employees: { trend: 'stable' } } }), [
        c.northwindLabs.name,
        c.eastwind.name,
      ]);
      // Without the figure in both periods: no direction, no percent, so no growth filter matches.
      assert.deepEqual(await names({ growth: { total_assets: { trend: 'growing' } } }), []);
      assert.deepEqual(await names({ growth: { total_assets: { min: -1000 } } }), []);
      // Two figures at once: both must hold.
      assert.deepEqual(
        await names({ growth: { turnover: { trend: 'growing' }, employees: { trend: 'declining' } } }),
        [],
      );
    });
    test('insolvency proxy: a distress status, negative net assets, or low liquidity after a fall', async () => {
      assert.deepEqual(await names({ insolvency_proxy: true }), [c.eastwind.name]);
      assert.deepEqual(await names({ insolvency_proxy: true, status: 'any' }), [c.eastwind.name, c.midwind.name]);
      const active = (await find({})).total;
      const without = await find({ insolvency_proxy: false });
      assert.equal(without.total, active - 1);
      assert.ok(!without.documents.some((d) => d.name === c.eastwind.name));
    });
    test('negative net assets as a yes or no; no figure is neither', async () => {
      assert.deepEqual(await names({ negative_net_assets: true }), [c.eastwind.name]);
      assert.deepEqual(await names({ negative_net_assets: false }), [
        c.upwind.name,
        c.northwind.name,
        c.northwindLabs.name,
        c.southwind.name,
      ]);
    });
    test('total assets less current liabilities: inclusive bounds, never a missing figure', async () => {
      const talcl = (bounds: { min?: number; max?: number }) =>
        names({ figures: { total_assets_less_current_liabilities: bounds } });
      assert.deepEqual(await talcl({ min: 2_100_000 }), [c.upwind.name, c.northwind.name]);
      assert.deepEqual(await talcl({ max: 0 }), [c.eastwind.name]);
      assert.deepEqual(await talcl({ min: 2_000_000, max: 3_000_000 }), [c.northwind.name]);
      assert.equal(c.northwind.total_assets_less_current_liabilities, 2_100_000);
    });
    test('has_corporate_parent: a current corporate parent or none; no PSC record held is neither', async () => {
      assert.deepEqual(await names({ has_corporate_parent: true }), [
        c.northwind.name,
        c.southwind.name,
        c.eastwind.name,
      ]);
      assert.deepEqual(await names({ has_corporate_parent: false }), [c.upwind.name, c.northwindLabs.name]);
      // Highwind and the name fixtures have no PSC record: in neither answer, though active.
      const active = (await find({})).total;
      assert.equal(active, 18);
      assert.equal(
        (await find({ has_corporate_parent: true })).total + (await find({ has_corporate_parent: false })).total,
        5,
      );
    });
    test('identity_unverified: overdue on the day asked, from the indexed date; false is every other', async () => {
      assert.deepEqual(await names({ identity_unverified: true }), [c.northwind.name]);
      assert.deepEqual(await names({ identity_unverified: true }, { asOf: '2025-07-01' }), [
        c.northwind.name,
        c.southwind.name,
      ]);
      assert.deepEqual(await names({ identity_unverified: true }, { asOf: '2025-06-29' }), []);
      const active = (await find({})).total;
      assert.equal((await find({ identity_unverified: false })).total, active - 1);
      assert.ok(!(await names({ identity_unverified: false })).includes(c.northwind.name));
      assert.equal((await index.stats({ status: 'any', identity_unverified: true }, AS_OF)).companies, 1);
    });
    test('parent_country: a country key of a current parent, overseas, or the UK and its parts', async () => {
      assert.deepEqual(await names({ parent_country: 'overseas' }), [c.southwind.name, c.eastwind.name]);
      assert.deepEqual(await names({ parent_country: 'united kingdom' }), [c.northwind.name]);
      assert.deepEqual(await names({ parent_country: 'england' }), [c.northwind.name]);
      assert.deepEqual(await names({ parent_country: 'cayman islands' }), [c.southwind.name]);
      // "United States Of America" as filed is the key `united states`; Delaware stays Delaware.
      assert.deepEqual(await names({ parent_country: 'united states' }), [c.eastwind.name]);
      assert.deepEqual(await names({ parent_country: 'delaware' }), [c.eastwind.name]);
      assert.deepEqual(await names({ parent_country: 'jersey' }), []);
      assert.deepEqual(await names({ parent_country: 'overseas', has_corporate_parent: false }), []);
    });
    test('controller_count: inclusive bounds on current PSCs; never a company without PSC records', async () => {
      assert.deepEqual(await names({ controller_count: { min: 2 } }), [
        c.northwind.name,
        c.northwindLabs.name,
        c.eastwind.name,
      ]);
      assert.deepEqual(await names({ controller_count: { max: 0 } }), [c.upwind.name]);
      assert.deepEqual(await names({ controller_count: { min: 1, max: 1 } }), [c.southwind.name]);
      assert.deepEqual(await names({ controller_count: { min: 0 } }), [
        c.upwind.name,
        c.northwind.name,
        c.northwindLabs.name,
        c.southwind.name,
        c.eastwind.name,
      ]);
      assert.deepEqual(await names({ controller_count: { min: 3 }, parent_country: 'overseas' }), [c.eastwind.name]);
    });
    test('the ownership fields come back as indexed', async () => {
      const [eastwind] = (await find({ parent_country: 'delaware' })).documents;
      assert.deepEqual(eastwind, c.eastwind);
      assert.deepEqual(
        [eastwind!.controller_count, eastwind!.has_corporate_parent, eastwind!.parent_countries],
        [3, true, ['delaware', 'overseas', 'united states']],
      );
      const [highwind] = (await find({ post_town: LEEDS, figures: { employees: { max: 3 } } })).documents;
      assert.deepEqual(
        [highwind!.controller_count, highwind!.has_corporate_parent, highwind!.parent_countries],
        [null, null, []],
      );
    });

    test('sort by name or cash, either way, missing last, ties by company number', async () => {
      assert.deepEqual(await names({ post_town: LEEDS }, { sort: { field: 'name', descending: false } }), [
        c.highwind.name,
        c.northwindLabs.name,
        c.northwind.name,
        c.southwind.name,
      ]);
      assert.deepEqual(await names({ post_town: LEEDS }, { sort: { field: 'cash', descending: false } }), [
        c.southwind.name,
        c.northwindLabs.name,
        c.northwind.name,
        c.highwind.name,
      ]);
      assert.deepEqual(await names({ post_town: LEEDS }, { sort: { field: 'cash', descending: true } }), [
        c.northwind.name,
        c.southwind.name,
        c.northwindLabs.name,
        c.highwind.name,
      ]);
      // A tie at the end of a short page is settled by company number among all the tied.
      assert.deepEqual(await names({ post_town: LEEDS }, { sort: { field: 'cash', descending: false }, limit: 1 }), [
        c.southwind.name,
      ]);
      assert.deepEqual(await names({ post_town: LEEDS }, { sort: { field: 'cash', descending: true }, limit: 2 }), [
        c.northwind.name,
        c.southwind.name,
      ]);
      const ties = await find({ sic: '99' }, { limit: 3 });
      assert.deepEqual(
        ties.documents.map((d) => d.company_number),
        ['00000001', '00000002', '00000003'],
      );
    });
    test('the limit cuts the list, not the total; documents come back whole', async () => {
      const result = await find({ post_town: LEEDS }, { limit: 2 });
      assert.equal(result.documents.length, 2);
      assert.equal(result.total, 4);
      assert.deepEqual(result.documents[0], c.northwind);
    });
    test('no match: an empty list and a zero total', async () => {
      assert.deepEqual(await find({ post_town: 'NOWHERE' }), { total: 0, documents: [], next: null });
    });

    test('every trigger, strongest first, with the same filters as search', async () => {
      const strongest = async (trigger: Trigger, filters: Partial<CompanyFilters> = {}) =>
        (await find(filters, { trigger })).documents.map((d) => d.name);
      assert.deepEqual(await strongest('cash_rich'), [c.upwind.name, c.northwind.name]);
      assert.deepEqual(await strongest('cash_rich', { post_town: LEEDS }), [c.northwind.name]);
      assert.deepEqual(await triggered('rapid_growth'), [c.northwind.name]);
      assert.deepEqual(await triggered('hiring'), [c.northwind.name]);
      assert.deepEqual(await triggered('turned_profitable'), [c.northwind.name]);
      assert.deepEqual(await triggered('recently_filed'), [c.southwind.name]);
      assert.deepEqual(await strongest('accounts_overdue'), [c.eastwind.name, c.highwind.name]);
      assert.deepEqual(await strongest('accounts_overdue', { status: 'any' }), [
        c.midwind.name,
        c.eastwind.name,
        c.highwind.name,
      ]);
      assert.deepEqual(await triggered('distress'), [c.eastwind.name]);
      assert.deepEqual(await triggered('young_and_funded'), [c.southwind.name]);
      assert.deepEqual(await triggered('young_and_funded', {}), [c.southwind.name]);
      assert.deepEqual(await strongest('cash_rich', { post_town: 'MANCHESTER' }), []);
    });
    test('time-bound triggers move with the day asked', async () => {
      assert.deepEqual(await names({}, { trigger: 'recently_filed', asOf: '2025-07-15' }), []);
      assert.deepEqual(await names({}, { trigger: 'recently_filed', asOf: '2025-02-01' }), [c.upwind.name]);
      assert.deepEqual(await names({}, { trigger: 'young_and_funded', asOf: '2026-01-16' }), []);
    });

    test('stats: counts by status, type and year; exact percentiles on small sets', async () => {
      const stats = await index.stats({ status: 'any', post_town: LEEDS }, AS_OF);
      assertStats(stats, {
        companies: 5,
        with_accounts: 5,
        by_status: { Active: 4, Dissolved: 1 },
        by_type: { 'Private Limited Company': 4, 'Limited Liability Partnership': 1 },
        incorporations_by_year: { '2005': 1, '2010': 1, '2018': 1, '2020': 1, '2024': 1 },
        figures: {
          net_assets: {
            count: 4,
            mean: 615_000,
            p10: 52_000,
            p25: 115_000,
            median: 225_000,
            p75: 725_000,
            p90: 1_490_000,
          },
          cash: { count: 4, mean: 251_250, p10: 18_500, p25: 38_750, median: 50_000, p75: 262_500, p90: 645_000 },
          turnover: {
            count: 2,
            mean: 2_900_000,
            p10: 1_220_000,
            p25: 1_850_000,
            median: 2_900_000,
            p75: 3_950_000,
            p90: 4_580_000,
          },
          employees: { count: 3, mean: 17, p10: 4, p25: 5.5, median: 8, p75: 24, p90: 33.6 },
          profit: { count: 1, mean: 300_000, p10: 300_000, p25: 300_000, median: 300_000, p75: 300_000, p90: 300_000 },
        },
        negative_net_assets_share: 0,
      });
    });
    test('stats default to active companies; the negative net assets share is of those with the figure', async () => {
      const stats = await index.stats({ status: 'active' }, AS_OF);
      assert.equal(stats.companies, 18);
      assert.equal(stats.with_accounts, 6);
      assert.equal(stats.negative_net_assets_share, 0.2);
      assert.deepEqual(stats.by_status, { Active: 18 });
    });
    test('stats filtered by risk band use the day asked', async () => {
      assert.equal((await index.stats({ status: 'active', risk_band: 'medium' }, AS_OF)).companies, 1);
      assert.equal((await index.stats({ status: 'active', risk_band: 'medium' }, '2025-01-01')).companies, 0);
    });
    test('stats take the ownership filters', async () => {
      const stats = (filters: Partial<CompanyFilters>) => index.stats({ status: 'any', ...filters }, AS_OF);
      const overseas = await stats({ parent_country: 'overseas' });
      assert.equal(overseas.companies, 2);
      assert.deepEqual(overseas.by_type, { 'Private Limited Company': 1, 'Public Limited Company': 1 });
      assert.equal(overseas.negative_net_assets_share, 0.5);
      assert.equal((await stats({ has_corporate_parent: true })).companies, 3);
      assert.equal((await stats({ has_corporate_parent: false })).companies, 2);
      assert.equal((await stats({ controller_count: { min: 2, max: 2 } })).companies, 2);
      const grouped = await index.groupedStats({ status: 'any', has_corporate_parent: true }, 'post_town', AS_OF);
      assert.deepEqual(
        grouped.groups.map((g) => [g.key, g.companies]),
        [
          ['LEEDS', 2],
          ['MANCHESTER', 1],
        ],
      );
    });
    test('stats over no company', async () => {
      const empty = { count: 0, mean: null, p10: null, p25: null, median: null, p75: null, p90: null };
      assertStats(await index.stats({ status: 'any', post_town: 'NOWHERE' }, AS_OF), {
        companies: 0,
        with_accounts: 0,
        by_status: {},
        by_type: {},
        incorporations_by_year: {},
        figures: { net_assets: empty, cash: empty, turnover: empty, employees: empty, profit: empty },
        negative_net_assets_share: null,
      });
    });
  });
}

/** Equal, with figures compared to a relative 1e-9 (floating point sums differ by engine). */
function assertStats(actual: MarketStats, expected: MarketStats): void {
  const { figures, ...rest } = actual;
  const { figures: expectedFigures, ...expectedRest } = expected;
  assert.deepEqual(rest, expectedRest);
  assert.deepEqual(Object.entries(actual.by_status), Object.entries(expected.by_status), 'by_status order');
  for (const [figure, stats] of Object.entries(expectedFigures)) {
    for (const [key, value] of Object.entries(stats)) {
      const got = (figures as unknown as Record<string, Record<string, number | null>>)[figure]![key]!;
      if (value === null) assert.equal(got, null, `${figure}.${key}`);
      else assert.ok(Math.abs(got - value) <= Math.abs(value) * 1e-9, `${figure}.${key}: ${got} ≠ ${value}`);
    }
  }
}
