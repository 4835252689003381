/**
 * The Company page (/company/{number}): the register record, the risk band with the signals it
 * comes from, a chart per figure over every filed year (server-drawn SVG) and a table of the same
 * numbers, who controls the company and the chain above it, a way to compare it, and where the
 * figures came from (each year's source filing by name). Two operations: lookup_company and get_ownership
 * (both ways: the chain above it and the companies below it, drawn as one tree of the group).
 */
import type { Context } from 'koa';
import { monthName } from '../../domain/calendar-date.ts';
import { formatMoney } from '../../domain/money.ts';
import type { ControlledProfile } from '../../operations/company-profile.ts';
import { getOwnership } from '../../operations/get-ownership.ts';
import type { OwnershipAnswer } from '../../operations/get-ownership.ts';
import { lookupCompany } from '../../operations/lookup-company.ts';
import { verificationWords } from '../../domain/officers.ts';
import { figureChart } from '../figure-chart.ts';
import { formatCount, formatDate, formatPounds } from '../format.ts';
import { html } from '../html.ts';
import type { HtmlValue, SafeHtml } from '../html.ts';
import type { WebDeps, WebPage } from '../page.ts';
import { sendPage } from '../respond.ts';
import { runForVisitor } from '../run-signed-in.ts';
import { signedInOf } from '../visitor.ts';
import { personHref } from './people.ts';
import { statusBadge } from './search.ts';

export const companyPage: WebPage = {
  register(router, deps) {
    router.get('web_company', '/company/:number', (ctx) => showCompany(ctx, deps, ctx.params.number ?? ''));
  },
};

/** The figures charted and tabled, in reading order. */
export const CHARTED_FIGURES = [
  { key: 'net_assets', label: 'Net assets', money: true },
  { key: 'cash', label: 'Cash', money: true },
  { key: 'turnover', label: 'Turnover', money: true },
  { key: 'profit', label: 'Profit (loss)', money: true },
  { key: 'employees', label: 'Employees', money: false },
] as const;

/** Where a reader finds the company's filings themselves (names, documents). */
function filingHistoryUrl(number: string): string {
  return `https://find-and-update.company-information.service.gov.uk/company/${encodeURIComponent(number)}/filing-history`;
}

async function showCompany(ctx: Context, deps: WebDeps, number: string): Promise<void> {
  const [profile, ownership] = await Promise.all([
    runForVisitor(ctx, deps, { operation: lookupCompany, input: { company_number: number } }),
    runForVisitor(ctx, deps, { operation: getOwnership, input: { company_number: number, direction: 'both' } }),
  ]);
  const { company } = profile;
  sendPage(ctx, {
    title: `${company.name} (${company.company_number})`,
    main: html`<h1>${company.name}</h1>
<p class="lead">Company number ${company.company_number} · ${statusBadge(company.status)} · ${company.type}</p>
${registerSection(profile)}
${riskSection(profile)}
${figuresSection(profile)}
${controlSection(profile, ownership)}
${watchSection(ctx, deps, company.company_number)}
${compareSection(company.company_number)}`,
  });
}

function registerSection({ company }: ControlledProfile): SafeHtml {
  const a = company.address;
  const address = [
    a.care_of && `c/o ${a.care_of}`,
    a.po_box,
    a.line_1,
    a.line_2,
    a.post_town,
    a.county,
    a.postcode,
    a.country,
  ]
    .filter(Boolean)
    .join(', ');
  const rows: [string, HtmlValue][] = [
    ['Status', statusBadge(company.status)],
    ['Type', company.type],
    ['Incorporated', formatDate(company.incorporated)],
    ...(company.dissolved ? ([['Dissolved', formatDate(company.dissolved)]] as [string, HtmlValue][]) : []),
    ['Registered office', address || '—'],
    ['Nature of business (SIC)', company.sic_codes.length > 0 ? company.sic_codes.join('; ') : '—'],
    [
      'Accounts',
      html`${company.accounts.category ? `${company.accounts.category}; ` : ''}last made up to ${formatDate(company.accounts.last_made_up_to)}, next due ${formatDate(company.accounts.next_due)}${company.accounts.overdue ? html` <strong>(overdue)</strong>` : ''}`,
    ],
    [
      'Confirmation statement',
      `last made up to ${formatDate(company.confirmation_statement.last_made_up_to)}, next due ${formatDate(company.confirmation_statement.next_due)}`,
    ],
    ['Charges', `${company.charges_outstanding} outstanding of ${company.charges_total}`],
    ...(company.previous_names.length > 0
      ? ([
          [
            'Previous names',
            company.previous_names.map(
              (p, i) => html`${i > 0 ? '; ' : ''}${p.name}${p.changed ? ` (until ${formatDate(p.changed)})` : ''}`,
            ),
          ],
        ] as [string, HtmlValue][])
      : []),
  ];
  return html`<section aria-labelledby="register-heading">
<h2 id="register-heading">Register record</h2>
<dl class="facts">
${rows.map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>\n`)}</dl>
</section>`;
}

const BAND_WORDS: Readonly<Record<string, string>> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  unknown: 'Unknown',
};

function riskSection(profile: ControlledProfile): SafeHtml {
  const { signals, trajectory } = profile;
  return html`<section aria-labelledby="risk-heading">
