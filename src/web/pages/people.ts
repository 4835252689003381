/**
 * People: /people finds persons with significant control and company officers by name
 * (search_people), and /person is one person's page, the companies they are on the register for.
 * A person is known by what the register gives of them everywhere: the name and the month and year
 * of birth (an individual), or the name alone (a company or other legal person). Those are the
 * page's query parameters, so a company page links to the person from its PSC list and its
 * officers, and the link still names the same person after a reload. Their roles are sections:
 * control of companies from the PSC register, and appointments as an officer, each company linked
 * to its page.
 */
import type { Context } from 'koa';
import type * as z from 'zod';
import { monthName } from '../../domain/calendar-date.ts';
import { invalidInput } from '../../errors.ts';
import type { searchPeopleOutput } from '../../operations/outputs.ts';
import { searchPeople } from '../../operations/search-people.ts';
import { personNameQuery } from '../../ownership/person-name.ts';
import { formatDate, roleWords } from '../format.ts';
import { html } from '../html.ts';
import type { SafeHtml } from '../html.ts';
import type { WebDeps, WebPage } from '../page.ts';
import { sendPage } from '../respond.ts';
import { runForVisitor } from '../run-signed-in.ts';

type Person = z.output<typeof searchPeopleOutput>['results'][number];

/** People found on a page of the search. */
const PEOPLE_PER_PAGE = 20;
/** Namesakes asked for on a person's page; the one of that name and birth is among them. */
const NAMESAKES = 100;

export const peoplePage: WebPage = {
  nav: { href: '/people', label: 'People' },
  register(router, deps) {
    router.get('web_people', '/people', (ctx) => showPeople(ctx, deps));
    router.get('web_person', '/person', (ctx) => showPerson(ctx, deps));
  },
};

/** Who a person page is about: the query parameters a link to it carries. */
export interface PersonRef {
  name: string;
  birth_year?: number | null;
  birth_month?: number | null;
}

/** The address of a person's page. */
export function personHref(person: PersonRef): string {
  const query = new URLSearchParams({ name: person.name });
  if (person.birth_year !== null && person.birth_year !== undefined) {
    query.set('birth_year', String(person.birth_year));
    if (person.birth_month !== null && person.birth_month !== undefined)
      query.set('birth_month', String(person.birth_month));
  }
  return `/person?${query.toString()}`;
}

/** A query parameter: its one value, trimmed; '' when absent. */
function param(ctx: Context, name: string): string {
  const value = ctx.query[name];
  return (Array.isArray(value) ? (value[0] ?? '') : (value ?? '')).trim();
}

/** A whole-number parameter, undefined when blank; anything else is a 400 naming it. */
function numberParam(ctx: Context, name: string): number | undefined {
  const text = param(ctx, name);
  if (text === '') return undefined;
  if (!/^\d{1,4}$/.test(text)) throw invalidInput(`${name}: must be a whole number, not “${text}”.`);
  return Number(text);
}

async function showPeople(ctx: Context, deps: WebDeps): Promise<void> {
  const name = param(ctx, 'name');
  const answer =
    name === ''
      ? null
      : await runForVisitor(ctx, deps, { operation: searchPeople, input: { name, limit: PEOPLE_PER_PAGE } });
  sendPage(ctx, {
    title: answer ? `People: ${name}` : 'Find a person',
    main: html`<h1>Find a person</h1>
<p>People and companies with significant control of a company (the PSC register), and company officers (directors, secretaries, LLP members), by name.</p>
<form class="search-form" role="search" action="/people" method="get">
<label for="person-search">Name or part of it</label>
<div class="search-box">
<input id="person-search" name="name" type="search" value="${name}" maxlength="200" autocomplete="off" spellcheck="false" required aria-describedby="person-hint">
<button type="submit">Search</button>
</div>
<p id="person-hint" class="hint">For example “ada lovelace” or “lovelace”. A title (Mr, Dr) makes no difference.</p>
</form>
${answer ? peopleResults(answer.query, answer.results, answer.total, answer.total_is_lower_bound) : ''}`,
  });
}

