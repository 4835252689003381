/**
 * Companies for the search contract: names crafted for the ranking rules (no accounts), and
 * companies with crafted histories for criteria, triggers and stats. Documents are built by the
 * domain's searchDocument, as the indexer builds them.
 */
import type { AccountsPeriod } from '../../src/domain/accounts-period.ts';
import { emptyFigures } from '../../src/domain/figures.ts';
import type { FigureSet } from '../../src/domain/figures.ts';
import type { IndexedRegisterFacts, SearchDocument } from '../../src/domain/search-document.ts';
import { searchDocument } from '../../src/domain/search-document.ts';
import type { ParentPlace } from '../../src/domain/countries.ts';

/** The day criteria, triggers and stats are asked on. */
export const AS_OF = '2025-06-30';

const nameFixtures: [number: string, name: string, status?: string][] = [
  ['00000001', 'TESCO PLC'],
  ['00000002', 'TESCO STORES LIMITED'],
  ['00000003', 'TESCO'],
  ['00000004', 'ATESCO TRADING LTD'],
  ['00000005', 'BEST TESCO SUPPLIES LTD'],
  ['00000006', 'MARKS & SPENCER GROUP P.L.C.'],
  ['00000007', 'MARKS AND SPENCER LIMITED', 'Dissolved'],
  ['00000008', 'CAFÉ NÉRO LIMITED'],
  ['00000009', "O'BRIEN'S BAKERY LTD"],
  ['00000010', 'ACME WIDGETS LIMITED', 'Dissolved'],
  ['00000011', 'ACME WIDGETS (UK) LIMITED'],
  ['00000012', 'LIMITED EDITION PRINTS LTD'],
  ['00000013', 'ZEBRA CROSSINGS LTD'],
  ['00000014', 'STORES OF TESCO LTD'],
];

function facts(overrides: Partial<IndexedRegisterFacts> & Pick<IndexedRegisterFacts, 'company_number' | 'name'>) {
  return {
    status: 'Active',
    type: 'Private Limited Company',
    post_town: 'LONDON',
    incorporated: '2010-01-01',
    sic_codes: ['99999 - Dormant Company'],
    accounts_next_due: '2025-12-31',
    accounts_last_made_up_to: null,
    charges_outstanding: 0,
    ...overrides,
  };
}

function period(balanceSheetDate: string, published: string, figures: Partial<FigureSet>): AccountsPeriod {
  return { balance_sheet_date: balanceSheetDate, published, figures: { ...emptyFigures(), ...figures } };
}

export const nameDocuments: SearchDocument[] = nameFixtures.map(([company_number, name, status]) =>
  searchDocument(facts({ company_number, name, ...(status ? { status } : {}) }), []),
);

/** A current corporate parent: registered on the UK register, or overseas. */
function parent(country: string, overseas = false): ParentPlace {
  return { country, overseas, uk_registered: !overseas };
}

/**
 * Companies with accounts, by a short label the tests use. Their PSC registers: Northwind has an
 * individual and a UK parent; Southwind a parent in the Cayman Islands; Eastwind an individual and
 * two US parents; Northwind Labs two individuals; Upwind a statement only (no registrable PSC);
 * the others no PSC record at all. Identity verification: overdue at Northwind on AS_OF, at
 * Southwind from the day after.
 */