<h2 id="risk-heading">Risk band and signals</h2>
<p>Risk band: <span class="band band-${profile.risk_band}">${BAND_WORDS[profile.risk_band] ?? profile.risk_band}</span> — read from the signals below; not a credit rating.</p>
${
  signals.length === 0
    ? html`<p>No warning signals.</p>`
    : html`<ul class="signals">
${signals.map((s) => html`<li><span class="severity severity-${s.severity}">${s.severity}</span> ${s.message}</li>\n`)}</ul>`
}
${trajectoryExplained(trajectory)}
</section>`;
}

const TREND_FIGURES = [
  ['net_assets', 'Net assets', true],
  ['cash', 'Cash', true],
  ['turnover', 'Turnover', true],
  ['employees', 'Employees', false],
  ['profit', 'Profit', true],
] as const;

/**
 * The trajectory with the figures it is made of: each figure's first and last filed values, its
 * change and direction, and the count that decides the overall direction (more growing than
 * declining: growing), so that "declining" is never a bare word beside a figure that rose.
 */
function trajectoryExplained(trajectory: ControlledProfile['trajectory']): SafeHtml {
  const periods = `${trajectory.periods} period${trajectory.periods === 1 ? '' : 's'}`;
  const count = (direction: string) => TREND_FIGURES.filter(([key]) => trajectory[key].direction === direction).length;
  const [growing, declining, stable] = [count('growing'), count('declining'), count('stable')];
  return html`<p>Trajectory: ${trajectory.direction.replace('_', ' ')} over ${periods}${
    trajectory.direction === 'insufficient_data'
      ? ': no figure was filed in two periods.'
      : html` — ${growing} figure${growing === 1 ? '' : 's'} growing, ${declining} declining, ${stable} stable (10% or more either way, first filed value to last); the overall direction is the side with more.`
  }</p>
<ul class="trajectory-figures">
${TREND_FIGURES.map(([key, label, money]) => {
  const trend = trajectory[key];
  const value = (n: number | null) => (money ? formatPounds(n) : formatCount(n));
  if (trend.direction === 'insufficient_data')
    return html`<li>${label}: not filed in two periods</li>
`;
  const change = trend.change_pct === null ? '' : ` (${trend.change_pct > 0 ? '+' : ''}${trend.change_pct}%)`;
  return html`<li>${label}: ${value(trend.first)} to ${value(trend.last)}${change}, ${trend.direction}</li>
`;
})}</ul>`;
}

function figuresSection(profile: ControlledProfile): SafeHtml {
  // Oldest first, as a chart reads.
  const years = [...profile.accounts].reverse();
  if (years.length === 0)
    return html`<section aria-labelledby="figures-heading">
<h2 id="figures-heading">Figures over the years</h2>
<p>No machine-readable accounts are on file for this company.</p>
</section>`;
  const charts = CHARTED_FIGURES.map((figure) =>
    figureChart({
      figure: figure.key,
      label: figure.label,
      points: years.flatMap((entry) => {
        const value = entry.figures[figure.key];
        return value === null || value === undefined
          ? []
          : [{ date: entry.balance_sheet_date, value, prior: entry.from_prior_period }];
      }),
      format: figure.money ? (value) => formatMoney(value) : (value) => formatCount(value),
      formatExact: figure.money ? (value) => formatPounds(value) : (value) => formatCount(value),
      formatDate,
    }),
  );
  return html`<section aria-labelledby="figures-heading">
