/**
 * Batch lookup: up to 100 companies in one call, each the profile lookup_company gives (the same
 * companyProfile over the same store read) without its year-by-year accounts list, as
 * compare_companies shows a company, with its current persons with significant control; and the
 * numbers not on the register. Two reads for the whole batch: the store's (CompanyStore.getCompanies,
 * one SQL statement) and the PSCs' (OwnershipReader.currentPscsOf, one). Each distinct number costs
 * one request of the quota, taken all or none before the work.
 */
import * as z from 'zod';
import { companyControl } from '../ownership/psc-view.ts';
import type { StoredPsc } from '../domain/psc.ts';
import { companyProfile } from './company-profile.ts';
import { companyNumberListInput } from './inputs.ts';
import { count, money, table } from './markdown.ts';
import { defineOperation } from './operation.ts';
import { lookupCompanyOutput } from './outputs.ts';
import { controllerDetails } from './render-control.ts';

const BATCH_LOOKUP_MAX = 100;

const lookupCompaniesOutput = z.object({
  results: z
    .array(lookupCompanyOutput.omit({ accounts: true }))
    .describe(
      'One profile per number found, in the order asked (a repeat once): what lookup_company gives but the ' +
        'year-by-year accounts list (current persons with significant control only)',
    ),
  not_found: z.array(z.string()).describe('The numbers asked, normalised, that are not on the register'),
});

export type CompanyProfiles = z.infer<typeof lookupCompaniesOutput>;

export const lookupCompanies = defineOperation({
  name: 'lookup_companies',
  title: 'Look up several companies',
  description:
    `Up to ${BATCH_LOOKUP_MAX} UK companies at once by their Companies House numbers: for each, what ` +
    'lookup_company gives but its year-by-year accounts (register record, latest accounts figures, signals, ' +
    'risk band, multi-year trajectory, current persons with significant control and PSC statements), and the ' +
    'numbers not on the register. Each distinct number counts one request ' +
    'against the monthly quota (a repeated number counts once); a key with fewer requests left than the ' +
    'call needs is refused and nothing is counted. The Markdown is a summary table (latest figures, risk ' +
    'band, trajectory) and the signals of each company; use lookup_company for one company in full.',
  http: { method: 'POST', path: '/v1/companies' },
  input: z.object({
    company_numbers: companyNumberListInput(BATCH_LOOKUP_MAX, 'The company numbers'),
  }),
  output: lookupCompaniesOutput,
  json: true,
  readOnly: true,
  // The schema has already dropped repeats: 1 and 00000001 are one company, one request.
  cost: (input) => input.company_numbers.length,
  async run(deps, input, context): Promise<CompanyProfiles> {
    const [companies, pscs] = await Promise.all([
      deps.store.getCompanies(input.company_numbers),
      deps.ownership.currentPscsOf(input.company_numbers),
    ]);
    const found = new Map(companies.map((c) => [c.company.company_number, c]));
    const pscsOf = new Map<string, StoredPsc[]>();
    for (const psc of pscs) pscsOf.set(psc.company_number, [...(pscsOf.get(psc.company_number) ?? []), psc]);
    const results: CompanyProfiles['results'] = [];
    const notFound: string[] = [];
    for (const number of input.company_numbers) {
      const company = found.get(number);
      if (!company) {
        notFound.push(number);
        continue;
      }
      // The history stays out: it is most of a profile's size, and lookup_company gives it.
      const { accounts: _history, ...profile } = companyProfile(company, context.today);
      results.push({ ...profile, ...companyControl(pscsOf.get(number) ?? [], false) });
    }
    return { results, not_found: notFound };
  },
  toMarkdown: renderProfiles,
});

/** One row per company found, then their signals, then the numbers not found. */
export function renderProfiles({ results, not_found }: CompanyProfiles): string {
  const asked = results.length + not_found.length;
  const parts = [
    `# ${results.length} of ${asked} ${asked === 1 ? 'company' : 'companies'} found`,
    table(
      [
        'Number',
        'Name',
        'Status',
        'Incorporated',
        'Latest accounts',
        'Net assets',
        'Cash',
        'Turnover',
        'Profit',
        'Employees',
        'Risk band',
        'Trajectory',
      ],
      results.map(({ company, latest, risk_band, trajectory }) => [
        company.company_number,
        company.name,
        company.status,
        company.incorporated,
        latest?.balance_sheet_date,
        money(latest?.figures.net_assets),
        money(latest?.figures.cash),
        money(latest?.figures.turnover),
        money(latest?.figures.profit),
        count(latest?.figures.employees),
        risk_band,
        `${trajectory.direction} (${trajectory.periods} period${trajectory.periods === 1 ? '' : 's'})`,
      ]),
    ),
    '## Signals',
    table(
      ['Number', 'Severity', 'Signal', 'Detail'],
      results.flatMap(({ company, signals }) =>
        signals.map((s) => [company.company_number, s.severity, s.code, s.message]),
      ),
    ),
    '## Persons with significant control',
    table(
      ['Number', 'Name', 'Kind', 'Control', 'Details'],
      results.flatMap(({ company, controllers, psc_statements }) => [
        ...controllers.map((c) => [
          company.company_number,
          c.name ?? '(withheld)',
          c.kind_class.replace('_', ' '),
          c.natures_of_control.map((n) => n.words).join('; '),
          controllerDetails(c),
        ]),
        ...psc_statements.map((s) => [company.company_number, 'Statement', '', s.words, '']),
      ]),
    ),
  ];
  if (not_found.length > 0) parts.push(`**Not on the register (${not_found.length}):** ${not_found.join(', ')}`);
  parts.push('Risk bands come from the signals; they are not a credit rating.');
  return parts.join('\n\n');
}
