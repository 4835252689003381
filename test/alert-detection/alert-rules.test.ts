import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { companyAlerts } from '../../src/alert-detection/alert-rules.ts';
import type { PscNow } from '../../src/alert-detection/alert-rules.ts';
import type { Alert } from '../../src/domain/alerts.ts';
import { selectAlerts, sortAlerts } from '../../src/domain/alerts.ts';
import type { RegisterCompany } from '../../src/domain/company.ts';
import { emptyFigures } from '../../src/domain/figures.ts';
import type { FigureSet } from '../../src/domain/figures.ts';
import { watchSnapshot } from '../../src/domain/watch-snapshot.ts';
import type { PscRecord, StoredPsc } from '../../src/domain/psc.ts';
import type { AccountsEntry, CompanyWithAccounts } from '../../src/domain/filings.ts';
import type { InsolvencyCase } from '../../src/domain/insolvency.ts';
import type { SnapshotPsc, WatchSnapshot } from '../../src/domain/watchlists.ts';
import { corporatePsc, individualPsc, pscStatement } from '../support/psc-records.ts';
import { company } from '../support/store-records.ts';

const NUMBER = '00001234';
const TAKEN = '2025-01-15T09:30:00.000Z';
const AS_OF = '2025-06-30';
const REGISTER_DATE = '2025-06-01';

function entry(date: string, figures: Partial<FigureSet>, published: string | null = null): AccountsEntry {
  return {
    balance_sheet_date: date,
    period_start: null,
    published,
    standard: 'FRS 102',
    figures: { ...emptyFigures(), ...figures },
    quality: [],
    from_prior_period: false,
    source: { zip: null, file: `Prod223_0001_00000001_${date.replaceAll('-', '')}.html` },
  };
}

const HISTORY = [
  entry('2023-12-31', { net_assets: 500_000, cash: 200_000 }, '2024-05-01'),
  entry('2022-12-31', { net_assets: 450_000, cash: 180_000 }, '2023-05-01'),
];

/** The company on the day it was added: the snapshot every row compares against. */
const SNAPSHOT: WatchSnapshot = {
  status: 'Active',
  accounts_next_due: '2025-09-30',
  charges_total: 1,
  charges_outstanding: 1,
  latest_balance_sheet_date: '2023-12-31',
  net_assets: 500_000,
  cash: 200_000,
};

function current(
  overrides: Partial<RegisterCompany> & { removed_from_register?: string | null } = {},
  accounts: AccountsEntry[] = HISTORY,
): CompanyWithAccounts {
  const { removed_from_register = null, ...register } = overrides;
  return {
    company: {
      // The register knows of the newest accounts in HISTORY.
      ...company(NUMBER, {
        accounts_last_made_up_to: '2023-12-31',
        accounts_next_due: '2025-09-30',
        charges_total: 1,
        charges_outstanding: 1,
        ...register,
      }),
      snapshot_date: REGISTER_DATE,
      removed_from_register,
    },
    accounts,
  };
}

/** The company as it stands (current()), with these insolvency cases from the stream. */
function withCases(insolvencyCases: InsolvencyCase[]): CompanyWithAccounts {
  return { ...current(), insolvency_cases: insolvencyCases };
}

function liquidationCase(number: string, woundUpOn: string): InsolvencyCase {
  return {
    number,
    type: 'creditors-voluntary-liquidation',
    dates: [{ type: 'wound-up-on', date: woundUpOn }],
    practitioners: [{ name: 'Jane Smith', role: 'practitioner', appointed_on: woundUpOn, ceased_to_act_on: null }],
  };
}

/** A new filing on top of the history, published 2025-04-10. */
function filed(figures: Partial<FigureSet>, published: string | null = '2025-04-10'): AccountsEntry[] {
  return [entry('2024-12-31', figures, published), ...HISTORY];
}

type Want = Pick<Alert, 'kind' | 'severity' | 'detected' | 'from' | 'to'>;

interface Case {
  name: string;
  snapshot?: Partial<WatchSnapshot>;
  current: CompanyWithAccounts;
  asOf?: string;
  taken?: string;
  want: Want[];
}

const newAccounts = (detected = '2025-04-10'): Want => ({
  kind: 'new_accounts',
  severity: 'info',
  detected,
  from: '2023-12-31',
  to: '2024-12-31',
});

