/**
 * The Search page: one box, the ranking of search_by_name. Without JavaScript the form submits
 * to /search and the results come back in the page, a page of 20 at a time with next and previous
 * links; with it, search.js asks /search/suggest as the reader types (debounced) and shows the
 * first results under the box, keyboard-navigable. A company number, in any form the API accepts
 * (1041886, 01041886, sc 123456), goes straight to its company page, and is its one suggestion.
 * When no name matches, names a letter or two away from the query (search_by_name's
 * near_matches) are offered instead, said to be near matches, in the page and in the suggestions.
 */
import type { Context } from 'koa';
import { companyNumberFromDocument } from '../../domain/company-number.ts';
import type { NameSearchHit } from '../../domain/name-search.ts';
import { AppError } from '../../errors.ts';
import { lookupCompany } from '../../operations/lookup-company.ts';
import { searchByName } from '../../operations/search-by-name.ts';
import { statusBadge } from '../company-card.ts';
import { formatDate } from '../format.ts';
import { html } from '../html.ts';
import type { SafeHtml } from '../html.ts';
import type { WebDeps, WebPage } from '../page.ts';
import { sendPage } from '../respond.ts';
import { runForVisitor } from '../run-signed-in.ts';

/** Results of a submitted search: one page of the operation's ranking. */
const RESULTS_PER_PAGE = 20;
/** Suggestions shown under the box as the reader types. */
const SUGGESTIONS = 8;
/** Pages of results one can page forward through (each earlier page's cursor rides in the address). */
const MAX_PAGES = 50;

export const searchPage: WebPage = {
  nav: { href: '/', label: 'Search' },
  register(router, deps) {
    router.get('web_search', '/', (ctx) => showSearch(ctx, deps));
    router.get('web_search', '/search', (ctx) => showSearch(ctx, deps));
    router.get('web_search_suggest', '/search/suggest', (ctx) => suggest(ctx, deps));
  },
};

/** The `name` query parameter: one value, trimmed; '' when absent. */
function nameParam(ctx: Context): string {
  const value = ctx.query.name;
  return (Array.isArray(value) ? (value[0] ?? '') : (value ?? '')).trim();
}

/**
 * The cursors of the pages after the first that led to this one, oldest first (`after`, repeated):
 * the last is this page's cursor, and dropping it is the previous page. The operation pages by
 * cursor, never by offset, so going back needs the cursor of the page before.
 */
