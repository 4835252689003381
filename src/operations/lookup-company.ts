import * as z from 'zod';
import { FIGURE_KEYS, hasAnyFigure } from '../domain/figures.ts';
import { AppError } from '../errors.ts';
import type { CompanyProfile } from './company-profile.ts';
import { companyProfile } from './company-profile.ts';
import { companyNumberInput } from './inputs.ts';
import { count, facts, money, pct, table } from './markdown.ts';
import { defineOperation } from './operation.ts';

export function companyNotFound(number: string): AppError {
  return new AppError('NOT_FOUND', `Company ${number} not found.`);
}

export const lookupCompany = defineOperation({
  name: 'lookup_company',
  title: 'Look up a company',
  description:
    'One UK company by its Companies House number: the register record (status, type, incorporation, ' +
    'accounts due dates and whether overdue, charges, SIC codes, registered address, previous names), every ' +
    'year of machine-readable accounts figures (net assets, cash, turnover, employees, profit, creditors…; ' +
    'null means not filed), the latest year, signals with severities, a risk band (low/medium/high/unknown; ' +
    'not a credit rating) and the multi-year trajectory. Use search_by_name first if you only have a name.',
  http: { method: 'GET', path: '/v1/company', rename: { number: 'company_number' } },
  input: z.object({ company_number: companyNumberInput('The company number') }),
  json: true,
  async run(deps, input, context): Promise<CompanyProfile> {
    const found = await deps.store.getCompany(input.company_number);
    if (!found) throw companyNotFound(input.company_number);
    return companyProfile(found, context.today);
  },
  toMarkdown: renderProfile,
});

export function renderProfile(profile: CompanyProfile): string {
  const { company, latest, signals, trajectory } = profile;
  const address = [company.address.line_1, company.address.line_2, company.address.post_town, company.address.postcode]
    .filter(Boolean)
    .join(', ');
  const parts = [
    `# ${company.name} (${company.company_number})`,
    facts([
      ['Status', company.status],
      ['Type', company.type],
      ['Incorporated', company.incorporated],
      ['Dissolved', company.dissolved],
      ['Registered office', address],
      ['SIC codes', company.sic_codes.join('; ')],
      [
        'Accounts',
        `last made up to ${company.accounts.last_made_up_to ?? '—'}, next due ${company.accounts.next_due ?? '—'}${company.accounts.overdue ? ' (**overdue**)' : ''}`,
      ],
      ['Charges', `${company.charges_outstanding} outstanding of ${company.charges_total}`],
      ['Risk band', `${profile.risk_band} (from the signals below; not a credit rating)`],
      ['Trajectory', `${trajectory.direction} over ${trajectory.periods} period${trajectory.periods === 1 ? '' : 's'}`],
    ]),
    '## Signals',
    table(
      ['Severity', 'Signal', 'Detail'],
      signals.map((s) => [s.severity, s.code, s.message]),
    ),
    `## Accounts${latest ? ` (latest: ${latest.balance_sheet_date})` : ''}`,
    table(
      ['Balance sheet date', 'Published', 'Standard', 'Net assets', 'Cash', 'Turnover', 'Profit', 'Employees'],
      profile.accounts.map((a) => [
        `${a.balance_sheet_date}${a.from_prior_period ? ' (prior-year column)' : ''}`,
        a.published,
        a.standard,
        money(a.figures.net_assets),
        money(a.figures.cash),
        money(a.figures.turnover),
        money(a.figures.profit),
        count(a.figures.employees),
      ]),
    ),
  ];
  // An entry without figures is listed, but never the latest: say why it is empty.
  const empty = profile.accounts
    .filter((a) => !hasAnyFigure(a.figures))
    .map((a) => `- ${a.balance_sheet_date}: ${a.quality.map((q) => q.message).join('; ') || 'no figures filed'}`);
  if (empty.length > 0) parts.push('Accounts without figures:', empty.join('\n'));
  if (latest) {
    parts.push(
      `## Latest figures (${latest.balance_sheet_date})`,
      table(
        ['Figure', 'Amount'],
        FIGURE_KEYS.map((key) => [key, key === 'employees' ? count(latest.figures[key]) : money(latest.figures[key])]),
      ),
    );
    const warnings = latest.quality.map((q) => `- ${q.field}: ${q.message}`);
    if (warnings.length > 0) parts.push('Quality warnings:', warnings.join('\n'));
  }
  parts.push(
    '## Trajectory',
    table(
      ['Figure', 'First', 'Last', 'Change', 'CAGR', 'Direction'],
      (['net_assets', 'cash', 'turnover', 'employees', 'profit'] as const).map((key) => {
        const t = trajectory[key];
        const show = key === 'employees' ? count : money;
        return [key, show(t.first), show(t.last), pct(t.change_pct), pct(t.cagr_pct), t.direction];
      }),
    ),
  );
  return parts.join('\n\n');
}
