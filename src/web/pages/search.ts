/**
 * The Search page: one box, the ranking of search_by_name. Without JavaScript the form submits
 * to /search and the results come back in the page; with it, search.js asks /search/suggest as
 * the reader types (debounced) and shows the first results under the box, keyboard-navigable.
 */
import type { Context } from 'koa';
import type { NameSearchHit } from '../../domain/name-search.ts';
import { searchByName } from '../../operations/search-by-name.ts';
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

async function showSearch(ctx: Context, deps: WebDeps): Promise<void> {
  const name = nameParam(ctx);
  const answer =
    name === ''
      ? null
      : await runForVisitor(ctx, deps, { operation: searchByName, input: { name, limit: RESULTS_PER_PAGE } });
  sendPage(ctx, {
    title: answer ? `Search: ${name}` : 'Find a company',
    scripts: ['search.js'],
    main: html`<h1>Find a company</h1>
      ${searchForm(name)} ${answer ? resultsSection(answer.query, answer.results, answer.total) : ''}`,
  });
}

/**
 * The suggestions for the as-you-type list, as JSON for search.js: the first hits of the same
 * operation. An empty box asks nothing; a name the operation refuses is a 400 with its message.
 */
async function suggest(ctx: Context, deps: WebDeps): Promise<void> {
  const name = nameParam(ctx);
  ctx.set('Cache-Control', 'no-store');
  if (name === '') {
    ctx.body = { results: [], total: 0 };
    return;
  }
  const answer = await runForVisitor(ctx, deps, { operation: searchByName, input: { name, limit: SUGGESTIONS } });
  ctx.body = {
    total: answer.total,
    results: answer.results.map((hit) => ({
      company_number: hit.company_number,
      name: hit.name,
      status: hit.status,
      post_town: hit.post_town,
    })),
  };
}

function searchForm(name: string): SafeHtml {
  return html`<form class="search-form" role="search" action="/search" method="get">
<label for="company-search">Company name or part of it</label>
<div class="search-box">
<input id="company-search" name="name" type="search" value="${name}" maxlength="200" autocomplete="off" spellcheck="false" required aria-describedby="search-hint">
<button type="submit">Search</button>
</div>
<p id="search-hint" class="hint">For example “tesco stores”. Suggestions appear as you type; use the arrow keys to choose one and Enter to open it.</p>
<ul id="search-suggestions" class="suggestions" role="listbox" aria-label="Suggestions" hidden></ul>
<p id="search-status" class="visually-hidden" role="status" aria-live="polite"></p>
</form>`;
}

function resultsSection(query: string, results: readonly NameSearchHit[], total: number): SafeHtml {
  if (results.length === 0)
    return html`<section aria-labelledby="results-heading"><h2 id="results-heading">No company found</h2>
<p>No company name matches “${query}”. Try fewer words, or the start of a word.</p></section>`;
  const shown =
    results.length < total
      ? `The first ${results.length} of ${total.toLocaleString('en-GB')}`
      : `${total.toLocaleString('en-GB')} found`;
  return html`<section aria-labelledby="results-heading">
<h2 id="results-heading">Companies named like “${query}”</h2>
<p>${shown}, best match first.</p>
<ol class="results">
${results.map(resultItem)}</ol>
</section>`;
}

function resultItem(hit: NameSearchHit): SafeHtml {
  const town = hit.post_town ? html` · ${hit.post_town}` : '';
  const incorporated = hit.incorporated ? html` · incorporated ${formatDate(hit.incorporated)}` : '';
  return html`<li><a href="/company/${hit.company_number}">${hit.name}</a>
<span class="result-facts">${hit.company_number} · ${statusBadge(hit.status)}${town}${incorporated}</span></li>
`;
}

/** A company's status, marked so that an inactive one stands out (by words, not colour alone). */
export function statusBadge(status: string): SafeHtml {
  return html`<span class="status ${/^active$/i.test(status) ? 'status-active' : 'status-other'}">${status}</span>`;
}
