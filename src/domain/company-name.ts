/**
 * Company name normalisation: the one function the Elasticsearch indexer, the query builder and
 * the Postgres search adapter all use, so that a name and a query meet in the same form.
 *
 * Case, accents and punctuation are ignored, "&" and "AND" are the same word, and legal suffixes
 * (LTD, LIMITED, PLC, LLP, CIC, the Welsh CYF/CYFYNGEDIG/CCC, "& CO" …) are stripped from the end.
 */

/** Legal forms as they end a registered name, longest first so that the longest one is stripped. */
const SUFFIXES = [
  'LIMITED LIABILITY PARTNERSHIP',
  'COMMUNITY INTEREST COMPANY',
  'CWMNI CYFYNGEDIG CYHOEDDUS',
  'PUBLIC LIMITED COMPANY',
  'CWMNI BUDDIANT CYMUNEDOL',
  'PARTNERIAETH ATEBOLRWYDD CYFYNGEDIG',
  'LIMITED PARTNERSHIP',
  'CYFYNGEDIG',
  'UNLIMITED',
  'LIMITED',
  'AND COMPANY',
  'AND CO',
  'LTD',
  'PLC',
  'LLP',
  'CIC',
  'CYF',
  'CCC',
  'PAC',
  'CBC',
  'LP',
].map((suffix) => suffix.split(' '));

/** Upper case, accents folded, '&' as AND, punctuation gone; words separated by one space. */
export function nameWords(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toUpperCase()
    .replace(/&/g, ' AND ')
    .replace(/['’`.]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter((word) => word.length > 0);
}

/**
 * The normalised name: its words without trailing legal suffixes. A name that is nothing but a
 * suffix ("LIMITED") keeps it, so that it still has a form to match.
 */
export function normaliseCompanyName(name: string): string {
  const words = nameWords(name);
  for (;;) {
    const suffix = SUFFIXES.find(
      (s) => s.length < words.length && s.every((word, i) => words[words.length - s.length + i] === word),
    );
    if (!suffix) break;
    words.length -= suffix.length;
  }
  return words.join(' ');
}
