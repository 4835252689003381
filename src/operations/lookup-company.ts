import * as z from 'zod';
import { FIGURE_KEYS, hasAnyFigure } from '../domain/figures.ts';
import type { FigureKey } from '../domain/figures.ts';
import { AppError } from '../errors.ts';
import { companyControl, pscIdentityVerification } from '../ownership/psc-view.ts';
import { overdueVerifications } from '../domain/officers.ts';
import type { VerifiablePerson } from '../domain/officers.ts';
import { withIdentitySignal } from '../domain/signals.ts';
import type { CompanyProfile, ControlledProfile, ProfileControl } from './company-profile.ts';
import { companyProfile } from './company-profile.ts';
import { companyNumberInput } from './inputs.ts';
import { count, facts, literal, markup, money, pct, table } from './markdown.ts';
import { defineOperation } from './operation.ts';
import { officerSummary, renderOfficers } from './render-officers.ts';
import { lookupCompanyWithOfficersOutput } from './outputs.ts';
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
    '(net assets, cash, turnover, employees, profit, creditors…; GBP as filed, null = not filed; ' +
    'source.kind=pdf_ocr: estimated from a scanned PDF), `latest`, ' +
    'signals (severity high/medium/low), risk_band (low/medium/high/unknown; not a credit rating) and the ' +
    'trajectory (growing/stable/declining/insufficient_data); `controllers`, the current persons with ' +
    'significant control (natures of control in words, bands; an individual’s nationality, residence, month and ' +
    'year of birth, never an address; a controlling company’s number; an entity’s country), and `psc_statements`; ' +
    'include_ceased=true adds ceased ones. get_ownership gives the chain; `officers` the current officers. A number not on the register is an ' +
    'error. Use search_by_name first if you only have a name. Costs one request of your monthly quota.',
  http: { method: 'GET', path: '/v1/company', rename: { number: 'company_number' } },
  input: z.object({
    company_number: companyNumberInput('The company number'),
    include_ceased: z
      .boolean()
      .default(false)
      .describe('true: list the persons with significant control and statements that have ceased too, with ceased_on'),
    include_estimates: z
      .boolean()
      .default(false)
      .describe('true: latest, signals, risk_band and trajectory read pdf_ocr estimates too'),
  }),
  output: lookupCompanyWithOfficersOutput,
  json: true,
  async run(
    deps,
    input,
    context,
  ): Promise<ControlledProfile & { officers: OfficerView[]; pdf_estimate_pending?: true }> {
    const [found, officers, estimates] = await Promise.all([
      deps.store.companyWithPscs(input.company_number, input.include_ceased),
      deps.officers.officersOf(input.company_number, false),
      deps.pdfEstimates.pdfEstimatesOf(input.company_number),
    ]);
    if (!found) throw companyNotFound(input.company_number);
    const profile = companyProfile(found, context.today, { estimates, include: input.include_estimates });
    // Accounts the register says were filed but none machine-readable: their PDFs are read by OCR
    // (again after a day, for a newer filing); promised only while no estimate is there to show.
    const queued =
      deps.pdfRequests !== undefined &&
      !profile.accounts.some((entry) => entry.source.kind === 'ixbrl') &&
      profile.company.accounts.last_made_up_to !== null &&
      (await deps.pdfRequests.requestCompany(input.company_number));
    const pending = queued && estimates.length === 0;
    const people: VerifiablePerson[] = [
      ...officers.map((o) => ({ name: o.name, role: o.role, identity_verification: o.identity_verification })),
      ...found.pscs
        .filter((psc) => !psc.ceased)
        .map((psc) => ({
          name: psc.name,
          role: 'person with significant control',
          identity_verification: pscIdentityVerification(psc),
        })),
    ];
    return {
      ...profile,
      signals: withIdentitySignal(profile.signals, overdueVerifications(people, context.today)),
      ...companyControl(found.pscs, input.include_ceased),
      officers: officers.map(officerSummary),
      ...(pending ? { pdf_estimate_pending: true as const } : {}),
    };
  },
  toMarkdown: renderProfile,
});

type OfficerView = ReturnType<typeof officerSummary>;

/** What a lookup says when it has queued the company's accounts PDFs to be read. */
export const PDF_ESTIMATE_PENDING =
  'No machine-readable accounts are on file: estimates read from the PDF accounts are being prepared. Look the company up again in a few minutes.';