const cases: Case[] = [
  { name: 'nothing changed', current: current(), want: [] },

  // status_change
  {
    name: 'status: active to liquidation',
    current: current({ status: 'Liquidation' }),
    want: [{ kind: 'status_change', severity: 'high', detected: REGISTER_DATE, from: 'Active', to: 'Liquidation' }],
  },
  {
    name: 'status: active to administration',
    current: current({ status: 'In Administration' }),
    want: [
      { kind: 'status_change', severity: 'high', detected: REGISTER_DATE, from: 'Active', to: 'In Administration' },
    ],
  },
  {
    name: 'status: active to receivership',
    current: current({ status: 'Live but Receiver Manager on at least one charge' }),
    want: [
      {
        kind: 'status_change',
        severity: 'high',
        detected: REGISTER_DATE,
        from: 'Active',
        to: 'Live but Receiver Manager on at least one charge',
      },
    ],
  },
  {
    name: 'status: active to proposal to strike off',
    current: current({ status: 'Active - Proposal to Strike off' }),
    want: [
      {
        kind: 'status_change',
        severity: 'high',
        detected: REGISTER_DATE,
        from: 'Active',
        to: 'Active - Proposal to Strike off',
      },
    ],
  },
  {
    name: 'status: gone from the register is dissolved, detected on the day it went, and no longer overdue',
    current: current({ status: 'Dissolved', accounts_next_due: '2025-03-31', removed_from_register: '2025-05-01' }),
    want: [{ kind: 'status_change', severity: 'high', detected: '2025-05-01', from: 'Active', to: 'Dissolved' }],
  },
  {
    name: 'status: liquidation to dissolved is a change',
    snapshot: { status: 'Liquidation' },
    current: current({ status: 'Dissolved' }),
    want: [{ kind: 'status_change', severity: 'high', detected: REGISTER_DATE, from: 'Liquidation', to: 'Dissolved' }],
  },
  {
    name: 'status: another spelling of the same group is no change',
    snapshot: { status: 'Liquidation' },
    current: current({ status: 'In Liquidation' }),
    want: [],
  },
  {
    name: 'status: a voluntary arrangement is no alert',
    current: current({ status: 'Voluntary Arrangement' }),
    want: [],
  },
  {
    name: 'status: a withdrawn strike-off is no alert',
    snapshot: { status: 'Active - Proposal to Strike off' },
    current: current({ status: 'Active' }),
    want: [],
  },

  // negative_net_assets (a new negative filing is also a fall and new accounts)
  {
    name: 'net assets turn negative',
    current: current({}, filed({ net_assets: -45_000, cash: 200_000 })),
    want: [
      { kind: 'negative_net_assets', severity: 'high', detected: '2025-04-10', from: 500_000, to: -45_000 },
      { kind: 'financial_deterioration', severity: 'medium', detected: '2025-04-10', from: 500_000, to: -45_000 },
      newAccounts(),
    ],
  },
  {
    name: 'net assets already negative at the snapshot: no negative alert',
    snapshot: { net_assets: -10_000 },
    current: current({}, [entry('2023-12-31', { net_assets: -10_000 }, '2024-05-01')]),
    want: [],
  },
  {
    name: 'net assets of zero are not negative',
    current: current({}, filed({ net_assets: 0, cash: 200_000 })),
    want: [
      { kind: 'financial_deterioration', severity: 'medium', detected: '2025-04-10', from: 500_000, to: 0 },
      newAccounts(),
    ],
  },
  {
    name: 'first accounts since a snapshot without any, negative',
    snapshot: { latest_balance_sheet_date: null, net_assets: null, cash: null },
    current: current({}, [entry('2024-12-31', { net_assets: -1 }, '2025-04-10')]),
    want: [
      { kind: 'negative_net_assets', severity: 'high', detected: '2025-04-10', from: null, to: -1 },
      { kind: 'new_accounts', severity: 'info', detected: '2025-04-10', from: null, to: '2024-12-31' },
    ],
  },

  // financial_deterioration
  {
    name: 'cash down exactly 30% in a new filing',
    current: current({}, filed({ net_assets: 500_000, cash: 140_000 })),
    want: [
      { kind: 'financial_deterioration', severity: 'medium', detected: '2025-04-10', from: 200_000, to: 140_000 },
      newAccounts(),
    ],
  },
  {
    name: 'cash down 29.9% is no deterioration',
    current: current({}, filed({ net_assets: 500_000, cash: 140_200 })),
    want: [newAccounts()],
  },
  {
    name: 'net assets and cash both down: one alert each, net assets first',
    current: current({}, filed({ net_assets: 100_000, cash: 20_000 })),
    want: [
      { kind: 'financial_deterioration', severity: 'medium', detected: '2025-04-10', from: 500_000, to: 100_000 },
      { kind: 'financial_deterioration', severity: 'medium', detected: '2025-04-10', from: 200_000, to: 20_000 },
      newAccounts(),
    ],
  },
  {
    name: "net assets down across FRS 102's lease change: no deterioration; cash down still is",
    snapshot: { latest_balance_sheet_date: '2025-12-31', net_assets: 500_000, cash: 200_000 },
    current: current({}, [
      entry('2026-12-31', { net_assets: 100_000, cash: 20_000 }, '2027-04-10'),
      entry('2025-12-31', { net_assets: 500_000, cash: 200_000 }, '2026-04-10'),
    ]),
    asOf: '2027-04-20',
    want: [
      { kind: 'financial_deterioration', severity: 'medium', detected: '2027-04-10', from: 200_000, to: 20_000 },
      { kind: 'new_accounts', severity: 'info', detected: '2027-04-10', from: '2025-12-31', to: '2026-12-31' },
    ],
  },
  {
    name: 'net assets down across 2026 under FRS 105, which keeps leases off: deterioration',
    snapshot: { latest_balance_sheet_date: '2025-12-31', net_assets: 500_000, cash: 200_000 },
    current: current({}, [
      { ...entry('2026-12-31', { net_assets: 100_000, cash: 200_000 }, '2027-04-10'), standard: 'FRS 105' },
      { ...entry('2025-12-31', { net_assets: 500_000, cash: 200_000 }, '2026-04-10'), standard: 'FRS 105' },
    ]),
    asOf: '2027-04-20',
    want: [
      { kind: 'financial_deterioration', severity: 'medium', detected: '2027-04-10', from: 500_000, to: 100_000 },
      { kind: 'new_accounts', severity: 'info', detected: '2027-04-10', from: '2025-12-31', to: '2026-12-31' },
    ],
  },
  {
    name: 'a fall already on file at the snapshot is not news',
    snapshot: { net_assets: 100_000 },
    current: current({}, [
      entry('2023-12-31', { net_assets: 100_000, cash: 200_000 }, '2024-05-01'),
      entry('2022-12-31', { net_assets: 450_000, cash: 180_000 }, '2023-05-01'),
    ]),
    want: [],
  },
  {
    name: 'a fall from negative net assets is not a deterioration of 30%',
    snapshot: { net_assets: -100 },
    current: current({}, [
      entry('2024-12-31', { net_assets: -200 }, '2025-04-10'),
      entry('2023-12-31', { net_assets: -100 }, '2024-05-01'),
    ]),
    want: [newAccounts()],
  },

  // overdue_accounts
  {
    name: 'accounts fall overdue after the snapshot',
    current: current({ accounts_next_due: '2025-05-31' }),
    snapshot: { accounts_next_due: '2025-05-31' },
    want: [
      { kind: 'overdue_accounts', severity: 'medium', detected: '2025-06-01', from: '2025-05-31', to: '2025-05-31' },
    ],
  },
  {
    name: 'not overdue while accounts newer than the register knows of are on file (its snapshot lags)',
    current: current({ accounts_next_due: '2025-05-31', accounts_last_made_up_to: '2022-12-31' }),
    snapshot: { accounts_next_due: '2025-04-30' },
    want: [],
  },
  {
    name: 'due today is not overdue yet',
    current: current({ accounts_next_due: '2025-06-30' }),
    snapshot: { accounts_next_due: '2025-06-30' },
    want: [],
  },
  {
    name: 'already overdue when the snapshot was taken',
    current: current({ accounts_next_due: '2024-12-31' }),
    snapshot: { accounts_next_due: '2024-12-31' },
    want: [],
  },
  {
    name: 'a snapshot taken during the due day was not overdue then',
    current: current({ accounts_next_due: '2025-01-15' }),
    snapshot: { accounts_next_due: '2025-01-15' },
    want: [
      { kind: 'overdue_accounts', severity: 'medium', detected: '2025-01-16', from: '2025-01-15', to: '2025-01-15' },
    ],
  },
  {
    name: 'overdue at the snapshot, filed since, and overdue again on the next due date',
    current: current({ accounts_next_due: '2025-04-30' }),
    snapshot: { accounts_next_due: '2024-09-30' },
    want: [
      { kind: 'overdue_accounts', severity: 'medium', detected: '2025-05-01', from: '2024-09-30', to: '2025-04-30' },
    ],
  },
  {
    name: 'not overdue on the day asked',
    current: current({ accounts_next_due: '2025-05-31' }),
    snapshot: { accounts_next_due: '2025-05-31' },
    asOf: '2025-05-20',
    want: [],
  },

  // insolvency
  {
    name: 'a new insolvency case (snapshot from before cases were kept: none listed)',
    current: withCases([liquidationCase('1', '2025-03-02')]),
    want: [{ kind: 'insolvency', severity: 'high', detected: '2025-03-02', from: 0, to: 1 }],
  },
  {
    name: 'a case the snapshot listed is no alert',
    snapshot: { insolvency_cases: ['1'] },
    current: withCases([liquidationCase('1', '2025-03-02')]),
    want: [],
  },
  {
    name: 'a second case beside the one listed',
    snapshot: { insolvency_cases: ['1'] },
    current: withCases([
      liquidationCase('1', '2024-03-02'),
      {
        number: '2',
        type: 'in-administration',
        dates: [{ type: 'administration-started-on', date: '2025-05-05' }],
        practitioners: [],
      },
    ]),
    want: [{ kind: 'insolvency', severity: 'high', detected: '2025-05-05', from: 1, to: 2 }],
  },
  {
    name: 'a case dated before the snapshot: detected the day the snapshot was taken',
    current: withCases([liquidationCase('1', '2024-11-02')]),
    want: [{ kind: 'insolvency', severity: 'high', detected: '2025-01-15', from: 0, to: 1 }],
  },
  {
    name: 'a case that had ended before the snapshot is no alert',
    current: withCases([
      {
        ...liquidationCase('1', '2020-01-02'),
        dates: [
          { type: 'wound-up-on', date: '2020-01-02' },
          { type: 'concluded-winding-up-on', date: '2021-06-30' },
        ],
      },
    ]),
    want: [],
  },
  {
    name: 'a date later than the day asked is not the detected date',
    current: withCases([
      {
        ...liquidationCase('1', '2025-03-02'),
        dates: [
          { type: 'wound-up-on', date: '2025-03-02' },
          { type: 'due-to-be-dissolved-on', date: '2026-01-01' },
        ],
      },
    ]),
    want: [{ kind: 'insolvency', severity: 'high', detected: '2025-03-02', from: 0, to: 1 }],
  },

  // new_charges
  {
    name: 'two new charges',
    current: current({ charges_total: 3, charges_outstanding: 3 }),
    want: [{ kind: 'new_charges', severity: 'medium', detected: REGISTER_DATE, from: 1, to: 3 }],
  },
  {
    name: 'a charge satisfied is no alert',
    current: current({ charges_total: 1, charges_outstanding: 0, charges_satisfied: 1 }),
    want: [],
  },

  // new_accounts
  {
    name: 'new accounts, figures steady',
    current: current({}, filed({ net_assets: 520_000, cash: 190_000 })),
    want: [newAccounts()],
  },
  {
    name: 'new accounts from a loose file: detected on the balance sheet date',
    current: current({}, filed({ net_assets: 520_000, cash: 190_000 }, null)),
    want: [newAccounts('2024-12-31')],
  },
  {
    name: 'an older year learnt from a prior-period column is not new accounts',
    current: current({}, [...HISTORY, entry('2021-12-31', { net_assets: 1 }, '2023-05-01')]),
    want: [],
  },

  // an entry without figures (a filing that tagged none at its balance sheet date) is passed over
  {
    name: 'a filing with no figures at its balance sheet date is not new accounts',
    current: current({}, filed({})),
    want: [],
  },
  {
    name: 'behind a newest entry without figures, the newest with figures is compared with the one before it',
    current: current({}, [entry('2025-02-28', {}, '2025-06-01'), ...filed({ net_assets: 520_000, cash: 100_000 })]),
    want: [
      { kind: 'financial_deterioration', severity: 'medium', detected: '2025-04-10', from: 200_000, to: 100_000 },
      newAccounts(),
    ],
  },

  // several at once, in order
  {
    name: 'several kinds: high, then medium, then info; kinds in the documented order',
    current: current(
      // The register knows of the new accounts, and its next due date has passed.
      {
        status: 'In Administration',
        charges_total: 2,
        accounts_last_made_up_to: '2024-12-31',
        accounts_next_due: '2025-05-31',
      },
      filed({ net_assets: 480_000, cash: 100_000 }),
    ),
    snapshot: { accounts_next_due: '2025-05-31' },
    want: [
      { kind: 'status_change', severity: 'high', detected: REGISTER_DATE, from: 'Active', to: 'In Administration' },
      { kind: 'financial_deterioration', severity: 'medium', detected: '2025-04-10', from: 200_000, to: 100_000 },
      { kind: 'overdue_accounts', severity: 'medium', detected: '2025-06-01', from: '2025-05-31', to: '2025-05-31' },
      { kind: 'new_charges', severity: 'medium', detected: REGISTER_DATE, from: 1, to: 2 },
      newAccounts(),
    ],
  },
];

