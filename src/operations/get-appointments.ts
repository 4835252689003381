/**
 * get_appointments (GET /v1/officers/appointments): a director's network, every appointment held
 * under one Companies House officer id (from get_officers, or search_people's appointments) at
 * every company, with each company's register name and status. REST and the MCP tool alike.
 */
import * as z from 'zod';
import { monthName } from '../domain/calendar-date.ts';
import { AppError } from '../errors.ts';
import { facts, literal, table } from './markdown.ts';
import { defineOperation } from './operation.ts';
import { personAppointmentOutput } from './outputs.ts';

/** Companies House officer ids are URL-safe base64 words (27 characters today). */
const OFFICER_ID = /^[A-Za-z0-9_-]{1,100}$/;

const getAppointmentsOutput = z.object({
  officer_id: z.string(),
  name: z.string().describe('As filed on the newest appointment ("SMITH, John Andrew")'),
  birth_year: z.number().int().nullable(),
  birth_month: z.number().int().nullable().describe('1–12; the day of birth is never served'),
  nationality: z.string().nullable(),
  country_of_residence: z.string().nullable(),
  current_appointments: z.number().int().min(0).describe('Appointments held now'),
  appointments: z.array(personAppointmentOutput).describe('Current first, newest appointed first'),
});

export const getAppointments = defineOperation({
  name: 'get_appointments',
  title: "An officer's appointments (a director's network)",
  description:
    "Every company appointment held under one Companies House officer id (a director's network): for each, the " +
    'company number, its register name and status, the role as filed (director, secretary, llp-member, …), ' +
    'appointed_on and resigned_on (null while held), identity_verification; current first, newest appointed first. Also the name, month ' +
    'and year of birth, nationality and country of residence as filed (never an address). officer_id comes from ' +
    'get_officers or search_people (appointments[].officer_id); letters, digits, - and _, at most 100. An id with ' +
    'no appointment held here is an error (404). Costs one request of your monthly quota.',
  http: { method: 'GET', path: '/v1/officers/appointments' },
  input: z.object({
    officer_id: z
      .string()
      .trim()
      .regex(OFFICER_ID, 'must be a Companies House officer id: letters, digits, - and _, at most 100')
      .describe("The officer id, from get_officers' officer_id or search_people's appointments"),
  }),
  output: getAppointmentsOutput,
  json: true,
  async run(deps, input) {
    const held = await deps.officers.appointmentsOf(input.officer_id);
    const newest = [...held].sort((a, b) => (a.as_of < b.as_of ? 1 : a.as_of > b.as_of ? -1 : 0))[0];
    if (!newest) throw new AppError('NOT_FOUND', `Officer ${input.officer_id} not found: no appointment is held.`);
    return {
      officer_id: input.officer_id,
      name: newest.name,
      birth_year: newest.birth_year,
      birth_month: newest.birth_month,
      nationality: newest.nationality,
      country_of_residence: newest.country_of_residence,
      current_appointments: held.filter((a) => a.resigned_on === null).length,
      appointments: held.map((a) => ({
        company_number: a.company_number,
        company_name: a.company_name,
        company_status: a.company_status,
        role: a.role,
        appointed_on: a.appointed_on,
        resigned_on: a.resigned_on,
        officer_id: a.officer_id,
        identity_verification: a.identity_verification,
      })),
    };
  },
  toMarkdown: (answer) =>
    [
      `# Appointments of ${literal(answer.name)}`,
      facts([
        ['Officer id', answer.officer_id],
        [
          'Born',
          answer.birth_year === null
            ? null
            : `${answer.birth_month === null ? '' : `${monthName(answer.birth_month) ?? ''} `}${answer.birth_year}`,
        ],
        ['Nationality', answer.nationality],
        ['Country of residence', answer.country_of_residence],
        ['Appointments', `${answer.current_appointments} held now, ${answer.appointments.length} in all`],
      ]),
      table(
        ['Number', 'Company', 'Status', 'Role', 'Appointed', 'Resigned'],
        answer.appointments.map((a) => [
          a.company_number,
          a.company_name ?? '(not on the register)',
          a.company_status,
          a.role,
          a.appointed_on,
          a.resigned_on ?? 'current',
        ]),
      ),
    ].join('\n\n'),
});
