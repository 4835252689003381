/**
 * The company card as an MCP App view: the script of the ui:// document (company-card-app.ts),
 * bundled with ext-apps' App, that runs in the host's sandboxed iframe. It draws the card with the
 * Company page's own renderer (company-card.ts) from the lookup result the host sends it: for
 * lookup_company one card with its charts; for lookup_companies a card per company found, without
 * charts (that answer leaves the year-by-year accounts out), and the numbers not found. It asks
 * the network for nothing: the data comes in the result, the rest is in the document.
 */
import { App } from '@modelcontextprotocol/ext-apps/app-with-deps';
import type { ControlledProfile } from '../operations/company-profile.ts';
import type { CompanyProfiles } from '../operations/lookup-companies.ts';
import { cardHeading, figureCharts, latestFigures, riskSection } from './company-card.ts';
import { html } from './html.ts';
import type { SafeHtml } from './html.ts';

/** The little of the DOM this script touches (the project's TypeScript has no DOM library). */
interface Element {
  innerHTML: string;
}
const card = (
  globalThis as unknown as { document: { getElementById(id: string): Element | null } }
).document.getElementById('card');

/** The card of one company: its name and status, latest figures, risk band and signals, charts. */
function companyCard(profile: ControlledProfile): SafeHtml {
  // Oldest first, as a chart reads.
  const years = [...profile.accounts].reverse();
  return html`${cardHeading(profile)}
<section aria-labelledby="latest-heading">
<h2 id="latest-heading">Key figures</h2>
${latestFigures(profile)}
</section>
${riskSection(profile)}
<section aria-labelledby="figures-heading">
<h2 id="figures-heading">Figures over the years</h2>
${years.length > 0 ? figureCharts(years) : html`<p>No machine-readable accounts are on file for this company.</p>`}
</section>`;
}

/** A card per company found, numbered for their ids, then the numbers not on the register. */
function companyCards({ results, not_found: notFound }: CompanyProfiles): SafeHtml {
  const asked = results.length + notFound.length;
  return html`<h1>${results.length} of ${asked} companies found</h1>
${results.map((profile, i) => {
  const place = { level: 2, ids: `c${i}-` } as const;
  return html`<article aria-labelledby="${place.ids}name">
${cardHeading(profile, place)}
${latestFigures(profile)}
${riskSection(profile, place)}
</article>
`;
})}${notFound.length > 0 ? html`<p>Not on the register: ${notFound.join(', ')}.</p>` : ''}`;
}

/** What a result shows: the cards, or the words of a refusal (not found, quota) as the tool gave them. */
function shown(result: { isError?: boolean; content?: unknown[]; structuredContent?: unknown }): SafeHtml {
  const answer = result.structuredContent as Partial<ControlledProfile & CompanyProfiles> | undefined;
  if (!result.isError && answer?.company && Array.isArray(answer.accounts))
    return companyCard(answer as ControlledProfile);
  if (!result.isError && Array.isArray(answer?.results) && Array.isArray(answer.not_found))
    return companyCards(answer as CompanyProfiles);
  const words = (result.content ?? [])
    .map((block) => (block as { type?: string; text?: string }).text ?? '')
    .join('\n')
    .trim();
  return html`<h1>Company card</h1>
<p role="alert">${words || 'The lookup gave no company to show.'}</p>`;
}

const app = new App({ name: 'ukcd company card', version: '1.0.0' });
app.ontoolresult = (result) => {
  if (card) card.innerHTML = shown(result).text;
};
await app.connect();
