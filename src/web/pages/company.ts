/**
 * The Company page (/company/{number}): the register record, the risk band with the signals it
 * comes from, a chart per figure over every filed year (server-drawn SVG) and a table of the same
 * numbers, who controls the company and the chain above it, its officers (each linked to their
 * person page), a way to compare it, and where the figures came from (each year's source filing by
 * name). Three operations: lookup_company, get_ownership (both ways: the chain above it and the
 * companies below it, drawn as one tree of the group) and get_officers (resigned ones too).
 */
import type { Context } from 'koa';
import { monthName } from '../../domain/calendar-date.ts';
import type { ControlledProfile } from '../../operations/company-profile.ts';
import { getOfficers } from '../../operations/get-officers.ts';
import { getOwnership } from '../../operations/get-ownership.ts';
import type { OwnershipAnswer } from '../../operations/get-ownership.ts';
import type { OfficersAnswer } from '../../operations/get-officers.ts';
import { invalidInput } from '../../errors.ts';
import { lookupCompany, PDF_ESTIMATE_PENDING } from '../../operations/lookup-company.ts';
import { cardHeading, figureCharts, riskSection, statusBadge } from '../company-card.ts';
import { formatDate, roleWords } from '../format.ts';
import { verificationWords } from '../../domain/officers.ts';
import { html } from '../html.ts';
import type { HtmlValue, SafeHtml } from '../html.ts';
import type { WebDeps, WebPage } from '../page.ts';
import { sendPage } from '../respond.ts';
import { runForVisitor } from '../run-signed-in.ts';
import { signedInOf } from '../visitor.ts';
import { personHref } from './people.ts';

export const companyPage: WebPage = {
  register(router, deps) {
    router.get('web_company', '/company/:number', (ctx) => showCompany(ctx, deps, ctx.params.number ?? ''));
  },
};

/** Where a reader finds the company's filings themselves (names, documents). */
function filingHistoryUrl(number: string): string {
  return `https://find-and-update.company-information.service.gov.uk/company/${encodeURIComponent(number)}/filing-history`;
}

/** `?include_estimates=true`: the risk band and trajectory read the years estimated from scanned PDFs. */
function includeEstimatesOf(ctx: Context): boolean {
  const asked = ctx.query.include_estimates;
  if (asked === undefined || asked === 'false') return false;
  if (asked === 'true') return true;
  throw invalidInput(
    `Invalid "include_estimates": true or false, not ${JSON.stringify(Array.isArray(asked) ? asked.join(',') : asked)}.`,
  );
}

