/**
 * Triggers: lead-generation conditions on a company's latest filed figures against the prior
 * period (the previous balance sheet date in its history), and the words that explain a match.
 *
 * Conditions that do not depend on the day asked are decided when a company is indexed and kept
 * as flags; the three that do (recently_filed, accounts_overdue, young_and_funded) are decided
 * when a query runs, from the dates `triggerDates` gives.
 */
import type { AccountsPeriod } from './accounts-period.ts';
import { changePct, round1 } from './accounts-period.ts';
import type { Direction } from './trajectory.ts';
import { formatChange, formatEmployees, formatMoney } from './money.ts';

export const TRIGGERS = [
  'cash_rich',
  'rapid_growth',
  'hiring',
  'turned_profitable',
  'recently_filed',
  'accounts_overdue',
  'distress',
  'young_and_funded',
] as const;
export type Trigger = (typeof TRIGGERS)[number];

/** The `signal` filter of criteria search. */
export const SEARCH_SIGNALS = [
  'cash_rich',
  'negative_net_assets',
  'growing',
  'declining',
  'accounts_overdue',
  'charges_outstanding',
] as const;
export type SearchSignal = (typeof SEARCH_SIGNALS)[number];

/** @public The flags' values, of which IndexedFlag is the type. */
export const INDEXED_FLAGS = [
  'cash_rich',
  'negative_net_assets',
  'growing',
  'declining',
  'charges_outstanding',
  'rapid_growth',
  'hiring',
  'turned_profitable',
  'distress',
] as const;
export type IndexedFlag = (typeof INDEXED_FLAGS)[number];

const CASH_RICH_MIN = 500_000;
const CASH_RICH_SHARE = 0.4;
const RAPID_GROWTH_PCT = 30;
/**
 * Rapid growth is measured only from prior net assets of at least this much: from a base of £90, a
 * rise to £5.5k is +6,009% but says nothing about the business, and such rises would rank first.
 */
const RAPID_GROWTH_MIN_BASE = 10_000;
const HIRING_MIN_PCT = 20;
const HIRING_MIN_PEOPLE = 5;
const DISTRESS_CASH_FALL_PCT = -30;
const RECENT_DAYS = 30;
export const YOUNG_YEARS = 2;
export const FUNDED_MIN_NET_ASSETS = 100_000;

interface FlagInput {
  company: { charges_outstanding: number };
  accounts: readonly AccountsPeriod[];
  direction: Direction;
}

/** The conditions kept in the index. `accounts` newest first. */
export function indexedFlags({ company, accounts, direction }: FlagInput): IndexedFlag[] {
  const flags: IndexedFlag[] = [];
  const now = accounts[0]?.figures;
  const before = accounts[1]?.figures;
  if (now) {
    if (
      now.cash !== null &&
      now.cash >= CASH_RICH_MIN &&
      now.current_assets !== null &&
      now.current_assets > 0 &&
      now.cash >= CASH_RICH_SHARE * now.current_assets
    )
      flags.push('cash_rich');
    if (now.net_assets !== null && now.net_assets < 0) flags.push('negative_net_assets');
  }
  if (direction === 'growing' || direction === 'declining') flags.push(direction);
  if (company.charges_outstanding > 0) flags.push('charges_outstanding');
  if (now && before) {
    const netAssetsChange = changePct(before.net_assets, now.net_assets);
    if (
      (before.net_assets ?? 0) >= RAPID_GROWTH_MIN_BASE &&
      netAssetsChange !== null &&
      netAssetsChange >= RAPID_GROWTH_PCT
    )
      flags.push('rapid_growth');
    if (now.employees !== null && before.employees !== null) {
      const added = now.employees - before.employees;
      // From nobody, any five hires are growth of more than 20%.
      if (added >= HIRING_MIN_PEOPLE && (before.employees === 0 || (added / before.employees) * 100 >= HIRING_MIN_PCT))
        flags.push('hiring');
    }
    if (before.profit !== null && now.profit !== null && before.profit <= 0 && now.profit > 0)
      flags.push('turned_profitable');
  }
  const cashChange = changePct(before?.cash ?? null, now?.cash ?? null);
  if (
    (now?.net_assets !== null && now?.net_assets !== undefined && now.net_assets < 0) ||
    ((before?.cash ?? 0) > 0 && cashChange !== null && cashChange <= DISTRESS_CASH_FALL_PCT)
  )
    flags.push('distress');
  return flags;
}

