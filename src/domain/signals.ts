/**
 * Signals: facts about a company worth a reader's attention, each with a severity. They describe
 * the register and the filed figures; they are not a credit rating.
 */
import type { AccountsPeriod } from './accounts-period.ts';
import { changePct, crossesLeaseChange, shortTermCreditors } from './accounts-period.ts';
import { isAccountsOverdue, isDissolvedStatus, isDistressStatus } from './company-status.ts';
import type { AccountsDueFacts } from './company-status.ts';
import { formatChange, formatMoney } from './money.ts';

export const SIGNAL_CODES = [
  'status_dissolved',
  'status_distress',
  'accounts_overdue',
  'negative_net_assets',
  'net_assets_fall_30',
  'cash_fall_30',
  'low_liquidity',
  'charges_outstanding',
  'no_machine_readable_accounts',
  'lease_accounting_change',
  'identity_unverified',
] as const;
type SignalCode = (typeof SIGNAL_CODES)[number];
export type Severity = 'high' | 'medium' | 'low';

const SIGNAL_SEVERITY: Readonly<Record<SignalCode, Severity>> = {
  status_dissolved: 'high',
  status_distress: 'high',
  negative_net_assets: 'high',
  accounts_overdue: 'medium',
  net_assets_fall_30: 'medium',
  cash_fall_30: 'medium',
  low_liquidity: 'medium',
  charges_outstanding: 'low',
  no_machine_readable_accounts: 'low',
  lease_accounting_change: 'low',
  // A legal duty the company is in breach of, but no sign of its finances: below distress.
  identity_unverified: 'medium',
};

export interface Signal {
  code: SignalCode;
  severity: Severity;
  message: string;
}

/** What the signals are read from: the register facts and the history, newest first. */
export interface SignalInput extends AccountsDueFacts {
  charges_outstanding: number;
  accounts: readonly AccountsPeriod[];
  /**
   * How many sets of accounts estimated from scanned PDFs are on file beside `accounts` and not
   * read by the rules (include_estimates was not asked): the signal that no machine-readable
   * accounts are on file says they exist.
   */
  estimates_on_file?: number;
}

/** A fall of this much or more, between the last two balance sheets, is a signal. */
export const FALL_PCT = -30;
/** Cash under this share of short-term creditors is low liquidity. */
const LOW_LIQUIDITY_SHARE = 0.1;

function noMachineReadableAccounts(estimates: number): string {
  if (estimates === 0) return 'No machine-readable accounts on file.';
  const sets = estimates === 1 ? 'one set of accounts is' : `${estimates} sets of accounts are`;
  return `No machine-readable accounts on file; ${sets} estimated from scanned PDFs (include_estimates=true reads them).`;
}

/** Every signal on `asOf`, most severe first. */
export function companySignals(input: SignalInput, asOf: string): Signal[] {
  const signals = standingSignals(input);
  if (isAccountsOverdue(input, input.accounts[0]?.balance_sheet_date ?? null, asOf)) {
    signals.push(overdueSignal(input.accounts_next_due!));
  }
  return sortSignals(signals);
}

/**
 * The signals that do not depend on the day asked: all but accounts_overdue. The search index
 * stores these; overdue is decided when a query runs.
 */
