import * as z from 'zod';
import { FIGURE_KEYS } from '../domain/figures.ts';
import type { FigureKey } from '../domain/figures.ts';
import type { CompanyProfile } from './company-profile.ts';
import { companyProfile } from './company-profile.ts';
import { companyNumberInput } from './inputs.ts';
import { companyNotFound } from './lookup-company.ts';
import { count, literal, money, table } from './markdown.ts';
import { defineOperation } from './operation.ts';
import { compareCompaniesOutput } from './outputs.ts';

/** a, b, a − b and a ÷ b of one figure (its schema: outputs.ts). */
type Difference = z.infer<typeof compareCompaniesOutput>['differences'][FigureKey];

export const compareCompanies = defineOperation({
  name: 'compare_companies',
  title: 'Compare two companies',
  description:
    'Two UK companies side by side by company number (company_a, company_b: 8 letters or digits each). Returns, ' +
    'for each, the register record, latest accounts, signals, risk band (low/medium/high/unknown) and ' +
    'trajectory; then, per latest figure (net_assets, cash, turnover, employees, profit, …), a, b, the ' +
    'difference a − b and the ratio a ÷ b (null when a figure was not filed, or b is 0). A number not on the ' +
    'register is an error. Costs one request of your monthly quota.',
  http: { method: 'GET', path: '/v1/compare', rename: { a: 'company_a', b: 'company_b' } },
  input: z.object({
    company_a: companyNumberInput('The first company number'),
    company_b: companyNumberInput('The second company number'),
  }),
  output: compareCompaniesOutput,
  json: true,
  async run(deps, input, context) {
    const found = await deps.store.getCompanies([input.company_a, input.company_b]);
    const profileOf = (number: string): CompanyProfile => {
      const company = found.find((c) => c.company.company_number === number);
      if (!company) throw companyNotFound(number);
      return companyProfile(company, context.today);
    };
    const a = profileOf(input.company_a);
    const b = profileOf(input.company_b);
    const differences = Object.fromEntries(
      FIGURE_KEYS.map((key): [FigureKey, Difference] => {
        const x = a.latest?.figures[key] ?? null;
        const y = b.latest?.figures[key] ?? null;
        return [
          key,
          {
            a: x,
            b: y,
            difference: x !== null && y !== null ? x - y : null,
            ratio: x !== null && y !== null && y !== 0 ? Math.round((x / y) * 1000) / 1000 : null,
          },
        ];
      }),
    ) as Record<FigureKey, Difference>;
    const summary = ({ company, latest, risk_band, signals, trajectory }: CompanyProfile) => ({
      company,
      latest,
      risk_band,
      signals,
      trajectory,
    });
    return { companies: [summary(a), summary(b)], differences };
  },
  toMarkdown(result) {
    const [a, b] = result.companies;
    const header = (p: typeof a) =>
      `${p!.company.name} (${p!.company.company_number}${p!.latest ? `, accounts to ${p!.latest.balance_sheet_date}` : ''})`;
    return [
      `# ${literal(a!.company.name)} vs ${literal(b!.company.name)}`,
      table(
        ['', header(a), header(b)],
        [
          ['Status', a!.company.status, b!.company.status],
          ['Risk band', a!.risk_band, b!.risk_band],
          ['Trajectory', a!.trajectory.direction, b!.trajectory.direction],
          ['Signals', a!.signals.map((s) => s.code).join(', '), b!.signals.map((s) => s.code).join(', ')],
        ],
      ),
      // The messages say why each band is what it is: the codes alone leave an agent guessing.
      '## Signals',
      table(
        ['Company', 'Severity', 'Signal', 'Detail'],
        [a!, b!].flatMap((p) => p.signals.map((s) => [p.company.company_number, s.severity, s.code, s.message])),
      ),
      '## Latest figures',
      table(
        ['Figure', 'A', 'B', 'A − B', 'A ÷ B'],
        FIGURE_KEYS.map((key) => {
          const d = result.differences[key];
          const show = key === 'employees' ? count : money;
          return [key, show(d.a), show(d.b), show(d.difference), d.ratio];
        }),
      ),
    ].join('\n\n');
  },
});