<h2 id="figures-heading">Figures over the years</h2>
<p class="legend">One point per balance sheet date, with its value beside it; the scale starts at zero (a dashed line when a value falls below it). A hollow point is a year known only from the prior-year column of a later filing. Amounts in pounds as filed; each chart’s values and yearly changes are also in a table under it.</p>
<div class="charts">
${charts}</div>
<div class="table-wrap" role="region" aria-labelledby="figures-caption" tabindex="0">
<table class="figures-table">
<caption id="figures-caption">The same figures, by balance sheet date</caption>
<thead><tr><th scope="col">Balance sheet date</th>${CHARTED_FIGURES.map((f) => html`<th scope="col" class="number">${f.label}</th>`)}<th scope="col">Source</th></tr></thead>
<tbody>
${years.map(
  (entry) =>
    html`<tr data-date="${entry.balance_sheet_date}"><th scope="row">${formatDate(entry.balance_sheet_date)}</th>${CHARTED_FIGURES.map(
      (f) =>
        html`<td class="number">${f.money ? formatPounds(entry.figures[f.key]) : formatCount(entry.figures[f.key])}</td>`,
    )}<td>${sourceWords(entry)}</td></tr>\n`,
)}</tbody>
</table>
</div>
${sourceFilings(years)}
<p>The filings themselves, as documents, are in the company’s <a href="${filingHistoryUrl(profile.company.company_number)}">filing history at Companies House</a>.</p>
</section>`;
}

/**
 * The file each year's figures were read from, by the names Companies House gives them in its
 * accounts bulk data (the daily zip and the document in it). Names, not links: a bulk file is
 * downloadable only while Companies House keeps it, and the document's name does not give its
 * address in the filing history.
 */
function sourceFilings(years: readonly ControlledProfile['accounts'][number][]): SafeHtml {
  return html`<h3 id="sources-heading">Source filings</h3>
<ul class="source-filings" aria-labelledby="sources-heading">
${years.map(
  (entry) =>
    html`<li data-date="${entry.balance_sheet_date}">${formatDate(entry.balance_sheet_date)}: <code>${entry.source.file}</code>${entry.source.zip ? html` in <code>${entry.source.zip}</code>` : ' (loaded on its own)'}${entry.from_prior_period ? ', its prior-year column' : ''}</li>
`,
)}</ul>`;
}

/** Where a year's figures came from, in words. */
function sourceWords(entry: ControlledProfile['accounts'][number]): string {
  if (entry.from_prior_period) return 'Prior-year column of a later filing';
  return `Accounts published ${formatDate(entry.published)} (${entry.standard})`;
}

function controlSection(profile: ControlledProfile, ownership: OwnershipAnswer): SafeHtml {
  const current = profile.controllers.filter((c) => !c.ceased_on);
  return html`<section aria-labelledby="control-heading" class="ownership">
<h2 id="control-heading">Who controls it</h2>
${
  current.length === 0 && profile.psc_statements.length === 0
    ? html`<p>No persons with significant control are on file for this company.</p>`
    : html`<h3>Persons with significant control</h3>
<ul class="controllers">
${current.map((c) => html`<li>${controllerName(c)} — ${c.natures_of_control.map((n) => n.words).join('; ') || 'nature of control not stated'}${c.notified_on ? `, since ${formatDate(c.notified_on)}` : ''}</li>\n`)}${profile.psc_statements.map((s) => html`<li>Statement: ${s.words}</li>\n`)}</ul>`
}
${groupStructure(ownership)}
</section>`;
}

function controllerName(c: ControlledProfile['controllers'][number]): SafeHtml {
  const details = [
    c.kind_class === 'individual' ? 'individual' : c.kind_class.replace('_', ' '),
    c.nationality,
    c.country_of_residence && `lives in ${c.country_of_residence}`,
    c.birth_year !== null &&
      `born ${c.birth_month !== null ? `${monthName(c.birth_month) ?? ''} ` : ''}${c.birth_year}`,
    c.country,
    c.identity_verification &&
      verificationWords(c.identity_verification) &&
      `identity ${verificationWords(c.identity_verification)}`,
  ].filter(Boolean);
  // A company on the register links to its page; anyone else with a name, to theirs.
  const name = c.company_number
    ? html`<a href="/company/${c.company_number}">${c.company_name ?? c.name ?? c.company_number}</a>`
    : c.name
      ? html`<a href="${personHref({ name: c.name, birth_year: c.birth_year, birth_month: c.birth_month })}">${c.name}</a>`
      : html`<strong>(withheld)</strong>`;
  return html`${name} (${details.join('; ')})`;
}

/**
 * The group around the company as one tree, drawn as nested lists (a diagram that needs no script
 * and reads in order with a screen reader): the company at its root, above it who controls it and
 * who controls them, below it the companies it controls and theirs. A node already shown is named
 * again but not expanded (a cycle, or a shared parent).
 */
function groupStructure(answer: OwnershipAnswer): SafeHtml {
  const root = answer.nodes[0];
  const above = answer.edges.some((edge) => edge.to === root?.id);
  const below = answer.edges.some((edge) => edge.from === root?.id);
  if (!root || (!above && !below)) return html``;
  const byId = new Map(answer.nodes.map((node) => [node.id, node]));
  const branch = (id: string, way: 'up' | 'down', depth: number, shown: Set<string>): SafeHtml => {
    shown.add(id);
    const edges = answer.edges.filter((edge) => (way === 'up' ? edge.to === id : edge.from === id));
    if (edges.length === 0 || depth > answer.depth) return html``;
    return html`<ul>