function cursorsParam(ctx: Context): string[] {
  const value = ctx.query.after;
  const cursors = (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((c) => c !== '');
  return cursors.slice(0, MAX_PAGES);
}

/**
 * The company a box's text names by its number, or null: text that holds a digit and reads as a
 * company number once spaces are dropped (a name such as "TESCO" never does), found on the register.
 */
async function companyByNumber(ctx: Context, deps: WebDeps, text: string) {
  const number = /\d/.test(text) ? companyNumberFromDocument(text) : null;
  if (number === null) return null;
  try {
    return (await runForVisitor(ctx, deps, { operation: lookupCompany, input: { company_number: number } })).company;
  } catch (error) {
    // Not on the register: the text is searched as a name (a name may hold digits too).
    if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
    throw error;
  }
}

async function showSearch(ctx: Context, deps: WebDeps): Promise<void> {
  const name = nameParam(ctx);
  const cursors = cursorsParam(ctx);
  if (name !== '' && cursors.length === 0) {
    const company = await companyByNumber(ctx, deps, name);
    if (company !== null) return ctx.redirect(`/company/${encodeURIComponent(company.company_number)}`);
  }
  const answer =
    name === ''
      ? null
      : await runForVisitor(ctx, deps, {
          operation: searchByName,
          input: { name, limit: RESULTS_PER_PAGE, ...(cursors.length > 0 ? { cursor: cursors.at(-1) } : {}) },
        });
  sendPage(ctx, {
    title: answer ? `Search: ${name}` : 'Find a company',
    description: answer
      ? `UK companies named like “${name}”, from the Companies House register.`
      : 'Find a UK company by its name or company number: its status, accounts, ownership and risk.',
    scripts: ['search.js'],
    main: html`<h1>Find a company</h1>
      ${searchForm(name)} ${answer ? resultsSection(answer, cursors) : ''}`,
  });
}

/**
 * The suggestions for the as-you-type list, as JSON for search.js: the first hits of the same
 * operation, or the one company a number names. An empty box asks nothing; a name the operation
 * refuses is a 400 with its message.
 */
async function suggest(ctx: Context, deps: WebDeps): Promise<void> {
  const name = nameParam(ctx);
  ctx.set('Cache-Control', 'no-store');
  if (name === '') {
    ctx.body = { results: [], total: 0 };
    return;
  }
  const company = await companyByNumber(ctx, deps, name);
  if (company !== null) {
    const { company_number, name: companyName, status, address } = company;
    ctx.body = {
      total: 1,
      results: [{ company_number, name: companyName, status, post_town: address?.post_town ?? null }],
    };
    return;
  }
  const answer = await runForVisitor(ctx, deps, { operation: searchByName, input: { name, limit: SUGGESTIONS } });
  const suggestion = (hit: NameSearchHit) => ({
    company_number: hit.company_number,
    name: hit.name,
    status: hit.status,
    post_town: hit.post_town,
  });
  // Near matches ("tesoc": TESCO), only when nothing matches, marked so the list can say so.
  ctx.body = {
    total: answer.total,
    results: [
      ...answer.results.map(suggestion),
      ...answer.near_matches.map((hit) => ({ ...suggestion(hit), near: true })),
    ],
  };
}

function searchForm(name: string): SafeHtml {
  return html`<form class="search-form" role="search" action="/search" method="get">
<label for="company-search">Company name or number</label>
<div class="search-box">
<input id="company-search" name="name" type="search" value="${name}" maxlength="200" autocomplete="off" spellcheck="false" required aria-describedby="search-hint">
<button type="submit">Search</button>
</div>
<p id="search-hint" class="hint">For example “tesco stores”, or a company number such as 00445790. Suggestions appear as you type; use the arrow keys to choose one and Enter to open it.</p>
<ul id="search-suggestions" class="suggestions" role="listbox" aria-label="Suggestions" hidden></ul>
<p id="search-status" class="suggest-state" role="status" aria-live="polite"></p>
</form>`;
}

interface SearchAnswer {
  query: string;
  results: readonly NameSearchHit[];
  total: number;
  next: string | null;
  near_matches: readonly NameSearchHit[];
}

/** `/search?name=…` with the cursors that lead to a page (none: the first). */
function searchLink(query: string, cursors: readonly string[]): string {
  const params = new URLSearchParams({ name: query });
  for (const cursor of cursors) params.append('after', cursor);
  return `/search?${params.toString()}`;
}

function resultsSection(
  { query, results, total, next, near_matches }: SearchAnswer,
  cursors: readonly string[],
): SafeHtml {
  if (results.length === 0 && near_matches.length === 0)
    return html`<section aria-labelledby="results-heading"><h2 id="results-heading">No company found</h2>
<p>No company name matches “${query}”. Try fewer words, or the start of a word; a company number finds its company.</p></section>`;
  if (results.length === 0)
    return html`<section aria-labelledby="results-heading"><h2 id="results-heading">Did you mean one of these?</h2>
<p>No company name matches “${query}” as typed. These names are a letter or two different, closest first.</p>
<ol class="results near-matches">
${near_matches.map(resultItem)}</ol></section>`;
  const first = cursors.length * RESULTS_PER_PAGE + 1;
  const last = first + results.length - 1;
  const shown =
    first === 1 && results.length >= total
      ? `${total.toLocaleString('en-GB')} found`
      : `${first.toLocaleString('en-GB')} to ${last.toLocaleString('en-GB')} of ${total.toLocaleString('en-GB')}`;
  const previous = cursors.length > 0 ? searchLink(query, cursors.slice(0, -1)) : null;
  const following = next !== null && cursors.length < MAX_PAGES ? searchLink(query, [...cursors, next]) : null;
  return html`<section aria-labelledby="results-heading">
<h2 id="results-heading">Companies named like “${query}”</h2>
<p>${shown}, best match first.</p>
<ol class="results" start="${first}">
${results.map(resultItem)}</ol>
${
  previous || following
    ? html`<nav class="pager" aria-label="Pages of results">
${previous ? html`<a href="${previous}" rel="prev">Previous ${RESULTS_PER_PAGE}</a>` : ''}
${following ? html`<a href="${following}" rel="next">Next ${Math.min(RESULTS_PER_PAGE, total - last)}</a>` : ''}
</nav>`
    : ''
}
</section>`;
}

function resultItem(hit: NameSearchHit): SafeHtml {
  const town = hit.post_town ? html` · ${hit.post_town}` : '';
  const incorporated = hit.incorporated ? html` · incorporated ${formatDate(hit.incorporated)}` : '';
  return html`<li><a href="/company/${hit.company_number}">${hit.name}</a>
<span class="result-facts">${hit.company_number} · ${statusBadge(hit.status)}${town}${incorporated}</span></li>
`;
}