describe('companyAlerts', () => {
  for (const c of cases) {
    test(c.name, () => {
      const alerts = companyAlerts({
        snapshot: { ...SNAPSHOT, ...c.snapshot },
        current: c.current,
        asOf: c.asOf ?? AS_OF,
        snapshotTaken: c.taken ?? TAKEN,
      });
      assert.deepEqual(
        alerts.map(({ kind, severity, detected, from, to }) => ({ kind, severity, detected, from, to })),
        c.want,
      );
      for (const alert of alerts) {
        assert.equal(alert.company_number, NUMBER);
        assert.equal(alert.name, `COMPANY ${NUMBER} LIMITED`);
        assert.ok(alert.message.length > 0);
      }
    });
  }

  test('a snapshot of a company with insolvency cases lists them: no insolvency alert for them', () => {
    const now = withCases([liquidationCase('1', '2025-03-02'), { ...liquidationCase('', '2025-04-01'), number: null }]);
    const snapshot = watchSnapshot(now);
    assert.deepEqual(snapshot.insolvency_cases, ['1', 'creditors-voluntary-liquidation@2025-04-01']);
    assert.deepEqual(companyAlerts({ snapshot, current: now, asOf: AS_OF, snapshotTaken: TAKEN }), []);
  });

  test('a snapshot of the company as it is gives no alerts', () => {
    const now = current({}, filed({ net_assets: -5, cash: 1 }));
    assert.deepEqual(
      companyAlerts({ snapshot: watchSnapshot(now), current: now, asOf: AS_OF, snapshotTaken: TAKEN }),
      [],
    );
  });

  test('messages say what changed in plain words', () => {
    const messages = (c: CompanyWithAccounts, snapshot: Partial<WatchSnapshot> = {}) =>
      Object.fromEntries(
        companyAlerts({ snapshot: { ...SNAPSHOT, ...snapshot }, current: c, asOf: AS_OF, snapshotTaken: TAKEN }).map(
          (a) => [`${a.kind}:${a.from}`, a.message],
        ),
      );
    assert.deepEqual(messages(current({}, filed({ net_assets: -45_000, cash: 60_000 }))), {
      'negative_net_assets:500000': 'Net assets fell from £500k to -£45k (2024-12-31).',
      'financial_deterioration:500000': 'Net assets fell 109% from £500k (2023-12-31) to -£45k (2024-12-31).',
      'financial_deterioration:200000': 'Cash fell 70% from £200k (2023-12-31) to £60k (2024-12-31).',
      'new_accounts:2023-12-31':
        'New accounts made up to 2024-12-31, published 2025-04-10: net assets -£45k, cash £60k.',
    });
    assert.deepEqual(
      messages(
        current({ status: 'Liquidation', charges_total: 2, charges_outstanding: 2, accounts_next_due: '2025-05-31' }),
        {
          accounts_next_due: '2025-05-31',
        },
      ),
      {
        'status_change:Active': 'Status changed from Active to Liquidation.',
        'overdue_accounts:2025-05-31': 'Accounts were due by 2025-05-31 and have not been filed.',
        'new_charges:1': '1 new charge registered: 2 in all, was 1 (2 outstanding).',
      },
    );
  });
});