export const criteriaCompanies = {
  northwind: searchDocument(
    facts({
      company_number: '00100001',
      name: 'NORTHWIND TRADING LTD',
      post_town: 'LEEDS',
      sic_codes: ['62020 - Information technology consultancy activities'],
      incorporated: '2010-03-01',
    }),
    [
      period('2024-12-31', '2025-03-02', {
        net_assets: 2_000_000,
        total_assets_less_current_liabilities: 2_100_000,
        cash: 900_000,
        current_assets: 1_500_000,
        turnover: 5_000_000,
        employees: 40,
        profit: 300_000,
      }),
      period('2023-12-31', '2024-03-05', {
        net_assets: 1_400_000,
        cash: 600_000,
        current_assets: 1_200_000,
        turnover: 4_000_000,
        employees: 30,
        profit: -50_000,
      }),
    ],
    { controllers: 2, parents: [parent('England')] },
    // A director's or PSC's identity verification was due by 2025-06-29: overdue on AS_OF.
    '2025-06-30',
  ),
  southwind: searchDocument(
    facts({
      company_number: '00100002',
      name: 'SOUTHWIND LOGISTICS LTD',
      post_town: 'LEEDS',
      sic_codes: ['49410 - Freight transport by road'],
      incorporated: '2024-01-15',
    }),
    [period('2024-12-31', '2025-06-10', { net_assets: 150_000, cash: 50_000, current_assets: 200_000 })],
    { controllers: 1, parents: [parent('Cayman Islands', true)] },
    // Due by AS_OF itself: overdue only from the day after.
    '2025-07-01',
  ),
  eastwind: searchDocument(
    facts({
      company_number: '00100003',
      name: 'EASTWIND RETAIL PLC',
      type: 'Public Limited Company',
      post_town: 'MANCHESTER',
      sic_codes: ['47110 - Retail sale in non-specialised stores'],
      incorporated: '1999-05-05',
      accounts_next_due: '2024-12-31',
      accounts_last_made_up_to: '2024-03-31',
    }),
    [
      period('2024-03-31', '2024-07-01', {
        net_assets: -200_000,
        total_assets_less_current_liabilities: -150_000,
        cash: 100_000,
        turnover: 80_000_000,
        employees: 600,
      }),
      period('2023-03-31', '2023-07-01', { net_assets: 500_000, cash: 400_000, turnover: 90_000_000, employees: 650 }),
    ],
    { controllers: 3, parents: [parent('Delaware', true), parent('United States Of America', true)] },
  ),
  westwind: searchDocument(
    facts({
      company_number: '00100004',
      name: 'WESTWIND CONSULTING LTD',
      status: 'Dissolved',
      post_town: 'LEEDS',
      sic_codes: ['62012 - Business and domestic software development'],
      incorporated: '2005-02-02',
      accounts_next_due: '2020-09-30',
    }),
    [period('2019-12-31', '2020-04-01', { net_assets: 10_000, cash: 5_000 })],
  ),
  midwind: searchDocument(
    facts({
      company_number: '00100005',
      name: 'MIDWIND HOLDINGS LTD',
      status: 'Liquidation',
      post_town: 'BRISTOL',
      sic_codes: ['64209 - Activities of other holding companies n.e.c.'],
      incorporated: '2015-07-07',
      accounts_next_due: '2023-01-01',
    }),
    [],
  ),
  northwindLabs: searchDocument(
    facts({
      company_number: '00100006',
      name: 'NORTHWIND LABS LLP',
      type: 'Limited Liability Partnership',
      post_town: ' Leeds ',
      sic_codes: ['72190 - Other research and experimental development on natural sciences and engineering'],
      incorporated: '2018-09-09',
      charges_outstanding: 2,
    }),
    [
      period('2024-06-30', '2024-10-01', { net_assets: 300_000, cash: 50_000, employees: 8, turnover: 800_000 }),
      period('2023-06-30', '2023-10-01', { net_assets: 290_000, cash: 48_000, employees: 8, turnover: 780_000 }),
    ],
    { controllers: 2, parents: [] },
  ),
  highwind: searchDocument(
    facts({
      company_number: '00100007',
      name: 'HIGHWIND STUDIOS LTD',
      post_town: 'LEEDS',
      sic_codes: ['59111 - Motion picture production activities'],
      incorporated: '2020-04-04',
      accounts_next_due: '2025-03-31',
      accounts_last_made_up_to: '2023-06-30',
    }),
    [period('2023-06-30', '2024-02-01', { employees: 3 })],
  ),
  upwind: searchDocument(
    facts({
      company_number: '00100008',
      name: 'UPWIND CAPITAL LTD',
      post_town: 'BRISTOL',
      sic_codes: ['64999 - Financial intermediation not elsewhere classified'],
      incorporated: '2012-12-12',
    }),
    [
      period('2024-09-30', '2025-01-15', {
        net_assets: 3_500_000,
        total_assets_less_current_liabilities: 3_600_000,
        cash: 3_000_000,
        current_assets: 4_000_000,
        turnover: 12_000_000,
        employees: 20,
      }),
    ],
    { controllers: 0, parents: [] },
  ),
} satisfies Record<string, SearchDocument>;

export const searchDocuments: SearchDocument[] = [...nameDocuments, ...Object.values(criteriaCompanies)];
