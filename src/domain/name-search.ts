/**
 * What a name query means, shared by both search adapters so that they rank alike.
 */
import { normaliseCompanyName } from './company-name.ts';
import type { SearchDocument } from './search-document.ts';

export interface NameQuery {
  /** The normalised phrase, "" when the query has no letters or digits. */
  phrase: string;
  /** Its words, each to be matched as the prefix of some word of the name. */
  words: string[];
}

export function nameQuery(query: string): NameQuery {
  const phrase = normaliseCompanyName(query);
  return { phrase, words: phrase === '' ? [] : phrase.split(' ') };
}

/** Live statuses rank before dissolved, liquidation and the like. */
export function isActiveStatus(status: string): boolean {
  return status.trim().toLowerCase().startsWith('active');
}

/**
 * A normalised name from each of its words to its end ("tesco stores" → "tesco stores",
 * "stores"): a phrase is contained in the name at the start of a word exactly when it is the
 * prefix of one of them.
 */
export function wordStartSuffixes(normalised: string): string[] {
  const suffixes = normalised === '' ? [] : [normalised];
  for (let space = normalised.indexOf(' '); space >= 0; space = normalised.indexOf(' ', space + 1))
    suffixes.push(normalised.slice(space + 1));
  return suffixes;
}

/** What a name search returns of a company. */
export type NameSearchHit = Pick<
  SearchDocument,
  'company_number' | 'name' | 'status' | 'type' | 'post_town' | 'incorporated' | 'sic_codes'
>;

/**
 * A place in name search's ranking: the tier (0 the exact name and active, 1 the exact name, then
 * active names 2 starting with the phrase, 3 containing it, 4 matching its words; 5–7 the same
 * for other statuses), the name's length, and the company number.
 */
export type NameKey = readonly [tier: number, nameLength: number, companyNumber: string];

export interface NamePage {
  /** Every name matching the query's words, not only those returned. */
  total: number;
  hits: NameSearchHit[];
  /** The place of the last hit when more follow; null on the last page. */
  next: NameKey | null;
}
