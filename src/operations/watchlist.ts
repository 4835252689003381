/**
 * The watchlist of the calling key: list, add (snapshotting each company), remove; and the
 * alerts of what changed since each company was added.
 */
import * as z from 'zod';
import { withFigures } from '../domain/accounts-period.ts';
import { alertsOfWatched, byCompany } from '../alert-detection/watched-alerts.ts';
import { ALERT_SEVERITIES, selectAlerts, sortAlerts } from '../domain/alerts.ts';
import { PLANS } from '../domain/api-keys.ts';
import { watchSnapshot } from '../domain/watch-snapshot.ts';
import { AppError } from '../errors.ts';
import { companyProfile } from './company-profile.ts';
import { companyNumberListInput, dateInput } from './inputs.ts';
import { literal, table } from './markdown.ts';
import { defineOperation } from './operation.ts';
import type { OperationDeps } from './operation.ts';
import { getAlertsOutput, watchAddOutput, watchListOutput, watchRemoveOutput } from './outputs.ts';
import type { CompanyWithAccounts } from '../domain/filings.ts';
import type { WatchedCompany } from '../domain/watchlists.ts';

/** The key's watched companies, and each one as the register and accounts show it now. */
async function watchedCompanies(
  deps: OperationDeps,
  keyId: number,
): Promise<{ watched: WatchedCompany[]; byNumber: Map<string, CompanyWithAccounts> }> {
  const watched = await deps.watchlists.list(keyId);
  const current = await deps.store.getCompanies(watched.map((w) => w.company_number));
  return { watched, byNumber: new Map(current.map((c) => [c.company.company_number, c])) };
}

const companyNumbersInput = companyNumberListInput(50, 'Company numbers to watch or stop watching');

/** What watch_add does over the plan's limit (the WatchlistStore's OverLimit). */
const OVER_LIMIT = ['refuse', 'add_what_fits'] as const;

export const watchList = defineOperation({
  name: 'watch_list',
  title: 'List the watchlist',
  description:
    "The companies on this API key's watchlist (no arguments), in the order they were added: for each, its " +
    'current status, next accounts due date, whether its accounts are overdue now, its risk band, latest balance ' +
    'sheet date and when it was added; also the plan (free or pro), its watchlist limit (free 5, pro 50) and the ' +
    'count. Costs one request of your monthly quota.',
  http: { method: 'GET', path: '/v1/watchlist' },
  input: z.object({}),
  output: watchListOutput,
  json: true,
  async run(deps, _input, context) {
    const { watched, byNumber } = await watchedCompanies(deps, context.keyId);
    return {
      plan: context.plan,
      limit: PLANS[context.plan].watchlist_limit,
      count: watched.length,
      companies: watched.map((w) => {
        const now = byNumber.get(w.company_number);
        // Where it stands today, read as a lookup reads it: the same signals, the same band.
        const profile = now && companyProfile(now, context.today);
        return {
          company_number: w.company_number,
          name: now?.company.name ?? null,
          status: now?.company.status ?? w.snapshot.status,
          accounts_next_due: now ? now.company.accounts_next_due : w.snapshot.accounts_next_due,
          accounts_overdue: profile ? profile.company.accounts.overdue : null,
          risk_band: profile ? profile.risk_band : null,
          latest_balance_sheet_date: now
            ? (withFigures(now.accounts)[0]?.balance_sheet_date ?? null)
            : w.snapshot.latest_balance_sheet_date,
          added: w.added,
        };
      }),
    };
  },
  toMarkdown(result) {
    return [
      `# Watchlist: ${result.count} of ${result.limit} (${result.plan} plan)`,
      table(
        ['Number', 'Name', 'Status', 'Accounts next due', 'Overdue', 'Risk band', 'Latest accounts', 'Added'],
        result.companies.map((c) => [
          c.company_number,
          c.name,
          c.status,
          c.accounts_next_due,
          c.accounts_overdue === null ? null : c.accounts_overdue ? 'overdue' : 'no',
          c.risk_band,
          c.latest_balance_sheet_date,
          c.added.slice(0, 10),
        ]),
      ),
    ].join('\n\n');
  },
});