// control_change: the snapshot's PSC set against the PSC records now.

/** A record as the store holds it, listed by the PSC snapshot of 2025-01-01 unless said. */
function stored(record: PscRecord, more: Partial<StoredPsc> = {}): StoredPsc {
  return {
    ...record,
    snapshot_date: '2025-01-01',
    ceased_by_snapshot: null,
    resolved_company_number: null,
    resolved_company_name: null,
    ...more,
  };
}
const ADA = stored(individualPsc(NUMBER, { forename: 'Ada', surname: 'Lovelace', birthYear: 1970, birthMonth: 12 }));
const PARENT = stored(corporatePsc(NUMBER, { name: 'PARENT HOLDINGS LIMITED', registeredNumber: '01234567' }));
const NEW_OWNER = stored(
  corporatePsc(NUMBER, { name: 'NEW OWNER LIMITED', registeredNumber: '07654321' }, { notified_on: '2025-03-01' }),
  { snapshot_date: '2025-03-10' },
);
const NO_PSC = stored(pscStatement(NUMBER, 'no-individual-or-entity-with-signficant-control'));
const HIDDEN = stored(
  {
    ...individualPsc(NUMBER, { forename: 'X', surname: 'Y', birthYear: 1, birthMonth: 1, id: 'super-1' }),
    kind: 'super-secure-person-with-significant-control',
    kind_class: 'super_secure',
    name: null,
  },
  { notified_on: '2025-02-02' },
);
const ceasedOn = (psc: StoredPsc, date: string): StoredPsc => ({ ...psc, ceased: true, ceased_on: date });
const listedAt = (...pscs: StoredPsc[]): SnapshotPsc[] =>
  pscs.map(({ psc_id, kind_class, name, statement, notified_on }) => ({
    psc_id,
    kind_class,
    name,
    statement,
    notified_on,
  }));
