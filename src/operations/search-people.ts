/**
 * search_people (GET /v1/search-people): persons with significant control and company officers by
 * name, one result per person (the PSC records and appointments sharing a name and a month and
 * year of birth), each with the companies they control and their appointments. Served by the
 * people index (people.ts) on either search adapter.
 */
import * as z from 'zod';
import { describeNature } from '../ownership/natures.ts';
import type { PersonDocument, PersonKey } from '../domain/people.ts';
import { PEOPLE_TOTAL_COUNTED_UP_TO, PERSON_COMPANIES_KEPT, PERSON_ROLE_FILTERS, PSC_ROLE } from '../domain/people.ts';
import { personNameQuery } from '../ownership/person-name.ts';
import { cursorInput, decodeCursor, encodeCursor, pageLine } from './cursor.ts';
import { limitInput, textInput } from './inputs.ts';
import { facts, literal, table } from './markdown.ts';
import { defineOperation } from './operation.ts';
import { searchPeopleOutput } from './outputs.ts';
import { monthName } from '../domain/calendar-date.ts';
import { verificationWords } from '../domain/officers.ts';

const EARLIEST_BIRTH_YEAR = 1900;

/** A page's place: [tier 0–3, active companies, name length, person_key] (people.ts PersonKey). */
const personKeySchema: z.ZodType<PersonKey> = z
  .tuple([
    z.number().int().min(0).max(3),
    z.number().int().min(0).max(10_000_000),
    z.number().int().min(0).max(10_000),
    z.string().min(1).max(2000),
  ])
  .readonly();

type SearchPeopleResult = z.output<typeof searchPeopleOutput>;
type PersonResult = SearchPeopleResult['results'][number];

export const searchPeople = defineOperation({
  name: 'search_people',
  title: 'Find persons with significant control and company officers by name',
  description:
    'Find people by name: persons with significant control (PSC register: individuals, and companies and other ' +
    'legal persons that control companies) and company officers (directors, secretaries, LLP members). Case, ' +
    'punctuation, a title (Mr, Dr…), a legal suffix (LTD…) and word order ("SMITH, John") are ignored as far as ' +
    'ranking goes, and each word may be the start of a word ("john sm"). ' +
    'One result per person: the same name with the same month and year of birth across companies, each with ' +
    '`roles` (what they are: "psc", then officer roles such as "director"), the companies they control (number, ' +
    'register name, natures of control in words, notified, ceased, identity_verification) and their ' +
    "`appointments` as an officer (a director's network: company number, name, status, role, appointed, " +
    'resigned, officer_id, identity_verification), current first, at ' +
    `most ${PERSON_COMPANIES_KEPT} each. name 1–200 characters; birth_year ${EARLIEST_BIRTH_YEAR}–this year and ` +
    'birth_month 1–12 (only with birth_year) keep individuals born then; role "psc" or "officer" keeps only those; ' +
    'limit 1–100 (default 20). Ranked: the exact name, then names starting with it, containing it, then other word ' +
    'matches; ties: more companies they are on now first, then the shorter name. Returns kind (individual, ' +
    'corporate, legal_person), name, month and year of birth, nationality, ' +
    'country of residence (never an address or a full date of birth), `total` (counted up to ' +
    `${PEOPLE_TOTAL_COUNTED_UP_TO.toLocaleString('en-GB')}: \`total_is_lower_bound\` true means at least that many) ` +
    'and `next`: send it as `cursor` with ' +
    'the same other arguments for the following page (null on the last). Costs one request of your monthly quota a ' +
    'page.',
  http: { method: 'GET', path: '/v1/search-people' },
  input: z
    .object({
      name: textInput(200).describe('The name or part of it, 1–200 characters'),
      birth_year: z
        .number()
        .int('must be a whole number')
        .min(EARLIEST_BIRTH_YEAR, `must be ${EARLIEST_BIRTH_YEAR} or later`)
        .refine((year) => year <= new Date().getUTCFullYear(), { message: 'must not be after this year' })
        .optional()
        .describe(`Year of birth, ${EARLIEST_BIRTH_YEAR} to this year: only individuals born that year`),
      birth_month: z
        .number()
        .int('must be a whole number')
        .min(1, 'must be 1 to 12')
        .max(12, 'must be 1 to 12')
        .optional()
        .describe('Month of birth, 1–12, with birth_year'),
      role: z
        .enum(PERSON_ROLE_FILTERS, { error: 'must be psc or officer' })
        .optional()
        .describe('psc: only persons with significant control; officer: only company officers; absent: anyone'),
      limit: limitInput(100, 20),
      cursor: cursorInput,
    })
    .superRefine((input, ctx) => {
      if (input.birth_month !== undefined && input.birth_year === undefined)
        ctx.addIssue({ code: 'custom', path: ['birth_month'], message: 'needs birth_year beside it' });
    }),
  output: searchPeopleOutput,
  json: true,
  async run(deps, input): Promise<SearchPeopleResult> {
    // Bound to the name as searched (case, punctuation, title and suffix aside, the same query).
    const query = {
      name: personNameQuery(input.name).phrase,
      birth_year: input.birth_year,
      birth_month: input.birth_month,
      role: input.role,
    };
    const after = decodeCursor(input.cursor, { operation: 'search_people', query, key: personKeySchema });
    const page = await deps.people.searchPeople({
      name: input.name,
      ...(input.birth_year !== undefined ? { birth_year: input.birth_year } : {}),
      ...(input.birth_month !== undefined ? { birth_month: input.birth_month } : {}),
      ...(input.role !== undefined ? { role: input.role } : {}),
      limit: input.limit,
      ...(after ? { after } : {}),
    });
    return {
      query: input.name,
      birth_year: input.birth_year ?? null,
      birth_month: input.birth_month ?? null,
      role: input.role ?? null,
      results: page.people.map(personResult),
      total: page.total,
      total_is_lower_bound: page.total_is_lower_bound,
      next: encodeCursor('search_people', query, page.next),
    };
  },
  toMarkdown(result) {
    const born =
      result.birth_year === null ? '' : ` born ${birthText(result.birth_year, result.birth_month) ?? ''}`.trimEnd();
    return [
      `# ${ROLE_HEADINGS[result.role ?? 'anyone']} named like "${literal(result.query)}"${born}`,
      result.results.length === 0 ? '_No one found._' : result.results.map(personMarkdown).join('\n\n'),
      peoplePageLine(result),
    ].join('\n\n');
  },
});

