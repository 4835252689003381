/**
 * The Alerts page of a signed-in key: what changed in its watched companies since each was added
 * (get_alerts; a page view, not charged to the key's quota), most severe first, with the operation's two filters as a
 * plain GET form. Not signed in: to the sign-in page.
 */
import type { Context } from 'koa';
import { ALERT_SEVERITIES } from '../../domain/alerts.ts';
import { getAlerts } from '../../operations/watchlist.ts';
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
  sendPage(ctx, {
    title: 'Alerts',
    main: html`<h1>Alerts on your watchlist</h1>
<p>What changed in the ${result.watched.length} compan${result.watched.length === 1 ? 'y' : 'ies'} on your <a href="/watchlist">watchlist</a> since ${formatDate(result.since)}, most severe first.</p>
<form action="/alerts" method="get" class="filters">
<label for="alerts-severity">Severity</label>
<select id="alerts-severity" name="severity">
${ALERT_SEVERITIES.map((level) => html`<option value="${level}"${(filters.severity ?? 'info') === level ? html` selected` : ''}>${SEVERITY_CHOICES[level]}</option>`)}
</select>
<label for="alerts-since">Detected on or after</label>
<input id="alerts-since" name="since" type="date" value="${filters.since ?? ''}">
<button type="submit">Show</button>
</form>
${result.alerts.length === 0 ? html`<p>No changes${filters.since ? html` since ${formatDate(filters.since)}` : ''}.</p>` : alertsTable(result.alerts)}`,
  });
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
<table>
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