export const watchAdd = defineOperation({
  name: 'watch_add',
  title: 'Add companies to the watchlist',
  description:
    "Add companies to this API key's watchlist: company_numbers, 1–50 numbers of 8 letters or digits. Each is " +
    'snapshotted now (status, accounts due date, charges, latest figures, current PSCs, insolvency cases) so that get_alerts can report what ' +
    'changes. Returns the numbers `added`, `already_watched` (kept as they were) and `not_found` (not on the ' +
    'register, not added), and `companies`: each one found as it stands now (accounts overdue already, risk band). ' +
    'If the additions would exceed the plan limit (free 5, pro 50): with over_limit refuse (the default) nothing ' +
    'is added and an error says so; with over_limit add_what_fits the first that fit are added, in the order ' +
    'given, and the rest listed in `over_limit`. Adding again changes nothing. Costs one request of your monthly quota.',
  http: { method: 'POST', path: '/v1/watchlist/add' },
  input: z.object({
    company_numbers: companyNumbersInput,
    over_limit: z
      .enum(OVER_LIMIT, { error: `must be one of ${OVER_LIMIT.join(', ')}` })
      .default('refuse')
      .describe('Over the plan limit: refuse (default) adds none; add_what_fits adds the first that fit'),
  }),
  output: watchAddOutput,
  json: false,
  async run(deps, input, context) {
    const found = await deps.store.getCompanies(input.company_numbers);
    const onRegister = new Map(found.map((c) => [c.company.company_number, c]));
    const notFound = input.company_numbers.filter((n) => !onRegister.has(n));
    const pscs = byCompany(await deps.ownership.currentPscsOf([...onRegister.keys()]));
    const limit = PLANS[context.plan].watchlist_limit;
    const result = await deps.watchlists.add(
      context.keyId,
      input.company_numbers
        .filter((n) => onRegister.has(n))
        .map((n) => ({ company_number: n, snapshot: watchSnapshot(onRegister.get(n)!, pscs.get(n) ?? []) })),
      limit,
      context.now.toISOString(),
      input.over_limit,
    );
    if (result.limitReached)
      throw new AppError('CONFLICT', `Watchlist limit of ${limit} companies reached for plan ${context.plan}.`);
    const companies = [...result.added, ...result.alreadyWatched].sort().map((number) => {
      const profile = companyProfile(onRegister.get(number)!, context.today);
      return {
        company_number: number,
        name: profile.company.name,
        status: profile.company.status,
        accounts_next_due: profile.company.accounts.next_due,
        accounts_overdue: profile.company.accounts.overdue,
        risk_band: profile.risk_band,
      };
    });
    return {
      added: result.added,
      already_watched: result.alreadyWatched,
      not_found: notFound,
      over_limit: result.overLimit,
      companies,
    };
  },
  toMarkdown(result) {
    return [
      '# Watchlist updated',
      `- **Added (${result.added.length}):** ${literal(result.added.join(', ') || 'none')}`,
      `- **Already watched (${result.already_watched.length}):** ${literal(result.already_watched.join(', ') || 'none')}`,
      `- **Not found on the register (${result.not_found.length}):** ${literal(result.not_found.join(', ') || 'none')}`,
      ...(result.over_limit.length > 0
        ? [
            `- **Not added, over the plan's limit (${result.over_limit.length}):** ${literal(result.over_limit.join(', '))}`,
          ]
        : []),
      ...(result.companies.length === 0
        ? []
        : [
            '',
            '## As they stand now',
            table(
              ['Number', 'Name', 'Status', 'Accounts next due', 'Overdue', 'Risk band'],
              result.companies.map((c) => [
                c.company_number,
                c.name,
                c.status,
                c.accounts_next_due,
                c.accounts_overdue ? 'overdue already' : 'no',
                c.risk_band,
              ]),
            ),
          ]),
    ].join('\n');
  },
});

