/**
 * The Compare page (/compare?company_a=…&company_b=…), reached from a company's page: the two
 * companies side by side (status, risk band, latest accounts' figures) and the difference of each
 * figure, from compare_companies. A number refused or not found is the 400 or 404 page.
 */
import type { Context } from 'koa';
import { compareCompanies } from '../../operations/compare-companies.ts';
import { formatCount, formatDate, formatPounds } from '../format.ts';
import { html } from '../html.ts';
import type { WebDeps, WebPage } from '../page.ts';
import { sendPage } from '../respond.ts';
import { runForVisitor } from '../run-signed-in.ts';
import { CHARTED_FIGURES, statusBadge } from '../company-card.ts';

export const comparePage: WebPage = {
  register(router, deps) {
    router.get('web_compare', '/compare', (ctx) => showCompare(ctx, deps));
  },
};

function param(ctx: Context, name: string): string {
  const value = ctx.query[name];
  return (Array.isArray(value) ? (value[0] ?? '') : (value ?? '')).trim();
}

async function showCompare(ctx: Context, deps: WebDeps): Promise<void> {
  const result = await runForVisitor(ctx, deps, {
    operation: compareCompanies,
    input: { company_a: param(ctx, 'company_a'), company_b: param(ctx, 'company_b') },
  });
  const [a, b] = result.companies as [(typeof result.companies)[0], (typeof result.companies)[0]];
  const show = (money: boolean, value: number | null | undefined) => (money ? formatPounds(value) : formatCount(value));
  sendPage(ctx, {
    title: `Compare ${a.company.name} and ${b.company.name}`,
    main: html`<h1>Compare two companies</h1>
<div class="table-wrap" role="region" aria-labelledby="compare-caption" tabindex="0">
<table class="compare-table">
<caption id="compare-caption">Latest accounts of each, and the difference (first − second)</caption>
<thead><tr><th scope="col">Company</th><th scope="col"><a href="/company/${a.company.company_number}">${a.company.name}</a></th><th scope="col"><a href="/company/${b.company.company_number}">${b.company.name}</a></th><th scope="col" class="number">Difference</th></tr></thead>
<tbody>
<tr><th scope="row">Number</th><td>${a.company.company_number}</td><td>${b.company.company_number}</td><td></td></tr>
<tr><th scope="row">Status</th><td>${statusBadge(a.company.status)}</td><td>${statusBadge(b.company.status)}</td><td></td></tr>
<tr><th scope="row">Risk band</th><td><span class="band band-${a.risk_band}">${a.risk_band}</span></td><td><span class="band band-${b.risk_band}">${b.risk_band}</span></td><td></td></tr>
<tr><th scope="row">Latest balance sheet date</th><td>${formatDate(a.latest?.balance_sheet_date)}</td><td>${formatDate(b.latest?.balance_sheet_date)}</td><td></td></tr>
${CHARTED_FIGURES.map((f) => {
  const d = result.differences[f.key];
  return html`<tr><th scope="row">${f.label}</th><td class="number">${show(f.money, d?.a)}</td><td class="number">${show(f.money, d?.b)}</td><td class="number">${show(f.money, d?.difference)}</td></tr>\n`;
})}</tbody>
</table>
</div>`,
  });
}
