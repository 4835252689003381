/**
 * The Watchlist page of a signed-in key: its companies (watch_list), a form to add one by number
 * (watch_add) and a button to remove each (watch_remove). Like every page, these are not charged
 * to the key's monthly quota; the page says how much of it API calls and downloads used. Forms
 * post, then redirect back here with what happened in the query (so a reload does not post again).
 * Over the plan's limit the first companies that fit are added and the page names the others and
 * says why. The company page posts its watch button here too. Not signed in: to the sign-in page.
 */
import type { Context } from 'koa';
import { watchAdd, watchList, watchRemove } from '../../operations/watchlist.ts';
import { checkForm, formField } from '../form-guard.ts';
import { formatDate } from '../format.ts';
import { html } from '../html.ts';
import type { SafeHtml } from '../html.ts';
import type { WebDeps, WebPage } from '../page.ts';
import { sendPage } from '../respond.ts';
import { runSignedIn } from '../run-signed-in.ts';
import type { SignedIn } from '../sessions.ts';
import { signedInOf } from '../visitor.ts';
import { quotaLine, quotaOf } from '../quota.ts';

export const watchlistPage: WebPage = {
  nav: { href: '/watchlist', label: 'Watchlist' },
  register(router, deps) {
    if (!deps.sessions) return;
    router.get('web_watchlist', '/watchlist', (ctx) => showWatchlist(ctx, deps));
    router.post('web_watchlist_add', '/watchlist/add', (ctx) => change(ctx, deps, 'add'));
    router.post('web_watchlist_remove', '/watchlist/remove', (ctx) => change(ctx, deps, 'remove'));
  },
};

/** The signed-in reader, or null after redirecting an anonymous one to the sign-in page. */
export function requireSignIn(ctx: Context): SignedIn | null {
  const signedIn = signedInOf(ctx);
  if (signedIn === null) {
    ctx.status = 303;
    ctx.redirect('/sign-in');
  }
  return signedIn;
}

/** The outcome lists a change redirects with, as query parameters of company numbers. */
const OUTCOMES = {
  added: 'Added',
  already_watched: 'Already on your watchlist',
  not_found: 'Not on the register, so not added',
  over_limit: 'Not added: the watchlist is full',
  removed: 'Removed',
  not_watched: 'Not on your watchlist',
} as const;
type Outcome = keyof typeof OUTCOMES;

/** A form's company numbers: separated by commas or spaces, upper-cased as the register writes them. */
function companyNumbersOf(text: string | undefined): string[] {
  return (text ?? '')
    .split(/[\s,]+/)
    .filter((part) => part !== '')
    .map((part) => part.toUpperCase());
}

async function change(ctx: Context, deps: WebDeps, action: 'add' | 'remove'): Promise<void> {
  const signedIn = requireSignIn(ctx);
  if (!signedIn) return;
  checkForm(ctx, signedIn.csrfToken);
  const company_numbers = companyNumbersOf(formField(ctx, 'company_numbers'));
  const outcome: Partial<Record<Outcome, string[]>> =
    action === 'add'
      ? await runSignedIn(deps, signedIn, {
          operation: watchAdd,
          // Over the limit, the first that fit are added and the rest named (the API refuses them all).
          input: { company_numbers, over_limit: 'add_what_fits' },
        })
      : await runSignedIn(deps, signedIn, { operation: watchRemove, input: { company_numbers } });
  const query = new URLSearchParams();
  // Only the lists of numbers go in the query (watch_add's answer also carries each company's state).
  for (const name of Object.keys(OUTCOMES) as Outcome[]) {
    const numbers = outcome[name] ?? [];
    if (numbers.length > 0) query.set(name, numbers.join(','));
  }
  ctx.status = 303;
  ctx.redirect(`/watchlist${query.size > 0 ? `?${query.toString()}` : ''}`);
}

async function showWatchlist(ctx: Context, deps: WebDeps): Promise<void> {
  const signedIn = requireSignIn(ctx);
  if (!signedIn) return;
  const [result, quota] = await Promise.all([
    runSignedIn(deps, signedIn, { operation: watchList, input: {} }),
    quotaOf(deps, signedIn.key),
  ]);
  sendPage(ctx, {
    title: 'Watchlist',
    main: html`<h1>Your watchlist</h1>
${outcomeNotes(ctx, result)}
<p>${result.count} of ${result.limit} companies (${result.plan} plan). Alerts on them are on the <a href="/alerts">Alerts</a> page.</p>
${quotaLine(quota)}
${result.companies.length === 0 ? html`<p>Nothing is on it yet: add a company by its number below.</p>` : companiesTable(result.companies, signedIn.csrfToken)}
<h2 id="add-heading">Add companies</h2>
<form action="/watchlist/add" method="post" aria-labelledby="add-heading">
<input type="hidden" name="csrf" value="${signedIn.csrfToken}">
<label for="add-numbers">Company numbers</label>
<input id="add-numbers" name="company_numbers" type="text" autocomplete="off" spellcheck="false" required aria-describedby="add-hint">
<p id="add-hint" class="hint">One or more numbers of 8 letters or digits, separated by commas or spaces, for example 00445790. Each is remembered as it is now, so that alerts can say what changed.</p>
<button type="submit">Add to watchlist</button>
</form>`,
  });
}

interface Watched {
  company_number: string;
  name: string | null;
  status: string;
  accounts_next_due: string | null;
  latest_balance_sheet_date: string | null;
  added: string;
}

function companiesTable(companies: readonly Watched[], csrf: string): SafeHtml {
  return html`<div class="table-wrap" role="region" aria-labelledby="watched-caption" tabindex="0">
<table>
<caption id="watched-caption">Watched companies, in the order they were added</caption>
<thead><tr><th scope="col">Company</th><th scope="col">Number</th><th scope="col">Status</th><th scope="col">Accounts next due</th><th scope="col">Latest accounts</th><th scope="col">Added</th><th scope="col"><span class="visually-hidden">Remove</span></th></tr></thead>
<tbody>
${companies.map(
  (c) => html`<tr>
<td><a href="/company/${c.company_number}">${c.name ?? c.company_number}</a></td>
<td>${c.company_number}</td>
<td>${c.status}</td>
<td>${formatDate(c.accounts_next_due)}</td>
<td>${formatDate(c.latest_balance_sheet_date)}</td>
<td>${formatDate(c.added.slice(0, 10))}</td>
<td><form action="/watchlist/remove" method="post">
<input type="hidden" name="csrf" value="${csrf}">
<input type="hidden" name="company_numbers" value="${c.company_number}">
<button type="submit" aria-label="Remove ${c.name ?? c.company_number} from the watchlist">Remove</button>
</form></td>
</tr>
`,
)}</tbody>
</table>
</div>`;
}

/** What the last change did, from the query it redirected with; only company numbers are shown. */
function outcomeNotes(ctx: Context, list: { limit: number; plan: string }): SafeHtml | '' {
  const notes = (Object.keys(OUTCOMES) as Outcome[]).flatMap((name) => {
    const value = ctx.query[name];
    const numbers = (typeof value === 'string' ? value.split(',') : []).filter((n) => /^[A-Z0-9]{8}$/.test(n));
    const why =
      name === 'over_limit'
        ? ` (the ${list.plan} plan’s watchlist holds ${list.limit} companies; remove one to make room)`
        : '';
    return numbers.length > 0 ? [html`<li>${OUTCOMES[name]}${why}: ${numbers.join(', ')}</li>`] : [];
  });
  return notes.length === 0 ? '' : html`<div role="status"><ul>${notes}</ul></div>`;
}