export const watchRemove = defineOperation({
  name: 'watch_remove',
  // Its snapshots go: adding the company again starts from a new one, the changes since lost.
  destructive: true,
  title: 'Remove companies from the watchlist',
  description:
    "Remove companies from this API key's watchlist: company_numbers, 1–50 numbers of 8 letters or digits; " +
    'their snapshots are dropped. Returns the numbers `removed` and `not_watched`. Costs one request of your monthly quota.',
  http: { method: 'POST', path: '/v1/watchlist/remove' },
  input: z.object({ company_numbers: companyNumbersInput }),
  output: watchRemoveOutput,
  json: false,
  async run(deps, input, context) {
    const result = await deps.watchlists.remove(context.keyId, input.company_numbers);
    return { removed: result.removed, not_watched: result.notWatched };
  },
  toMarkdown(result) {
    return [
      '# Watchlist updated',
      `- **Removed (${result.removed.length}):** ${literal(result.removed.join(', ') || 'none')}`,
      `- **Not watched (${result.not_watched.length}):** ${literal(result.not_watched.join(', ') || 'none')}`,
    ].join('\n');
  },
});

/** get_alerts without `since`: the alerts of the last 30 days, as the public service answers. */
const ALERTS_DEFAULT_DAYS = 30;

/** The ISO date `days` days before `today`. */
function daysBefore(today: string, days: number): string {
  return new Date(Date.parse(`${today}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

export const getAlerts = defineOperation({
  name: 'get_alerts',
  title: 'Alerts on watched companies',
  description:
    "What changed in the companies on this API key's watchlist since each was added: " +
    'status_change (to liquidation, administration, receivership, strike-off or dissolved; high), ' +
    'insolvency (a new insolvency case; high), ' +
    'negative_net_assets (high), financial_deterioration (net assets or cash down ≥ 30% between the last two ' +
    'filings; medium), overdue_accounts (medium), new_charges (medium), control_change (a PSC or PSC statement ' +
    'notified or ceased; medium), new_accounts (info). Optional: since ' +
    `(YYYY-MM-DD: only alerts detected on or after it; default ${ALERTS_DEFAULT_DAYS} days ago) and ` +
    'severity (the lowest wanted: high, medium, low or info; default info, all). Returns `since` and `severity` ' +
    '(what was applied), `watched` and `alerts` (company, kind, severity, message, detected date, from, to), ' +
    'sorted by severity, then company number; an empty list when nothing changed. Costs one request of your monthly quota.',
  http: { method: 'GET', path: '/v1/alerts' },
  input: z.object({
    since: dateInput(
      `Only alerts detected on or after this date, YYYY-MM-DD (default: ${ALERTS_DEFAULT_DAYS} days before today)`,
    ).optional(),
    severity: z
      .enum(ALERT_SEVERITIES, { error: `must be one of ${ALERT_SEVERITIES.join(', ')}` })
      .default('info')
      .describe('The lowest severity wanted: high, medium, low or info (default info: all)'),
  }),
  output: getAlertsOutput,
  json: true,
  async run(deps, input, context) {
    const watched = await deps.watchlists.list(context.keyId);
    const alerts = (await alertsOfWatched(deps, watched, context.today)).flatMap((w) => w.alerts);
    // As the public service does: the last 30 days unless asked, and the answer says what it applied.
    const since = input.since ?? daysBefore(context.today, ALERTS_DEFAULT_DAYS);
    return {
      since,
      severity: input.severity,
      watched: watched.map((w) => w.company_number),
      alerts: sortAlerts(selectAlerts(alerts, { since, severity: input.severity })),
    };
  },
  toMarkdown(result) {
    return [
      `# Alerts since ${result.since} on ${result.watched.length} watched compan${result.watched.length === 1 ? 'y' : 'ies'}`,
      result.alerts.length === 0
        ? 'No changes.'
        : table(
            ['Severity', 'Number', 'Name', 'Alert', 'Detail', 'Detected'],
            result.alerts.map((a) => [a.severity, a.company_number, a.name, a.kind, a.message, a.detected]),
          ),
      `_Severity ${result.severity} and above${result.severity === 'info' ? ' (all)' : ''}; detected on or after ${result.since}._`,
    ].join('\n\n');
  },
});