const ROLE_HEADINGS: Record<NonNullable<SearchPeopleResult['role']> | 'anyone', string> = {
  anyone: 'People',
  psc: 'Persons with significant control',
  officer: 'Company officers',
};

/** "20 of 1,234; more: …", or "20 of at least 10,000" when the count stopped at its bound. */
function peoplePageLine(result: SearchPeopleResult): string {
  const line = pageLine(result.results.length, result.total, result.next);
  return result.total_is_lower_bound ? line.replace(' of ', ' of at least ') : line;
}

/** A person as the answer shows it: the document, its natures of control in words. */
function personResult(person: PersonDocument): PersonResult {
  return {
    kind: person.kind,
    name: person.name,
    name_elements: person.name_elements,
    birth_year: person.birth_year,
    birth_month: person.birth_month,
    nationality: person.nationality,
    country_of_residence: person.country_of_residence,
    country: person.country,
    registered_company_number: person.registered_company_number,
    current_companies: person.current_companies,
    company_count: person.company_count,
    companies: person.companies.map((company) => ({
      company_number: company.company_number,
      company_name: company.company_name,
      natures: company.natures_of_control.map((code) => ({ code, words: describeNature(code) })),
      notified_on: company.notified_on,
      ceased_on: company.ceased_on,
      ceased: company.ceased,
      // A document indexed before verification was kept has none: the same as none given.
      identity_verification: company.identity_verification ?? null,
    })),
    roles: person.roles,
    officer_ids: person.officer_ids,
    current_appointments: person.current_appointments,
    appointment_count: person.appointment_count,
    appointments: person.appointments.map((a) => ({ ...a, identity_verification: a.identity_verification ?? null })),
  };
}

function birthText(year: number | null, month: number | null): string | null {
  if (year === null) return null;
  return month === null ? String(year) : `${monthName(month) ?? month} ${year}`;
}

const KIND_WORDS: Record<PersonResult['kind'], string> = {
  individual: 'individual',
  corporate: 'company or other corporate body',
  legal_person: 'legal person',
};

/** What a person is, in words: "person with significant control; director; secretary (before)". */
function roleWords(person: Pick<PersonResult, 'roles' | 'appointments'>): string {
  const current = new Set(person.appointments.filter((a) => a.resigned_on === null).map((a) => a.role));
  return person.roles
    .map((role) =>
      role === PSC_ROLE
        ? 'person with significant control'
        : `${role.replaceAll('-', ' ')}${current.has(role) ? '' : ' (before)'}`,
    )
    .join('; ');
}

/**
 * The Identity column in words: verified (on), statement supplied, or due (by); "not given" when the
 * record carries no verification block, so that a blank is never mistaken for a missing column.
 */
function identityCell(verification: PersonResult['companies'][number]['identity_verification']): string | null {
  return verification === null ? 'not given' : verificationWords(verification);
}

function personMarkdown(person: PersonResult): string {
  const listed = person.companies.length;
  const offices = person.appointments.length;
  return [
    `## ${literal(person.name)}`,
    facts([
      ['Kind', KIND_WORDS[person.kind]],
      ...(person.kind === 'individual'
        ? ([
            ['Born', birthText(person.birth_year, person.birth_month)],
            ['Nationality', person.nationality],
            ['Country of residence', person.country_of_residence],
          ] as [string, unknown][])
        : ([
            ['Registered in', person.country],
            ['Company number', person.registered_company_number],
          ] as [string, unknown][])),
      ['Roles', roleWords(person)],
      ['Companies', `${person.current_companies} controlled now, ${person.company_count} in all`],
      ['Appointments', `${person.current_appointments} held now, ${person.appointment_count} in all`],
    ]),
    ...(person.company_count === 0
      ? []
      : [
          table(
            ['Number', 'Company', 'Control', 'Notified', 'Ceased', 'Identity'],
            person.companies.map((c) => [
              c.company_number,
              c.company_name ?? '(not on the register)',
              c.natures.map((n) => n.words).join('; '),
              c.notified_on,
              c.ceased ? (c.ceased_on ?? 'yes') : null,
              identityCell(c.identity_verification),
            ]),
          ),
        ]),
    ...(person.company_count > listed ? [`… and ${person.company_count - listed} more not listed.`] : []),
    ...(offices === 0
      ? []
      : [
          table(
            ['Number', 'Company', 'Status', 'Role', 'Appointed', 'Resigned', 'Identity'],
            person.appointments.map((a) => [
              a.company_number,
              a.company_name ?? '(not on the register)',
              a.company_status,
              a.role,
              a.appointed_on,
              a.resigned_on,
              identityCell(a.identity_verification),
            ]),
          ),
        ]),
    ...(person.appointment_count > offices
      ? [`… and ${person.appointment_count - offices} more appointments not listed.`]
      : []),
  ].join('\n\n');
}