const change = (detected: string, from: string | null, to: string | null): Want => ({
  kind: 'control_change',
  severity: 'medium',
  detected,
  from,
  to,
});

describe('companyAlerts: control_change', () => {
  const cases: { name: string; before: SnapshotPsc[] | undefined; now: PscNow[] | undefined; want: Want[] }[] = [
    { name: 'the same PSCs: no alert', before: listedAt(ADA, PARENT), now: [ADA, PARENT], want: [] },
    {
      name: 'a PSC notified since: detected on its notified date',
      before: listedAt(ADA),
      now: [NEW_OWNER, ADA],
      want: [change('2025-03-01', 'Mr Ada Lovelace', 'NEW OWNER LIMITED; Mr Ada Lovelace')],
    },
    {
      name: 'a PSC ceased: detected on its ceased date',
      before: listedAt(ADA, PARENT),
      now: [ADA, ceasedOn(PARENT, '2025-02-10')],
      want: [change('2025-02-10', 'Mr Ada Lovelace; PARENT HOLDINGS LIMITED', 'Mr Ada Lovelace')],
    },
    {
      name: 'ceased by a complete PSC snapshot that no longer lists it: that snapshot’s date',
      before: listedAt(ADA, PARENT),
      now: [ADA, { ...PARENT, ceased: true, ceased_by_snapshot: '2025-05-01' }],
      want: [change('2025-05-01', 'Mr Ada Lovelace; PARENT HOLDINGS LIMITED', 'Mr Ada Lovelace')],
    },
    {
      name: 'one parent replaced by another: one alert, on the newest date',
      before: listedAt(PARENT),
      now: [NEW_OWNER, ceasedOn(PARENT, '2025-02-28')],
      want: [change('2025-03-01', 'PARENT HOLDINGS LIMITED', 'NEW OWNER LIMITED')],
    },
    {
      name: 'the last PSC ceased: nothing current, to is null',
      before: listedAt(PARENT),
      now: [ceasedOn(PARENT, '2025-02-10')],
      want: [change('2025-02-10', 'PARENT HOLDINGS LIMITED', null)],
    },
    {
      name: 'a notice dated before the snapshot but loaded after it: detected on the day of the snapshot',
      before: listedAt(ADA),
      now: [{ ...NEW_OWNER, notified_on: '2024-12-01' }, ADA],
      want: [change('2025-01-15', 'Mr Ada Lovelace', 'NEW OWNER LIMITED; Mr Ada Lovelace')],
    },
    {
      name: 'notified without a date: the date of the PSC snapshot listing it',
      before: listedAt(ADA),
      now: [ADA, { ...NEW_OWNER, notified_on: null }],
      want: [change('2025-03-10', 'Mr Ada Lovelace', 'Mr Ada Lovelace; NEW OWNER LIMITED')],
    },
    {
      name: 'a statement withdrawn as a PSC is notified',
      before: listedAt(NO_PSC),
      now: [{ ...ADA, notified_on: '2025-02-01' }, ceasedOn(NO_PSC, '2025-02-01')],
      want: [change('2025-02-01', 'statement no-individual-or-entity-with-signficant-control', 'Mr Ada Lovelace')],
    },
    {
      name: 'a PSC whose details are withheld is named as such',
      before: listedAt(ADA),
      now: [HIDDEN, ADA],
      want: [change('2025-02-02', 'Mr Ada Lovelace', 'a super-secure PSC (details withheld); Mr Ada Lovelace')],
    },
    {
      name: 'a listed PSC the caller did not find is ceased, detected on the day of the snapshot',
      before: listedAt(ADA, PARENT),
      now: [ADA],
      want: [change('2025-01-15', 'Mr Ada Lovelace; PARENT HOLDINGS LIMITED', 'Mr Ada Lovelace')],
    },
    {
      name: 'identity verification only, the record re-keyed by its etag and the old id ceased: no alert',
      before: listedAt({ ...ADA, psc_id: 'etag-before' }),
      now: [
        { ...ADA, psc_id: 'etag-verified', snapshot_date: '2025-05-01' },
        { ...ADA, psc_id: 'etag-before', ceased: true, ceased_by_snapshot: '2025-05-01' },
      ],
      want: [],
    },
    {
      name: 'identity verification only, the old id still current beside the new one: no alert',
      before: listedAt({ ...ADA, psc_id: 'etag-before' }),
      now: [
        { ...ADA, psc_id: 'etag-before' },
        { ...ADA, psc_id: 'etag-verified' },
      ],
      want: [],
    },
    {
      name: 'a real change beside a verification-only one: the alert names the real one only',
      before: listedAt({ ...ADA, psc_id: 'etag-before' }),
      now: [
        NEW_OWNER,
        { ...ADA, psc_id: 'etag-verified' },
        { ...ADA, psc_id: 'etag-before', ceased: true, ceased_by_snapshot: '2025-05-01' },
      ],
      want: [change('2025-03-01', 'Mr Ada Lovelace', 'NEW OWNER LIMITED; Mr Ada Lovelace')],
    },
    { name: 'a snapshot from before PSCs were kept: no alert', before: undefined, now: [NEW_OWNER], want: [] },
    { name: 'a snapshot that listed no PSC: nothing to compare', before: [], now: [NEW_OWNER], want: [] },
    { name: 'PSCs not read: no alert', before: listedAt(ADA), now: undefined, want: [] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const snapshot: WatchSnapshot = { ...SNAPSHOT, ...(c.before ? { pscs: c.before } : {}) };
      const alerts = companyAlerts({ snapshot, current: current(), asOf: AS_OF, snapshotTaken: TAKEN, pscs: c.now });
      assert.deepEqual(
        alerts.map(({ kind, severity, detected, from, to }) => ({ kind, severity, detected, from, to })),
        c.want,
      );
    });
  }

  test('the message names who was notified and who ceased, with their dates', () => {
    const [alert] = companyAlerts({
      snapshot: { ...SNAPSHOT, pscs: listedAt(ADA, PARENT) },
      current: current(),
      asOf: AS_OF,
      snapshotTaken: TAKEN,
      pscs: [NEW_OWNER, HIDDEN, ADA, ceasedOn(PARENT, '2025-02-28')],
    });
    assert.equal(
      alert!.message,
      'Persons with significant control changed: notified NEW OWNER LIMITED (2025-03-01), a super-secure PSC ' +
        '(details withheld) (2025-02-02); ceased PARENT HOLDINGS LIMITED (2025-02-28).',
    );
  });

  test('among other alerts: medium, after new charges, before new accounts', () => {
    const alerts = companyAlerts({
      snapshot: { ...SNAPSHOT, pscs: listedAt(ADA) },
      current: current({ charges_total: 2 }, filed({ net_assets: 520_000, cash: 190_000 })),
      asOf: AS_OF,
      snapshotTaken: TAKEN,
      pscs: [NEW_OWNER],
    });
    assert.deepEqual(
      alerts.map((a) => a.kind),
      ['new_charges', 'control_change', 'new_accounts'],
    );
  });

  test('a snapshot of the company and its PSCs as they are gives no alerts', () => {
    const now = current();
    assert.deepEqual(
      companyAlerts({
        snapshot: watchSnapshot(now, [NEW_OWNER, ADA]),
        current: now,
        asOf: AS_OF,
        snapshotTaken: TAKEN,
        pscs: [NEW_OWNER, ADA],
      }),
      [],
    );
  });
});