${edges.map((edge) => {
  const next = way === 'up' ? edge.from : edge.to;
  const node = byId.get(next);
  const again = shown.has(next);
  return html`<li><span class="node">${node ? nodeLabel(node) : next}</span> <span class="control">${edge.natures.map((n) => n.words).join('; ')}</span>${again ? ' (shown above)' : branch(next, way, depth + 1, shown)}</li>\n`;
})}</ul>`;
  };
  const flags = Object.entries(answer.flags)
    .filter(([, on]) => on)
    .map(([flag]) => flag.replaceAll('_', ' '));
  return html`<h3 id="group-heading">Group structure</h3>
<p>Who controls ${answer.name} and who controls them, and the companies it controls and theirs, from the PSC register (up to ${answer.depth} levels each way).</p>
<figure class="group-tree" aria-labelledby="group-heading">
<ul>
<li><span class="node node-root">${answer.name} (this company)</span>
<ul>
${above ? html`<li class="way"><span class="way-label">Controlled by</span>${branch(root.id, 'up', 1, new Set())}</li>` : ''}
${below ? html`<li class="way"><span class="way-label">Controls</span>${branch(root.id, 'down', 1, new Set())}</li>` : ''}
</ul>
</li>
</ul>
</figure>
${flags.length > 0 ? html`<p>Flags: ${flags.join(', ')}.</p>` : ''}${answer.truncated ? html`<p>The group is larger than shown.</p>` : ''}`;
}

function nodeLabel(node: OwnershipAnswer['nodes'][number]): SafeHtml {
  if (node.kind === 'company' && node.company_number)
    return html`<a href="/company/${node.company_number}">${node.name ?? node.company_number}</a> (company ${node.company_number}${node.status ? `, ${node.status}` : ''})`;
  if (node.kind === 'statement' || node.kind === 'exemption' || node.kind === 'super_secure')
    return html`<em>${node.words ?? node.statement ?? 'statement'}</em>`;
  const details = [node.kind.replaceAll('_', ' '), node.country, node.nationality].filter(Boolean);
  const name = node.name
    ? html`<a href="${personHref({ name: node.name, birth_year: node.birth_year, birth_month: node.birth_month })}">${node.name}</a>`
    : html`<strong>${node.words ?? '(withheld)'}</strong>`;
  return html`${name} (${details.join('; ')})`;
}

/**
 * Watch it: for a signed-in reader a form posting to the watchlist (with the session's CSRF
 * token, as every form does), which answers on the Watchlist page; for anyone else the way to
 * sign in. Nothing where no one can sign in.
 */
function watchSection(ctx: Context, deps: WebDeps, number: string): SafeHtml | '' {
  if (!deps.sessions) return '';
  const signedIn = signedInOf(ctx);
  return html`<section aria-labelledby="watch-heading">
<h2 id="watch-heading">Watch</h2>
${
  signedIn
    ? html`<form class="watch-form" action="/watchlist/add" method="post">
<input type="hidden" name="csrf" value="${signedIn.csrfToken}">
<input type="hidden" name="company_numbers" value="${number}">
<button type="submit">Add to watchlist</button>
</form>
<p class="hint">Its alerts, and where it stands now, are then on the <a href="/alerts">Alerts</a> page.</p>`
    : html`<p><a href="/sign-in">Sign in</a> with an API key to add it to your watchlist and see its alerts.</p>`
}
</section>`;
}

function compareSection(number: string): SafeHtml {
  return html`<section aria-labelledby="compare-heading">
<h2 id="compare-heading">Compare</h2>
<form class="compare-form" action="/compare" method="get">
<input type="hidden" name="company_a" value="${number}">
<label for="compare-with">Compare with company number</label>
<div class="search-box">
<input id="compare-with" name="company_b" type="text" inputmode="text" maxlength="8" autocomplete="off" required aria-describedby="compare-hint">
<button type="submit">Compare</button>
</div>
<p id="compare-hint" class="hint">Eight letters or digits, e.g. 00445790. Find a number with the <a href="/">search</a>.</p>
</form>
</section>`;
}
