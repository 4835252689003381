/**
 * The company card as an MCP App view: the script of the ui:// document (company-card-app.ts),
 * bundled with ext-apps' App, that runs in the host's sandboxed iframe. It draws the card with the
 * Company page's own renderer (company-card.ts) from the lookup_company result the host sends it,
 * and asks the network for nothing: the data comes in the result, the rest is in the document.
 */
import { App } from '@modelcontextprotocol/ext-apps/app-with-deps';
import type { ControlledProfile } from '../operations/company-profile.ts';
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

/** What a result shows: the card, or the words of a refusal (not found, quota) as the tool gave them. */
function shown(result: { isError?: boolean; content?: unknown[]; structuredContent?: unknown }): SafeHtml {
  const profile = result.structuredContent as ControlledProfile | undefined;
  if (!result.isError && profile?.company && Array.isArray(profile.accounts)) return companyCard(profile);
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