describe('watchSnapshot', () => {
  test('keeps the current PSCs and statements, not the ceased ones; without PSCs read, no set', () => {
    const now = current();
    assert.deepEqual(watchSnapshot(now, [NEW_OWNER, NO_PSC, ceasedOn(PARENT, '2020-01-01')]).pscs, [
      {
        psc_id: NEW_OWNER.psc_id,
        kind_class: 'corporate',
        name: 'NEW OWNER LIMITED',
        statement: null,
        notified_on: '2025-03-01',
      },
      {
        psc_id: NO_PSC.psc_id,
        kind_class: 'statement',
        name: null,
        statement: 'no-individual-or-entity-with-signficant-control',
        notified_on: '2016-04-06',
      },
    ]);
    assert.deepEqual(watchSnapshot(now, []).pscs, []);
    assert.equal('pscs' in watchSnapshot(now), false);
  });

  test('the register facts and the newest entry of the history', () => {
    assert.deepEqual(watchSnapshot(current({ status: 'Active', charges_total: 4, charges_outstanding: 2 })), {
      status: 'Active',
      accounts_next_due: '2025-09-30',
      charges_total: 4,
      charges_outstanding: 2,
      latest_balance_sheet_date: '2023-12-31',
      net_assets: 500_000,
      cash: 200_000,
    });
  });

  test('no accounts on file: no balance sheet date and no figures', () => {
    const snapshot = watchSnapshot(current({}, []));
    assert.equal(snapshot.latest_balance_sheet_date, null);
    assert.equal(snapshot.net_assets, null);
    assert.equal(snapshot.cash, null);
  });
});

