import * as z from 'zod';
import { FIGURE_KEYS, hasAnyFigure } from '../domain/figures.ts';
import { AppError } from '../errors.ts';
import { companyControl } from '../ownership/psc-view.ts';
import type { CompanyProfile, ControlledProfile, ProfileControl } from './company-profile.ts';
import { companyProfile } from './company-profile.ts';
import { companyNumberInput } from './inputs.ts';
import { count, facts, money, pct, table } from './markdown.ts';
import { defineOperation } from './operation.ts';
import { lookupCompanyOutput } from './outputs.ts';
import { renderControl } from './render-control.ts';

export function companyNotFound(number: string): AppError {
  return new AppError('NOT_FOUND', `Company ${number} not found.`);
}

export const lookupCompany = defineOperation({
  name: 'lookup_company',
  title: 'Look up a company',
  description:
    'One UK company by its Companies House number (8 letters or digits; shorter all-digit numbers are ' +
    'zero-padded). Returns the register record (status, type, incorporation, accounts due dates and whether ' +
    'overdue, charges, SIC codes, address, previous names), every year of machine-readable accounts newest first ' +
    '(net assets, cash, turnover, employees, profit, creditors…; GBP as filed, null = not filed), `latest`, ' +
    'signals (severity high/medium/low), risk_band (low/medium/high/unknown; not a credit rating) and the ' +
    'trajectory (growing/stable/declining/insufficient_data); `controllers`, the current persons with ' +
    'significant control (natures of control in words, bands; an individual’s nationality, residence, month and ' +
    'year of birth, never an address; a controlling company’s number; an entity’s country), and `psc_statements`; ' +
    'include_ceased=true adds ceased ones. get_ownership gives the chain. A number not on the register is an ' +
    'error. Use search_by_name first if you only have a name. Costs one request of your monthly quota.',
  http: { method: 'GET', path: '/v1/company', rename: { number: 'company_number' } },
  input: z.object({
    company_number: companyNumberInput('The company number'),
    include_ceased: z
      .boolean()
      .default(false)
      .describe('true: list the persons with significant control and statements that have ceased too, with ceased_on'),
  }),
  output: lookupCompanyOutput,
  json: true,
  async run(deps, input, context): Promise<ControlledProfile> {
    const found = await deps.store.companyWithPscs(input.company_number, input.include_ceased);
    if (!found) throw companyNotFound(input.company_number);
    return { ...companyProfile(found, context.today), ...companyControl(found.pscs, input.include_ceased) };
  },
  toMarkdown: renderProfile,
});

/** A company's profile in Markdown; with its persons with significant control when the profile has them. */
export function renderProfile(profile: CompanyProfile & Partial<ProfileControl>): string {
  const { company, latest, signals, trajectory } = profile;
  const { care_of, po_box, line_1, line_2, post_town, county, country, postcode } = company.address;
  const address = [
    care_of && `c/o ${care_of}`,
    po_box, // as the register writes it: "PO BOX 123"
    line_1,
    line_2,
    post_town,
    county,
    postcode,
    country,
  ]
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
        `${company.accounts.category ? `${company.accounts.category}; ` : ''}last made up to ${company.accounts.last_made_up_to ?? '—'}, next due ${company.accounts.next_due ?? '—'}${company.accounts.overdue ? ' (**overdue**)' : ''}`,
      ],
      [
        'Confirmation statement',
        `last made up to ${company.confirmation_statement.last_made_up_to ?? '—'}, next due ${company.confirmation_statement.next_due ?? '—'}`,
      ],
      ['Charges', `${company.charges_outstanding} outstanding of ${company.charges_total}`],
      ['Risk band', `${profile.risk_band} (from the signals below; not a credit rating)`],
      ['Trajectory', `${trajectory.direction} over ${trajectory.periods} period${trajectory.periods === 1 ? '' : 's'}`],
    ]),
  ];
  if (profile.controllers !== undefined && profile.psc_statements !== undefined)
    parts.push(renderControl({ controllers: profile.controllers, psc_statements: profile.psc_statements }));
  if (company.previous_names.length > 0)
    parts.push(
      '## Previous names',
      table(
        ['Name', 'Changed'],
        company.previous_names.map((p) => [p.name, p.changed]),
      ),
    );
  parts.push(
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
  );
  // The rest of each year's figures: the balance sheet, and creditors split by when they fall due.
  if (profile.accounts.length > 0)
    parts.push(
      '## Balance sheet and creditors',
      table(
        [
          'Balance sheet date',
          'Period start',
          'Equity',
          'Total assets less current liabilities',
          'Current assets',
          'Debtors',
          'Creditors',
          'Creditors within one year',
          'Creditors after one year',
        ],
        profile.accounts.map((a) => [
          a.balance_sheet_date,
          a.period_start,
          money(a.figures.equity),
          money(a.figures.total_assets_less_current_liabilities),
          money(a.figures.current_assets),
          money(a.figures.debtors),
          money(a.figures.creditors),
          money(a.figures.creditors_within_one_year),
          money(a.figures.creditors_after_one_year),
        ]),
      ),
    );
  // Which filed document each year came from, for a reader who wants the filing itself.
  if (profile.accounts.length > 0)
    parts.push(
      '## Source filings',
      table(
        ['Balance sheet date', 'Filed file', 'Bulk file'],
        profile.accounts.map((a) => [
          `${a.balance_sheet_date}${a.from_prior_period ? ' (its prior-year column)' : ''}`,
          a.source.file,
          a.source.zip ?? '(loaded on its own)',
        ]),
      ),
    );
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
  }
  // Every filing's warnings, not only the latest's: a reader weighing an older year needs them too.
  const warnings = profile.accounts.flatMap((a) =>
    a.quality.map((q) => [a.balance_sheet_date, q.period, q.field, q.message]),
  );
  if (warnings.length > 0)
    parts.push('## Quality warnings', table(['Balance sheet date', 'Period', 'Field', 'Warning'], warnings));
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