function peopleResults(query: string, people: readonly Person[], total: number, atLeast: boolean): SafeHtml {
  if (people.length === 0)
    return html`<section aria-labelledby="people-heading"><h2 id="people-heading">No one found</h2>
<p>No person with significant control or officer is named like “${query}”. Try fewer words, or the start of a word.</p></section>`;
  const count = `${atLeast ? 'at least ' : ''}${total.toLocaleString('en-GB')}`;
  return html`<section aria-labelledby="people-heading">
<h2 id="people-heading">People named like “${query}”</h2>
<p>${people.length < total ? `The first ${people.length} of ${count}` : `${count} found`}, best match first.</p>
<ol class="results">
${people.map(
  (person) => html`<li><a href="${personHref(person)}">${person.name}</a>
<span class="result-facts">${personFacts(person)} · ${involvement(person)}</span></li>
`,
)}</ol>
</section>`;
}

/** What a person is on the register, in a phrase: control and appointments, now and in all. */
function involvement(person: Person): string {
  const parts: string[] = [];
  if (person.company_count > 0)
    parts.push(
      `controls ${person.current_companies} compan${person.current_companies === 1 ? 'y' : 'ies'} now, ${person.company_count} in all`,
    );
  if (person.appointment_count > 0) {
    const roles = [...new Set(person.appointments.map((a) => roleWords(a.role).toLowerCase()))].join(', ');
    parts.push(
      `${roles}: ${person.current_appointments} appointment${person.current_appointments === 1 ? '' : 's'} now, ${person.appointment_count} in all`,
    );
  }
  return parts.join(' · ');
}

/** The same name, word order aside: "SMITH, John" names the person the PSC register calls "Mr John Smith". */
function sameName(a: string, b: string): boolean {
  const words = (name: string) => personNameQuery(name).words.sort().join(' ');
  return words(a) === words(b);
}

const KIND_WORDS: Readonly<Record<Person['kind'], string>> = {
  individual: 'Individual',
  corporate: 'Company or other corporate body',
  legal_person: 'Legal person',
};

/** What the register says of a person, in a line: kind, birth, nationality, where they live. */
function personFacts(person: Person): string {
  const born =
    person.birth_year === null
      ? null
      : `born ${person.birth_month !== null ? `${monthName(person.birth_month) ?? ''} ` : ''}${person.birth_year}`;
  return [
    KIND_WORDS[person.kind],
    born,
    person.nationality,
    person.country_of_residence && `lives in ${person.country_of_residence}`,
    person.kind !== 'individual' ? person.country : null,
    person.registered_company_number && `registered number ${person.registered_company_number}`,
  ]
    .filter(Boolean)
    .join('; ');
}

/**
 * One person's page: the namesakes search_people finds for the name and birth, narrowed to the
 * one whose name is this name (title, case and punctuation aside) and whose birth is this birth.
 * None: a 404 page. A name alone may be several people (an individual and a company of one name):
 * each is shown.
 */
async function showPerson(ctx: Context, deps: WebDeps): Promise<void> {
  const name = param(ctx, 'name');
  if (name === '') throw invalidInput('name: say whose page you want, e.g. /person?name=Ada%20Lovelace.');
  const birth_year = numberParam(ctx, 'birth_year');
  const birth_month = numberParam(ctx, 'birth_month');
  const answer = await runForVisitor(ctx, deps, {
    operation: searchPeople,
    input: { name, limit: NAMESAKES, birth_year, birth_month },
  });
  const people = answer.results.filter(
    (person) =>
      sameName(person.name, name) &&
      (birth_year === undefined || person.birth_year === birth_year) &&
      (birth_month === undefined || person.birth_month === birth_month),
  );
  if (people.length === 0) {
    sendPage(
      ctx,
      {
        title: 'Person not found',
        main: html`<h1>Person not found</h1>
<p class="error-message" role="alert">No person with significant control or officer named “${name}”${birth_year !== undefined ? ` born ${birth_month !== undefined ? `${monthName(birth_month) ?? birth_month} ` : ''}${birth_year}` : ''} is on the register.</p>
<p><a href="/people?${new URLSearchParams({ name }).toString()}">Search for people named like “${name}”</a></p>`,
      },
      404,
    );
    return;
  }
  const first = people[0]!;
  sendPage(ctx, {
    title: first.name,
    main: html`<h1>${first.name}</h1>
${people.map((person, index) => personSection(person, people.length > 1, index))}`,
  });
}

