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
  /**
   * Names a letter or two away from the query ("did you mean"), best first (nearMatches), up to
   * the limit: only on a first page when the words match no name at all; otherwise empty.
   */
  near: NameSearchHit[];
}

/**
 * The edits a query word of this length may differ by from a word of a near match (one letter
 * wrong, missing, added or two letters swapped is one edit): none up to 2 letters, one up to 5,
 * two from 6 — Elasticsearch's `fuzziness: AUTO`, so both adapters look for the same words.
 */
export function allowedEdits(word: string): number {
  return word.length <= 2 ? 0 : word.length <= 5 ? 1 : 2;
}

/**
 * The edits between two words (optimal string alignment: a swap of two neighbouring letters is
 * one edit, as in Lucene's fuzzy queries), or `bound + 1` as soon as it must exceed `bound`.
 */
export function editDistance(a: string, b: string, bound: number): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let smallest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current.push(value);
      smallest = Math.min(smallest, value);
    }
    if (smallest > bound) return bound + 1;
    before = previous;
    previous = current;
  }
  return Math.min(previous[b.length]!, bound + 1);
}

/**
 * How far a normalised name is from the query's words as a near match, or null when it is none.
 * Each query word must start a word of the name (no edit) or be within `allowedEdits` of a whole
 * word of it; the distance is the sum of each word's fewest edits. A name whose words all match
 * as prefixes is an ordinary match (search's ranking), never a near one, so it is null too.
 */
export function nearMatchDistance(normalisedName: string, words: readonly string[]): number | null {
  const nameWords = normalisedName.split(' ').filter((word) => word !== '');
  let distance = 0;
  for (const word of words) {
    if (nameWords.some((nameWord) => nameWord.startsWith(word))) continue;
    const bound = allowedEdits(word);
    let fewest = bound + 1;
    for (const nameWord of nameWords) fewest = Math.min(fewest, editDistance(word, nameWord, bound));
    if (fewest > bound) return null;
    distance += fewest;
  }
  return distance === 0 ? null : distance;
}

/** The most near matches an answer offers (fewer when the limit is lower). */
export const NEAR_MATCHES_UP_TO = 20;

/** How many candidates an adapter reads for near matches before ranking them (nearMatches). */
export const NEAR_CANDIDATES = 200;

/**
 * Near matches ("did you mean") among candidates an adapter found, best first: the fewest edits,
 * active before other statuses, then the shorter name and the company number, as in the ranking.
 */
export function nearMatches<Hit extends NameSearchHit>(
  candidates: readonly Hit[],
  words: readonly string[],
  limit: number,
): Hit[] {
  return candidates
    .flatMap((hit) => {
      const distance = nearMatchDistance(normaliseCompanyName(hit.name), words);
      return distance === null ? [] : [{ hit, distance, active: isActiveStatus(hit.status) }];
    })
    .sort(
      (a, b) =>
        a.distance - b.distance ||
        Number(b.active) - Number(a.active) ||
        a.hit.name.length - b.hit.name.length ||
        (a.hit.company_number < b.hit.company_number ? -1 : a.hit.company_number > b.hit.company_number ? 1 : 0),
    )
    .slice(0, limit)
    .map(({ hit }) => hit);
}
