/**
 * get_officers: a company's officers (directors, secretaries, LLP members, …) as held from the
 * Companies House officers stream and the officers backfill: name, role, appointed and resigned
 * dates, nationality, occupation, country of residence, month and year of birth as published,
 * identity verification as published, and a disqualification in force. REST GET /v1/officers.
 */
import * as z from 'zod';
import { companyNumberInput } from './inputs.ts';
import { companyNotFound } from './lookup-company.ts';
import { literal } from './markdown.ts';
import { defineOperation } from './operation.ts';
import { officerOutput } from './outputs.ts';
import { officerView, renderOfficers } from './render-officers.ts';

const getOfficersOutput = z.object({
  company_number: z.string(),
  name: z.string(),
  include_resigned: z.boolean(),
  officers: z
    .array(
      officerOutput.extend({
        other_appointments: z
          .number()
          .int()
          .min(0)
          .describe(
            'Appointments held by the same officer_id at other companies, now or before: get_appointments lists them',
          ),
      }),
    )
    .describe('Current first, newest appointed first'),
});

/** get_officers' answer, as the company page shows it. */
export type OfficersAnswer = z.output<typeof getOfficersOutput>;

export const getOfficers = defineOperation({
  name: 'get_officers',
  title: "A company's officers",
  description:
    "A UK company's officers (directors, secretaries, LLP members): name, role, appointed_on, resigned_on, " +
    'nationality, occupation, country of residence, month and year of birth, officer_id (the same person ' +
    'elsewhere), other_appointments (how many appointments that officer_id holds or held at other companies: ' +
    "get_appointments lists them, a director's network), identity_verification as published, disqualified_until. " +
    'Current only unless include_resigned=true. Costs one request of your monthly quota.',
  http: { method: 'GET', path: '/v1/officers', rename: { number: 'company_number' } },
  input: z.object({
    company_number: companyNumberInput('The company number'),
    include_resigned: z.boolean().default(false).describe('true: list resigned officers too, with resigned_on'),
  }),
  output: getOfficersOutput,
  json: true,
  async run(deps, input) {
    const [company, officers] = await Promise.all([
      deps.store.getCompany(input.company_number),
      deps.officers.officersOf(input.company_number, input.include_resigned),
    ]);
    if (!company) throw companyNotFound(input.company_number);
    const ids = [...new Set(officers.flatMap((o) => (o.officer_id === null ? [] : [o.officer_id])))];
    const elsewhere = await deps.officers.otherAppointmentCounts(ids, company.company.company_number);
    return {
      company_number: company.company.company_number,
      name: company.company.name,
      include_resigned: input.include_resigned,
      officers: officers.map((o) => ({
        ...officerView(o),
        other_appointments: o.officer_id === null ? 0 : (elsewhere.get(o.officer_id) ?? 0),
      })),
    };
  },
  toMarkdown: (answer) =>
    [
      `# Officers of ${literal(answer.name)} (${answer.company_number})`,
      renderOfficers(answer.officers, answer.include_resigned),
    ].join('\n\n'),
});