function personSection(person: Person, several: boolean, index: number): SafeHtml {
  const prefix = several ? `${KIND_WORDS[person.kind]}: ` : '';
  const id = `${person.kind}-${index}`;
  return html`<section aria-label="${person.name}${several ? ` (${KIND_WORDS[person.kind].toLowerCase()})` : ''}">
<p class="lead">${personFacts(person)}</p>
${person.company_count > 0 ? controlPart(person, prefix, `control-${id}`) : ''}
${person.appointment_count > 0 ? appointmentsPart(person, prefix, `appointments-${id}`) : ''}
</section>`;
}

function controlPart(person: Person, prefix: string, id: string): SafeHtml {
  const listed = person.companies.length;
  return html`<h2 id="${id}">${prefix}Companies they have significant control of</h2>
<p>${person.current_companies} now, ${person.company_count} in all, from the PSC register.</p>
<div class="table-wrap" role="region" aria-labelledby="${id}-caption" tabindex="0">
<table class="person-companies">
<caption id="${id}-caption">Companies, current control first</caption>
<thead><tr><th scope="col">Company</th><th scope="col">Number</th><th scope="col">Control</th><th scope="col">Notified</th><th scope="col">Ceased</th><th scope="col">Identity verification</th></tr></thead>
<tbody>
${person.companies.map(
  (c) => html`<tr>
<td><a href="/company/${c.company_number}">${c.company_name ?? c.company_number}</a></td>
<td>${c.company_number}</td>
<td>${c.natures.map((n) => n.words).join('; ') || 'not stated'}</td>
<td>${formatDate(c.notified_on)}</td>
<td>${c.ceased ? (c.ceased_on ? formatDate(c.ceased_on) : 'yes') : '—'}</td>
<td>${identityWords(c.identity_verification)}</td>
</tr>
`,
)}</tbody>
</table>
</div>
${person.company_count > listed ? html`<p>… and ${person.company_count - listed} more not listed here.</p>` : ''}`;
}

function appointmentsPart(person: Person, prefix: string, id: string): SafeHtml {
  const listed = person.appointments.length;
  return html`<h2 id="${id}">${prefix}Appointments as an officer</h2>
<p>${person.current_appointments} held now, ${person.appointment_count} in all, from the register of officers.</p>
<div class="table-wrap" role="region" aria-labelledby="${id}-caption" tabindex="0">
<table class="person-appointments">
<caption id="${id}-caption">Appointments, current first</caption>
<thead><tr><th scope="col">Company</th><th scope="col">Number</th><th scope="col">Status</th><th scope="col">Role</th><th scope="col">Appointed</th><th scope="col">Resigned</th><th scope="col">Identity verification</th></tr></thead>
<tbody>
${person.appointments.map(
  (a) => html`<tr>
<td><a href="/company/${a.company_number}">${a.company_name ?? a.company_number}</a></td>
<td>${a.company_number}</td>
<td>${a.company_status ?? '—'}</td>
<td>${roleWords(a.role)}</td>
<td>${formatDate(a.appointed_on)}</td>
<td>${a.resigned_on ? formatDate(a.resigned_on) : '—'}</td>
<td>${identityWords(a.identity_verification)}</td>
</tr>
`,
)}</tbody>
</table>
</div>
${person.appointment_count > listed ? html`<p>… and ${person.appointment_count - listed} more not listed here.</p>` : ''}`;
}

/**
 * A record's identity verification in plain words (domain/officers.ts says which of the published
 * dates means what): verified, or the statement supplied, or not yet and due by a date.
 */
function identityWords(v: Person['companies'][number]['identity_verification']): string {
  if (v === null) return 'not given';
  if (v.identity_verified_on) return `verified ${formatDate(v.identity_verified_on)}`;
  if (v.appointment_verification_start_on)
    return `verified (statement supplied ${formatDate(v.appointment_verification_start_on)})`;
  if (v.appointment_verification_statement_due_on)
    return `not yet verified, due by ${formatDate(v.appointment_verification_statement_due_on)}`;
  return 'no date given';
}