describe('sortAlerts', () => {
  const alert = (company_number: string, kind: Alert['kind'], severity: Alert['severity']): Alert => ({
    company_number,
    name: company_number,
    kind,
    severity,
    message: '',
    detected: '2025-01-01',
    from: null,
    to: null,
  });
  const cases: { name: string; input: Alert[]; want: string[] }[] = [
    {
      name: 'severity first, whatever the company',
      input: [alert('00000001', 'new_accounts', 'info'), alert('00000009', 'status_change', 'high')],
      want: ['00000009:status_change', '00000001:new_accounts'],
    },
    {
      name: 'then company number',
      input: [alert('00000002', 'new_charges', 'medium'), alert('00000001', 'overdue_accounts', 'medium')],
      want: ['00000001:overdue_accounts', '00000002:new_charges'],
    },
    {
      name: 'then kind in the documented order',
      input: [
        alert('00000001', 'control_change', 'medium'),
        alert('00000001', 'new_charges', 'medium'),
        alert('00000001', 'overdue_accounts', 'medium'),
        alert('00000001', 'financial_deterioration', 'medium'),
        alert('00000001', 'negative_net_assets', 'high'),
        alert('00000001', 'status_change', 'high'),
      ],
      want: [
        '00000001:status_change',
        '00000001:negative_net_assets',
        '00000001:financial_deterioration',
        '00000001:overdue_accounts',
        '00000001:new_charges',
        '00000001:control_change',
      ],
    },
    {
      name: 'letters in company numbers sort after digits',
      input: [alert('SC000001', 'new_accounts', 'info'), alert('00000001', 'new_accounts', 'info')],
      want: ['00000001:new_accounts', 'SC000001:new_accounts'],
    },
    { name: 'nothing to sort', input: [], want: [] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const input = [...c.input];
      assert.deepEqual(
        sortAlerts(input).map((a) => `${a.company_number}:${a.kind}`),
        c.want,
      );
      assert.deepEqual(input, c.input, 'the input is left as it was');
    });
  }
});

