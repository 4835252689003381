/**
 * Names of persons with significant control as people search compares them: the one function the
 * Elasticsearch people indexer, the Postgres people index and the query all use, so that a name and
 * a query meet in the same form.
 *
 * Case, accents and punctuation are ignored as in company names (`nameWords`). An individual's
 * title ("Mr", "Dr", "Sir", or whatever `name_elements.title` says) is left out; a corporate or
 * legal-person PSC's name loses its legal suffix as a company name does ("ACME HOLDINGS LIMITED"
 * is "ACME HOLDINGS").
 */
import { nameWords, normaliseCompanyName } from '../domain/company-name.ts';
import type { PscKindClass, PscNameElements } from '../domain/psc.ts';

/**
 * Titles that open a person's name as Companies House prints it. Dropped from an individual's name
 * when `name_elements.title` does not say, and from a query's front, so "Mr John Smith" finds John
 * Smith. Never the only word: a name or query of just "Lord" keeps it.
 */
const TITLES = new Set([
  'MR',
  'MRS',
  'MS',
  'MISS',
  'MX',
  'MASTER',
  'DR',
  'PROF',
  'PROFESSOR',
  'SIR',
  'DAME',
  'LORD',
  'LADY',
  'REV',
  'REVD',
  'REVEREND',
]);

/** The words of `words` after any leading titles, keeping at least one word. */
function withoutTitles(words: string[]): string[] {
  let start = 0;
  while (start < words.length - 1 && TITLES.has(words[start]!)) start += 1;
  return words.slice(start);
}

/**
 * The normalised name of a PSC. An individual's is its forename, middle names and surname when the
 * name elements give them (as the person_key is made: psc-line.ts), else its name less the filed
 * title and any usual title; the others' is their name normalised as a company name is.
 */
export function normalisePersonName(name: string, kind: PscKindClass, elements: PscNameElements | null = null): string {
  if (kind !== 'individual') return normaliseCompanyName(name);
  if (elements !== null && (elements.forename || elements.surname))
    return nameWords([elements.forename, elements.middle_name, elements.surname].filter(Boolean).join(' ')).join(' ');
  let words = nameWords(name);
  const filed = elements?.title ? nameWords(elements.title) : [];
  if (filed.length > 0 && filed.length < words.length && filed.every((word, i) => words[i] === word))
    words = words.slice(filed.length);
  return withoutTitles(words).join(' ');
}

export interface PersonNameQuery {
  /** The normalised phrase, "" when the query has no letters or digits. */
  phrase: string;
  /** Its words, each to be matched as the prefix of some word of the name. */
  words: string[];
}

/**
 * What a people search's name means. Whether it names an individual or a company is not known, so
 * both are undone: a leading title ("Mr John Smith") and a trailing legal suffix ("ACME HOLDINGS
 * LTD"). A company whose name opens with a title word ("SIR ROBERT MCALPINE LIMITED") is still
 * found, as containing the rest.
 */
export function personNameQuery(query: string): PersonNameQuery {
  const phrase = normaliseCompanyName(withoutTitles(nameWords(query)).join(' '));
  return { phrase, words: phrase === '' ? [] : phrase.split(' ') };
}