export interface TriggerDates {
  /** Filings published on or after this date are recent. */
  recentSince: string;
  /** Companies incorporated on or after this date are young. */
  youngSince: string;
}

export function triggerDates(asOf: string): TriggerDates {
  const day = new Date(`${asOf}T00:00:00Z`);
  const recent = new Date(day.getTime() - RECENT_DAYS * 86_400_000);
  const young = new Date(day);
  young.setUTCFullYear(young.getUTCFullYear() - YOUNG_YEARS);
  return { recentSince: recent.toISOString().slice(0, 10), youngSince: young.toISOString().slice(0, 10) };
}

/** The document fields a trigger orders its matches by: the strongest first. */
export const TRIGGER_ORDER: Readonly<Record<Trigger, { field: TriggerSortField; descending: boolean }>> = {
  cash_rich: { field: 'cash', descending: true },
  rapid_growth: { field: 'net_assets_change_pct', descending: true },
  hiring: { field: 'employees_change', descending: true },
  turned_profitable: { field: 'profit', descending: true },
  recently_filed: { field: 'published', descending: true },
  accounts_overdue: { field: 'accounts_next_due', descending: false },
  distress: { field: 'net_assets', descending: false },
  young_and_funded: { field: 'net_assets', descending: true },
};
export type TriggerSortField =
  'cash' | 'net_assets' | 'net_assets_change_pct' | 'employees_change' | 'profit' | 'published' | 'accounts_next_due';

/**
 * The fields a trigger's reason is written from: a part of the search document (search-document.ts
 * declares that it extends this), named here so that triggers need not import the document.
 */
export interface TriggerFacts {
  incorporated: string | null;
  accounts_next_due: string | null;
  balance_sheet_date: string | null;
  published: string | null;
  net_assets: number | null;
  cash: number | null;
  employees: number | null;
  profit: number | null;
  current_assets: number | null;
  prior_balance_sheet_date: string | null;
  prior_net_assets: number | null;
  prior_cash: number | null;
  prior_employees: number | null;
  prior_profit: number | null;
}

export interface TriggerExplanation {
  reason: string;
  metrics: Record<string, number | string | null>;
}

/** Why a company matched `trigger`, in words, with the figures behind it. */
export function explainTrigger(trigger: Trigger, facts: TriggerFacts, asOf: string): TriggerExplanation {
  return EXPLANATIONS[trigger](facts, asOf);
}

/** ", +25% on 2023": the change on the prior year's figure, or nothing when there is none. */
function onPrior(facts: TriggerFacts, before: number | null, after: number | null): string {
  const priorYear = facts.prior_balance_sheet_date?.slice(0, 4) ?? null;
  const change = changePct(before, after);
  return change === null || priorYear === null ? '' : `, ${formatChange(change)} on ${priorYear}`;
}