describe('selectAlerts: get_alerts {since, severity}', () => {
  const alert = (kind: Alert['kind'], severity: Alert['severity'], detected: string): Alert => ({
    company_number: '00000001',
    name: 'A',
    kind,
    severity,
    message: '',
    detected,
    from: null,
    to: null,
  });
  const all = [
    alert('status_change', 'high', '2025-03-01'),
    alert('new_charges', 'medium', '2025-04-01'),
    alert('new_accounts', 'info', '2025-05-01'),
  ];
  const cases: { name: string; ask: Parameters<typeof selectAlerts>[1]; want: string[] }[] = [
    { name: 'nothing asked: every alert', ask: {}, want: ['status_change', 'new_charges', 'new_accounts'] },
    {
      name: 'info is the lowest: all',
      ask: { severity: 'info' },
      want: ['status_change', 'new_charges', 'new_accounts'],
    },
    { name: 'low and above: not info', ask: { severity: 'low' }, want: ['status_change', 'new_charges'] },
    { name: 'medium and above', ask: { severity: 'medium' }, want: ['status_change', 'new_charges'] },
    { name: 'high only', ask: { severity: 'high' }, want: ['status_change'] },
    { name: 'since is inclusive', ask: { since: '2025-04-01' }, want: ['new_charges', 'new_accounts'] },
    { name: 'since and severity together', ask: { since: '2025-04-01', severity: 'medium' }, want: ['new_charges'] },
    { name: 'since after every alert', ask: { since: '2025-06-01' }, want: [] },
  ];
  for (const c of cases)
    test(c.name, () =>
      assert.deepEqual(
        selectAlerts(all, c.ask).map((a) => a.kind),
        c.want,
      ),
    );
});
