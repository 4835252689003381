/**
 * What a name query means, shared by both search adapters so that they rank alike.
 */
import { normaliseCompanyName } from './company-name.ts';

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
