/**
 * The industry picker of the lead lists: SIC codes by a word of their name. Without JavaScript
 * the `sic` field offers the known industries as a <datalist> (code and name; browsers match the
 * typed text against both), and a word typed instead of a code is looked up when the form is
 * submitted: one industry matching it is used, several are offered as links to choose from.
 * Results show each code with its name, as the register spells it.
 */
import { KNOWN_SIC_CODES } from '../synthetic/sic-codes.ts';
import type { SafeHtml } from './html.ts';
import { html } from './html.ts';

export interface Industry {
  code: string;
  name: string;
}

/** "62020 - Information technology consultancy activities" → its code and its name. */
function industryOf(sic: string): Industry {
  const [, code = sic, name = ''] = /^\s*(\d{4,5})\s*-?\s*(.*)$/.exec(sic) ?? [];
  return { code, name: name.trim() };
}

const INDUSTRIES: readonly Industry[] = KNOWN_SIC_CODES.map(industryOf);

/** A SIC code as results show it: "62020 Information technology consultancy activities". */
export function sicText(sic: string): string {
  const { code, name } = industryOf(sic);
  return name === '' ? code : `${code} ${name}`;
}

/** The name of a code the picker knows ("62020"), or null. */
export function industryName(code: string): string | null {
  return INDUSTRIES.find((industry) => industry.code === code)?.name ?? null;
}

/**
 * The industries whose name holds every word of `keyword` (case ignored, each word a prefix of
 * a word of the name: "soft" finds software), in code order.
 */
export function industriesMatching(keyword: string): Industry[] {
  const words = keyword.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  if (words.length === 0) return [];
  return INDUSTRIES.filter((industry) => {
    const nameWords = industry.name.toLowerCase().match(/[a-z0-9]+/g) ?? [];
    return words.every((word) => nameWords.some((nameWord) => nameWord.startsWith(word)));
  });
}

/** The <datalist> of every known industry, for the `sic` field's `list`. */
export function industryList(id: string): SafeHtml {
  return html`<datalist id="${id}">
    ${INDUSTRIES.map((industry) => html`<option value="${industry.code}">${industry.code} ${industry.name}</option>`)}
  </datalist>`;
}