async function showCompany(ctx: Context, deps: WebDeps, number: string): Promise<void> {
  const includeEstimates = includeEstimatesOf(ctx);
  const [profile, ownership, officers] = await Promise.all([
    runForVisitor(ctx, deps, {
      operation: lookupCompany,
      input: { company_number: number, ...(includeEstimates ? { include_estimates: true } : {}) },
    }),
    runForVisitor(ctx, deps, { operation: getOwnership, input: { company_number: number, direction: 'both' } }),
    runForVisitor(ctx, deps, { operation: getOfficers, input: { company_number: number, include_resigned: true } }),
  ]);
  const { company } = profile;
  sendPage(ctx, {
    title: `${company.name} (${company.company_number})`,
    main: html`${cardHeading(profile)}
${registerSection(profile)}
${riskSection(profile)}
${figuresSection(profile)}
${controlSection(profile, ownership)}
${officersSection(officers)}
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

function figuresSection(profile: ControlledProfile & { pdf_estimate_pending?: true }): SafeHtml {
  // Oldest first, as a chart reads.
  const years = [...profile.accounts].reverse();
  if (years.length === 0)
    return html`<section aria-labelledby="figures-heading">
<h2 id="figures-heading">Figures over the years</h2>
<p>${profile.pdf_estimate_pending ? PDF_ESTIMATE_PENDING : 'No machine-readable accounts are on file for this company.'}</p>
</section>`;
  return html`<section aria-labelledby="figures-heading">
<h2 id="figures-heading">Figures over the years</h2>
${estimatesNote(profile)}
${figureCharts(years)}
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
${years.map((entry) =>
  entry.source.kind === 'pdf_ocr'
    ? html`<li data-date="${entry.balance_sheet_date}">${formatDate(entry.balance_sheet_date)}: the scanned PDF with Document API id <code>${entry.document_id ?? entry.source.file}</code>, estimated from a scanned PDF by OCR</li>
`
    : html`<li data-date="${entry.balance_sheet_date}">${formatDate(entry.balance_sheet_date)}: <code>${entry.source.file}</code>${entry.source.zip ? html` in <code>${entry.source.zip}</code>` : ' (loaded on its own)'}${entry.from_prior_period ? ', its prior-year column' : ''}</li>
`,
)}</ul>`;
}

/**
 * Years estimated from scanned PDFs, said above the charts and the table that show them: which
 * years, and whether the risk band and trajectory read them.
 */
function estimatesNote(profile: ControlledProfile): SafeHtml | '' {
  const estimated = profile.accounts.filter((entry) => entry.source.kind === 'pdf_ocr');
  if (estimated.length === 0) return '';
  return html`<p class="estimates-note"><strong>Estimated from a scanned PDF:</strong> ${estimated.map((entry, i) => html`${i > 0 ? ', ' : ''}${formatDate(entry.balance_sheet_date)}`)}. The company filed ${estimated.length === 1 ? 'that year' : 'those years'} on paper or as a scan, so the figures were read by OCR and may be wrong; the table gives the confidence of each. ${
    profile.estimates_used
      ? html`The risk band and trajectory above read them. <a href="/company/${encodeURIComponent(profile.company.company_number)}">Leave the estimates out</a>.`
      : html`The risk band and trajectory above do not read them. <a href="/company/${encodeURIComponent(profile.company.company_number)}?include_estimates=true">Read them in the risk band and trajectory</a>.`
  }</p>`;
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

type Officer = OfficersAnswer['officers'][number];

/**
 * The company's officers: the current ones in a table (each name a link to the person's page,
 * where their other appointments and any control of companies are), the resigned ones folded
 * below it in a <details> that opens without script.
 */
function officersSection(answer: OfficersAnswer): SafeHtml {
  const current = answer.officers.filter((o) => o.resigned_on === null);
  const resigned = answer.officers.filter((o) => o.resigned_on !== null);
  return html`<section aria-labelledby="officers-heading">
<h2 id="officers-heading">Officers</h2>
${
  current.length === 0
    ? html`<p>No current officers are held for this company.</p>`
    : html`<p>${current.length} current officer${current.length === 1 ? '' : 's'}, newest appointed first.</p>
${officerTable('officers-current', 'Current officers', current, false)}`
}
${
  resigned.length === 0
    ? ''
    : html`<details class="resigned-officers">
<summary>${resigned.length} resigned officer${resigned.length === 1 ? '' : 's'}</summary>
${officerTable('officers-resigned', 'Resigned officers', resigned, true)}
</details>`
}
</section>`;
}

function officerTable(id: string, caption: string, officers: readonly Officer[], resigned: boolean): SafeHtml {
  return html`<div class="table-wrap" role="region" aria-labelledby="${id}-caption" tabindex="0">
<table class="officers" id="${id}">
<caption id="${id}-caption">${caption}</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Role</th><th scope="col">Appointed</th>${resigned ? html`<th scope="col">Resigned</th>` : ''}<th scope="col">Nationality</th><th scope="col">Occupation</th><th scope="col">Country of residence</th><th scope="col">Born</th></tr></thead>
<tbody>
${officers.map(
  (o) => html`<tr>
<th scope="row"><a href="${personHref({ name: o.name, birth_year: o.birth_year, birth_month: o.birth_month })}">${o.name}</a>${o.disqualified_until ? html` <strong class="flag">disqualified until ${formatDate(o.disqualified_until)}</strong>` : ''}${o.other_appointments > 0 ? html`<span class="hint"> · ${o.other_appointments} other appointment${o.other_appointments === 1 ? '' : 's'}</span>` : ''}</th>
<td>${roleWords(o.role)}</td>
<td>${formatDate(o.appointed_on)}</td>
${resigned ? html`<td>${formatDate(o.resigned_on)}</td>` : ''}<td>${o.nationality ?? '—'}</td>
<td>${o.occupation ?? '—'}</td>
<td>${o.country_of_residence ?? '—'}</td>
<td>${o.birth_year === null ? '—' : `${o.birth_month !== null ? `${monthName(o.birth_month) ?? ''} ` : ''}${o.birth_year}`}</td>
</tr>
`,
)}</tbody>
</table>
</div>`;
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