const EXPLANATIONS: { [T in Trigger]: (facts: TriggerFacts, asOf: string) => TriggerExplanation } = {
  cash_rich: (facts) => {
    const at = facts.balance_sheet_date;
    const share = facts.current_assets ? Math.round((facts.cash! / facts.current_assets) * 100) : null;
    return {
      reason: `Cash ${formatMoney(facts.cash)}${onPrior(facts, facts.prior_cash, facts.cash)}; ${share}% of current assets at ${at}`,
      metrics: {
        balance_sheet_date: at,
        cash: facts.cash,
        current_assets: facts.current_assets,
        cash_share_pct: share,
        prior_cash: facts.prior_cash,
      },
    };
  },
  rapid_growth: (facts) => ({
    reason: `Net assets ${formatMoney(facts.net_assets)}${onPrior(facts, facts.prior_net_assets, facts.net_assets)} (${formatMoney(facts.prior_net_assets)}) at ${facts.balance_sheet_date}`,
    metrics: {
      balance_sheet_date: facts.balance_sheet_date,
      net_assets: facts.net_assets,
      prior_balance_sheet_date: facts.prior_balance_sheet_date,
      prior_net_assets: facts.prior_net_assets,
      change_pct: round1(changePct(facts.prior_net_assets, facts.net_assets)),
    },
  }),
  hiring: (facts) => {
    const added = facts.employees! - facts.prior_employees!;
    const priorYear = facts.prior_balance_sheet_date?.slice(0, 4) ?? null;
    return {
      reason: `${formatEmployees(facts.employees!)}, ${added} more than in ${priorYear}${onPrior(facts, facts.prior_employees, facts.employees)}`,
      metrics: {
        balance_sheet_date: facts.balance_sheet_date,
        employees: facts.employees,
        prior_employees: facts.prior_employees,
        change: added,
        change_pct: round1(changePct(facts.prior_employees, facts.employees)),
      },
    };
  },
  turned_profitable: (facts) => ({
    reason: `Profit ${formatMoney(facts.profit)} at ${facts.balance_sheet_date}, after ${formatMoney(facts.prior_profit)} in ${facts.prior_balance_sheet_date?.slice(0, 4) ?? null}`,
    metrics: {
      balance_sheet_date: facts.balance_sheet_date,
      profit: facts.profit,
      prior_balance_sheet_date: facts.prior_balance_sheet_date,
      prior_profit: facts.prior_profit,
    },
  }),
  recently_filed: (facts) => ({
    reason: `Accounts to ${facts.balance_sheet_date} published ${facts.published}; net assets ${formatMoney(facts.net_assets)}`,
    metrics: {
      published: facts.published,
      balance_sheet_date: facts.balance_sheet_date,
      net_assets: facts.net_assets,
      cash: facts.cash,
    },
  }),
  accounts_overdue: (facts, asOf) => {
    const days = Math.round((Date.parse(asOf) - Date.parse(facts.accounts_next_due!)) / 86_400_000);
    return {
      reason: `Accounts were due by ${facts.accounts_next_due}: ${days} day${days === 1 ? '' : 's'} overdue`,
      metrics: {
        accounts_next_due: facts.accounts_next_due,
        days_overdue: days,
        last_balance_sheet_date: facts.balance_sheet_date,
      },
    };
  },
  distress: (facts) => {
    const parts: string[] = [];
    if (facts.net_assets !== null && facts.net_assets < 0) parts.push(`Net assets ${formatMoney(facts.net_assets)}`);
    const cashChange = changePct(facts.prior_cash, facts.cash);
    if ((facts.prior_cash ?? 0) > 0 && cashChange !== null && cashChange <= DISTRESS_CASH_FALL_PCT)
      parts.push(`cash ${formatMoney(facts.cash)}${onPrior(facts, facts.prior_cash, facts.cash)}`);
    const reason = parts.join('; ');
    return {
      reason: `${reason.charAt(0).toUpperCase()}${reason.slice(1)} at ${facts.balance_sheet_date}`,
      metrics: {
        balance_sheet_date: facts.balance_sheet_date,
        net_assets: facts.net_assets,
        cash: facts.cash,
        prior_cash: facts.prior_cash,
        cash_change_pct: round1(cashChange),
      },
    };
  },
  young_and_funded: (facts) => ({
    reason: `Incorporated ${facts.incorporated}; net assets ${formatMoney(facts.net_assets)} at ${facts.balance_sheet_date}`,
    metrics: {
      incorporated: facts.incorporated,
      balance_sheet_date: facts.balance_sheet_date,
      net_assets: facts.net_assets,
    },
  }),
};