export function standingSignals(input: SignalInput): Signal[] {
  const signals: Signal[] = [];
  const add = (code: SignalCode, message: string) => signals.push({ code, severity: SIGNAL_SEVERITY[code], message });
  // A company that has left the register is no going concern, however healthy its last accounts.
  if (isDissolvedStatus(input.status))
    add('status_dissolved', `Register status: ${input.status}; the company is no longer on the register.`);
  if (isDistressStatus(input.status)) add('status_distress', `Register status: ${input.status}.`);
  const [latest, prior] = input.accounts;
  if (!latest) {
    add('no_machine_readable_accounts', noMachineReadableAccounts(input.estimates_on_file ?? 0));
  } else {
    const at = latest.balance_sheet_date;
    const now = latest.figures;
    if (now.net_assets !== null && now.net_assets < 0)
      add('negative_net_assets', `Net assets ${formatMoney(now.net_assets)} at ${at}.`);
    if (prior) {
      const before = prior.figures;
      const netAssetsChange = changePct(before.net_assets, now.net_assets);
      if ((before.net_assets ?? 0) > 0 && netAssetsChange !== null && netAssetsChange <= FALL_PCT) {
        const fall = `Net assets ${formatMoney(now.net_assets)} at ${at}, ${formatChange(netAssetsChange)} on ${formatMoney(before.net_assets)} at ${prior.balance_sheet_date}`;
        // Leases brought onto the balance sheet can move net assets by themselves (the asset is
        // depreciated faster than the liability is paid down), so a fall across the change is no finding.
        // Cash is the same under either standard: cash_fall_30 stands.
        if (crossesLeaseChange(input.accounts))
          add(
            'lease_accounting_change',
            `${fall}: the comparison crosses FRS 102's lease change (operating leases on the balance sheet for periods from 1 January 2026), so the fall may be the accounting, not the business.`,
          );
        else add('net_assets_fall_30', `${fall}.`);
      }
      const cashChange = changePct(before.cash, now.cash);
      if ((before.cash ?? 0) > 0 && cashChange !== null && cashChange <= FALL_PCT)
        add(
          'cash_fall_30',
          `Cash ${formatMoney(now.cash)} at ${at}, ${formatChange(cashChange)} on ${formatMoney(before.cash)} at ${prior.balance_sheet_date}.`,
        );
    }
    const creditors = shortTermCreditors(now);
    if (now.cash !== null && creditors !== null && creditors > 0 && now.cash < LOW_LIQUIDITY_SHARE * creditors)
      add(
        'low_liquidity',
        `Cash ${formatMoney(now.cash)} is under 10% of creditors due within a year (${formatMoney(creditors)}) at ${at}.`,
      );
  }
  if (input.charges_outstanding > 0)
    add(
      'charges_outstanding',
      `${input.charges_outstanding} outstanding charge${input.charges_outstanding === 1 ? '' : 's'} registered.`,
    );
  return sortSignals(signals);
}

/**
 * The `insolvency_proxy` filter of criteria search: the signals of a company that may be unable to
 * pay its debts, read from the register and the filed figures alone (not a credit rating, nor a
 * finding of insolvency). Any one of: a distress status (status_distress: liquidation,
 * administration, receivership, proposal to strike off); negative net assets (the balance sheet
 * test); or low liquidity (cash under 10% of creditors due within a year) together with a fall of
 * 30% or more in net assets or cash (the cash-flow test, as the accounts can show it). Accounts
 * overdue alone is not one: it depends on the day asked, and is often only late filing.
 */
export function showsInsolvencyProxy(signals: readonly Signal[]): boolean {
  const has = (code: SignalCode) => signals.some((signal) => signal.code === code);
  return (
    has('status_distress') ||
    has('negative_net_assets') ||
    (has('low_liquidity') && (has('net_assets_fall_30') || has('cash_fall_30')))
  );
}

export function overdueSignal(nextDue: string): Signal {
  return {
    code: 'accounts_overdue',
    severity: SIGNAL_SEVERITY.accounts_overdue,
    message: `Accounts were due by ${nextDue} and have not been filed.`,
  };
}

/**
 * identity_unverified: current directors or PSCs whose identity verification was due and is not
 * done (overdueVerifications). Read from the officers and the PSC register, not from the register
 * record and the figures, so the lookup adds it to companySignals' list; it leaves the risk band as
 * it is, which reads the finances.
 */
export function withIdentitySignal(
  signals: readonly Signal[],
  overdue: readonly { name: string | null; role: string; due_on: string }[],
): Signal[] {
  if (overdue.length === 0) return [...signals];
  const people = overdue.map(
    (person) => `${person.name ?? 'an unnamed person'} (${person.role}, due ${person.due_on})`,
  );
  return sortSignals([
    ...signals,
    {
      code: 'identity_unverified',
      severity: SIGNAL_SEVERITY.identity_unverified,
      message: `Identity not verified by its due date: ${people.join('; ')}.`,
    },
  ]);
}

const SEVERITY_ORDER: Readonly<Record<Severity, number>> = { high: 0, medium: 1, low: 2 };

function sortSignals(signals: Signal[]): Signal[] {
  return signals.sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      SIGNAL_CODES.indexOf(a.code) - SIGNAL_CODES.indexOf(b.code),
  );
}