type Profile = CompanyProfile & Partial<ProfileControl> & { officers?: OfficerView[]; pdf_estimate_pending?: true };
type Company = CompanyProfile['company'];
type Accounts = CompanyProfile['accounts'];

/** A company's profile in Markdown; with its persons with significant control when the profile has them. */
export function renderProfile(profile: Profile): string {
  return [
    `# ${literal(profile.company.name)} (${literal(profile.company.company_number)})`,
    registerFacts(profile),
    ...estimatesUsedNote(profile),
    ...controlSection(profile),
    ...(profile.officers ? [renderOfficers(profile.officers, false)] : []),
    ...previousNamesSection(profile.company),
    ...signalsSection(profile),
    ...accountsSection(profile),
    ...balanceSheetSection(profile.accounts),
    ...estimatesSection(profile.accounts),
    ...sourceFilingsSection(profile.accounts),
    ...accountsWithoutFigures(profile.accounts),
    ...(profile.pdf_estimate_pending ? [PDF_ESTIMATE_PENDING] : []),
    ...latestFiguresSection(profile),
    ...qualityWarningsSection(profile.accounts),
    ...trajectorySection(profile),
  ].join('\n\n');
}

function registeredOffice({ address }: Company): string {
  const { care_of, po_box, line_1, line_2, post_town, county, country, postcode } = address;
  return [
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
}

/** The register record, the risk band and the trajectory in one list of facts. */
function registerFacts({ company, risk_band, trajectory }: Profile): string {
  const { accounts, confirmation_statement: confirmation } = company;
  return facts([
    ['Status', company.status],
    ['Type', company.type],
    ['Incorporated', company.incorporated],
    ['Dissolved', company.dissolved],
    ['Registered office', registeredOffice(company)],
    ['SIC codes', company.sic_codes.join('; ')],
    [
      'Accounts',
      markup(
        `${accounts.category ? `${literal(accounts.category)}; ` : ''}last made up to ${accounts.last_made_up_to ?? '—'}, next due ${accounts.next_due ?? '—'}${accounts.overdue ? ' (**overdue**)' : ''}`,
      ),
    ],
    [
      'Confirmation statement',
      `last made up to ${confirmation.last_made_up_to ?? '—'}, next due ${confirmation.next_due ?? '—'}`,
    ],
    ['Charges', `${company.charges_outstanding} outstanding of ${company.charges_total}`],
    ['Risk band', `${risk_band} (from the signals below; not a credit rating)`],
    ['Trajectory', `${trajectory.direction} over ${trajectory.periods} period${trajectory.periods === 1 ? '' : 's'}`],
  ]);
}

function controlSection({ controllers, psc_statements }: Profile): string[] {
  if (controllers === undefined || psc_statements === undefined) return [];
  return [renderControl({ controllers, psc_statements })];
}

function previousNamesSection({ previous_names }: Company): string[] {
  if (previous_names.length === 0) return [];
  return [
    '## Previous names',
    table(
      ['Name', 'Changed'],
      previous_names.map((p) => [p.name, p.changed]),
    ),
  ];
}

function signalsSection({ signals }: Profile): string[] {
  return [
    '## Signals',
    table(
      ['Severity', 'Signal', 'Detail'],
      signals.map((s) => [s.severity, s.code, s.message]),
    ),
  ];
}

/** Every year's headline figures, newest first. */
function accountsSection({ accounts, latest }: Profile): string[] {
  return [
    `## Accounts${latest ? ` (latest: ${latest.balance_sheet_date})` : ''}`,
    table(
      ['Balance sheet date', 'Published', 'Standard', 'Net assets', 'Cash', 'Turnover', 'Profit', 'Employees'],
      accounts.map((a) => [
        `${a.balance_sheet_date}${a.from_prior_period ? ' (prior-year column)' : ''}${isEstimate(a) ? ` (${ESTIMATED})` : ''}`,
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
}

/** The rest of each year's figures: the balance sheet, and creditors split by when they fall due. */
function balanceSheetSection(accounts: Accounts): string[] {
  if (accounts.length === 0) return [];
  return [
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
      accounts.map((a) => [
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
  ];
}

/** Which filed document each year came from, for a reader who wants the filing itself. */
function sourceFilingsSection(accounts: Accounts): string[] {
  if (accounts.length === 0) return [];
  return [
    '## Source filings',
    table(
      ['Balance sheet date', 'Filed file', 'Bulk file'],
      accounts.map((a) =>
        isEstimate(a)
          ? [a.balance_sheet_date, `PDF, Document API id ${a.document_id ?? a.source.file}`, `(${ESTIMATED})`]
          : [
              `${a.balance_sheet_date}${a.from_prior_period ? ' (its prior-year column)' : ''}`,
              a.source.file,
              a.source.zip ?? '(loaded on its own)',
            ],
      ),
    ),
  ];
}

/** An entry without figures is listed, but never the latest: say why it is empty. */
function accountsWithoutFigures(accounts: Accounts): string[] {
  const empty = accounts
    .filter((a) => !hasAnyFigure(a.figures))
    .map(
      (a) => `- ${a.balance_sheet_date}: ${literal(a.quality.map((q) => q.message).join('; ') || 'no figures filed')}`,
    );
  if (empty.length === 0) return [];
  return ['Accounts without figures:', empty.join('\n')];
}

function latestFiguresSection({ latest }: Profile): string[] {
  if (!latest) return [];
  const amount = (key: FigureKey) => (key === 'employees' ? count(latest.figures[key]) : money(latest.figures[key]));
  const confidence = latest.confidence;
  if (confidence)
    return [
      `## Latest figures (${latest.balance_sheet_date}, ${ESTIMATED})`,
      table(
        ['Figure', 'Amount', 'Confidence'],
        FIGURE_KEYS.map((key) => [key, amount(key), confidence[key]]),
      ),
    ];
  return [
    `## Latest figures (${latest.balance_sheet_date})`,
    table(
      ['Figure', 'Amount'],
      FIGURE_KEYS.map((key) => [key, amount(key)]),
    ),
  ];
}

/** Every filing's warnings, not only the latest's: a reader weighing an older year needs them too. */
function qualityWarningsSection(accounts: Accounts): string[] {
  const warnings = accounts.flatMap((a) => a.quality.map((q) => [a.balance_sheet_date, q.period, q.field, q.message]));
  if (warnings.length === 0) return [];
  return ['## Quality warnings', table(['Balance sheet date', 'Period', 'Field', 'Warning'], warnings)];
}

const ESTIMATED = 'estimated from a scanned PDF';

function isEstimate(entry: Accounts[number]): boolean {
  return entry.source.kind === 'pdf_ocr';
}

/** Said before anything read from the figures, so that no reader takes an estimate for a filed number. */
function estimatesUsedNote({ estimates_used }: Profile): string[] {
  if (!estimates_used) return [];
  return [
    '**Estimates used:** the latest figures, signals, risk band and trajectory below include figures ' +
      'estimated from scanned PDF accounts (include_estimates=true); their confidence is shown with them.',
  ];
}

/**
 * The estimates listed in the accounts, each with the document read and how sure each figure is:
 * high, medium or low (docs/pdf-accounts.md).
 */
function estimatesSection(accounts: Accounts): string[] {
  const estimates = accounts.filter(isEstimate);
  if (estimates.length === 0) return [];
  return [
    '## Estimated from scanned PDFs',
    'These years have no machine-readable accounts: their figures were read by OCR from the scanned PDF ' +
      'the company filed, and may be wrong. Unless include_estimates=true, the latest figures, signals, ' +
      'risk band and trajectory do not read them.',
    table(
      ['Balance sheet date', 'Document API id', 'Confidence per figure'],
      estimates.map((a) => [
        a.balance_sheet_date,
        a.document_id,
        FIGURE_KEYS.filter((key) => a.confidence?.[key])
          .map((key) => `${key} ${a.confidence?.[key]}`)
          .join('; '),
      ]),
    ),
  ];
}

function trajectorySection({ trajectory }: Profile): string[] {
  return [
    '## Trajectory',
    table(
      ['Figure', 'First', 'Last', 'Change', 'CAGR', 'Direction'],
      (['net_assets', 'cash', 'turnover', 'employees', 'profit'] as const).map((key) => {
        const t = trajectory[key];
        const show = key === 'employees' ? count : money;
        return [key, show(t.first), show(t.last), pct(t.change_pct), pct(t.cagr_pct), t.direction];
      }),
    ),
  ];
}
