/**
 * The Alerts page of a signed-in key: first where each watched company stands now (watch_list:
 * status, accounts overdue or not, risk band), so the page says something from the day a company
 * is added; then what changed since each was added (get_alerts), most severe first, with the
 * operation's two filters as a plain GET form and the period applied in the heading. Page views,
 * not charged to the key's quota. Not signed in: to the sign-in page.
 */
import type { Context } from 'koa';
import { ALERT_SEVERITIES } from '../../domain/alerts.ts';
import { getAlerts, watchList } from '../../operations/watchlist.ts';
import { formatDate } from '../format.ts';
import { html } from '../html.ts';
import type { SafeHtml } from '../html.ts';
import type { WebDeps, WebPage } from '../page.ts';
import { sendPage } from '../respond.ts';
import { runSignedIn } from '../run-signed-in.ts';
import { requireSignIn } from './watchlist.ts';

export const alertsPage: WebPage = {
  nav: { href: '/alerts', label: 'Alerts' },
  register(router, deps) {
    if (!deps.sessions) return;
    router.get('web_alerts', '/alerts', (ctx) => showAlerts(ctx, deps));
  },
};

/** The filter's words for each severity: the lowest wanted. */
const SEVERITY_CHOICES: Readonly<Record<(typeof ALERT_SEVERITIES)[number], string>> = {
  high: 'High only',
  medium: 'Medium and above',
  low: 'Low and above',
  info: 'All, news included',
};

/** The query's filters as the operation's arguments: one value each, blank meaning not given. */
function filtersOf(ctx: Context): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const name of ['since', 'severity']) {
    const value = ctx.query[name];
    const text = Array.isArray(value) ? value[0] : value;
    if (text !== undefined && text.trim() !== '') raw[name] = text.trim();
  }
  return raw;
}

async function showAlerts(ctx: Context, deps: WebDeps): Promise<void> {
  const signedIn = requireSignIn(ctx);
  if (!signedIn) return;
  const filters = filtersOf(ctx);
  const result = await runSignedIn(deps, signedIn, { operation: getAlerts, input: filters });
  const list = await runSignedIn(deps, signedIn, { operation: watchList, input: {} });
  const firstAdded = list.companies.map((c) => c.added.slice(0, 10)).sort()[0];
  sendPage(ctx, {
    title: 'Alerts',
    main: html`<h1>Alerts on your watchlist</h1>
${
  list.companies.length === 0
    ? html`<p>Nothing is on your <a href="/watchlist">watchlist</a> yet. Add companies there, or from a company’s page.</p>`
    : standingTable(list.companies)
}
<h2 id="changes-heading">Changes since ${formatDate(result.since)}</h2>
<p>What changed in the ${result.watched.length} compan${result.watched.length === 1 ? 'y' : 'ies'} on your <a href="/watchlist">watchlist</a>, most severe first. Changes are noticed from the day each company was added${firstAdded ? ` (the first on ${formatDate(firstAdded)})` : ''}; where they stood before that is in the table above and on each company’s page.</p>
<form action="/alerts" method="get" class="filters">
<label for="alerts-severity">Severity</label>
<select id="alerts-severity" name="severity">
${ALERT_SEVERITIES.map((level) => html`<option value="${level}"${(filters.severity ?? 'info') === level ? html` selected` : ''}>${SEVERITY_CHOICES[level]}</option>`)}
</select>
<label for="alerts-since">Detected on or after</label>
<input id="alerts-since" name="since" type="date" value="${filters.since ?? ''}">
<button type="submit">Show</button>
</form>
${result.alerts.length === 0 ? html`<p>No changes since ${formatDate(result.since)}.</p>` : alertsTable(result.alerts)}`,
  });
}

interface Standing {
  company_number: string;
  name: string | null;
  status: string;
  accounts_next_due: string | null;
  /** Null, as the band, when the company is no longer on the register. */
  accounts_overdue: boolean | null;
  risk_band: string | null;
}

const BAND_WORDS: Readonly<Record<string, string>> = { low: 'Low', medium: 'Medium', high: 'High', unknown: 'Unknown' };

/** Where each watched company stands today, in the order they were added. */
function standingTable(companies: readonly Standing[]): SafeHtml {
  return html`<h2 id="standing-heading">Where they stand now</h2>
<div class="table-wrap" role="region" aria-labelledby="standing-caption" tabindex="0">
<table class="standing-table">
<caption id="standing-caption">Each watched company today: its status, its accounts and its risk band</caption>
<thead><tr><th scope="col">Company</th><th scope="col">Status</th><th scope="col">Accounts</th><th scope="col">Risk band</th></tr></thead>
<tbody>
${companies.map(
  (c) => html`<tr data-company="${c.company_number}">
<td><a href="/company/${c.company_number}">${c.name ?? c.company_number}</a> <span class="result-facts">${c.company_number}</span></td>
<td>${c.status}</td>
<td>${accountsCell(c)}</td>
<td>${c.risk_band === null ? 'Not on the register now' : html`<span class="band band-${c.risk_band}">${BAND_WORDS[c.risk_band] ?? c.risk_band}</span>`}</td>
</tr>
`,
)}</tbody>
</table>
</div>`;
}

function accountsCell(c: Standing): SafeHtml | string {
  if (c.accounts_overdue === null) return 'Not on the register now';
  return c.accounts_overdue
    ? html`<strong class="severity-high">Overdue</strong> (were due ${formatDate(c.accounts_next_due)})`
    : `Next due ${formatDate(c.accounts_next_due)}`;
}

interface Alert {
  company_number: string;
  name: string;
  kind: string;
  severity: string;
  message: string;
  detected: string;
}

function alertsTable(alerts: readonly Alert[]): SafeHtml {
  return html`<div class="table-wrap" role="region" aria-labelledby="alerts-caption" tabindex="0">
<table class="alerts-table">
<caption id="alerts-caption">${alerts.length} alert${alerts.length === 1 ? '' : 's'}</caption>
<thead><tr><th scope="col">Severity</th><th scope="col">Company</th><th scope="col">Alert</th><th scope="col">Detected</th></tr></thead>
<tbody>
${alerts.map(
  (a) => html`<tr>
<td><span class="severity severity-${a.severity}">${a.severity}</span></td>
<td><a href="/company/${a.company_number}">${a.name}</a> <span class="result-facts">${a.company_number}</span></td>
<td>${a.message}</td>
<td>${formatDate(a.detected)}</td>
</tr>
`,
)}</tbody>
</table>
</div>`;
}
