/**
 * Country keys for the ownership filters (`parent_country`). Where a corporate or legal-person
 * PSC is registered is free text as filed ("England And Wales", "Usa", "U.S.A.", "Cayman
 * Islands"), so the index and the filter both compare a normalised key of it, made by this one
 * function: lower case, accents and punctuation dropped, "&" read as "and", a leading "the"
 * dropped, and a few common abbreviations of one country read as its name. It is not a gazetteer:
 * "Delaware" stays `delaware` (an overseas parent all the same, which `overseas` finds).
 *
 * Two keys stand for groups of countries: `overseas`, any parent outside the United Kingdom (as
 * the PSC loader judged it), and `united kingdom`, any UK parent, whichever of England, Wales,
 * Scotland, Northern Ireland or the UK itself it names.
 */

/** The key of every parent outside the United Kingdom. */
const OVERSEAS = 'overseas';
/** The key of every parent in the United Kingdom. */
const UNITED_KINGDOM = 'united kingdom';

/** Other spellings of one country, as keys, that the register commonly holds. */
const ALIASES: Readonly<Record<string, string>> = {
  uk: UNITED_KINGDOM,
  'u k': UNITED_KINGDOM,
  gb: UNITED_KINGDOM,
  'great britain': UNITED_KINGDOM,
  britain: UNITED_KINGDOM,
  'united kingdom of great britain and northern ireland': UNITED_KINGDOM,
  usa: 'united states',
  'u s a': 'united states',
  us: 'united states',
  'u s': 'united states',
  'united states of america': 'united states',
  uae: 'united arab emirates',
  'u a e': 'united arab emirates',
  bvi: 'british virgin islands',
  holland: 'netherlands',
};

/** The parts of the United Kingdom a key can name; "northern ireland" before any shorter match. */
const UK_PARTS = ['northern ireland', 'england', 'wales', 'scotland'] as const;

/** A key made only of UK names joined by "and" ("england and wales", "scotland united kingdom"). */
const ONLY_UK_NAMES =
  /^(?:(?:united kingdom|great britain|northern ireland|england|wales|scotland|britain|uk|gb|and) )+$/;

/** The key of a country as filed, or as asked for; null when nothing is left of it. */
export function countryKey(text: string | null): string | null {
  if (text === null) return null;
  const key = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/^the /, '');
  if (key === '' || key === 'the') return null;
  return ALIASES[key] ?? key;
}

/** The key names the United Kingdom or only parts of it. */
export function isUnitedKingdomKey(key: string): boolean {
  return key !== 'and' && ONLY_UK_NAMES.test(`${key} `);
}

/** Where one current corporate or legal-person PSC is registered, as the store holds it. */
export interface ParentPlace {
  /** As filed; null when not said. */
  country: string | null;
  /** Outside the United Kingdom, as the PSC loader judged it; null when that could not be told. */
  overseas: boolean | null;
  /** Its identification names the UK's register with a company number. */
  uk_registered: boolean;
}

/**
 * The keys `parent_country` finds a parent by: its country's key; `overseas` for a parent outside
 * the UK; for a UK parent, `united kingdom` and each part of the UK its country names
 * ("England and Wales" is also `england` and `wales`).
 */
export function parentCountryKeys(parent: ParentPlace): string[] {
  const key = countryKey(parent.country);
  const keys = new Set<string>(key === null ? [] : [key]);
  if (parent.overseas) keys.add(OVERSEAS);
  else if (key !== null && isUnitedKingdomKey(key)) {
    keys.add(UNITED_KINGDOM);
    for (const part of UK_PARTS) if (` ${key} `.includes(` ${part} `)) keys.add(part);
  } else if (parent.uk_registered) keys.add(UNITED_KINGDOM);
  return [...keys];
}
