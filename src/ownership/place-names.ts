/**
 * The words of a PSC's identification that say where it is registered: parts and registers of the
 * United Kingdom, other countries and states, and words of company law. `readPlace` scans a text
 * once, word by word, matching the longest phrase first, so "New South Wales" is Australia before
 * "Wales" is the UK, "Northern Ireland" is the UK before "Ireland" is the Republic, and "British
 * Virgin Islands" is not Britain.
 *
 * Lookups are by whole words in a Map rather than a regular expression or a substring search per
 * entry: this runs for every corporate PSC of a 12-million-line snapshot, and a few thousand
 * distinct spellings recur, so answers are also remembered.
 */

/** What a text names. */
export interface PlaceReading {
  /** A country outside the UK it names (the first), canonically spelled. */
  foreign: string | null;
  /** A part of the UK or its register it names: 'England', 'Wales', …, or 'United Kingdom'. */
  uk: string | null;
  /** Words of UK company law that other places reuse ("Registrar of Companies", "Companies Act 2006"). */
  ukLikely: boolean;
  /** Words of a register or a legal form rather than a place ("Limited Company", "Corporate"). */
  notAPlace: boolean;
  /** How many words it has. */
  words: number;
}

type Mark =
  | { type: 'foreign'; country: string }
  | { type: 'uk'; country: string }
  | { type: 'uk-likely' }
  | { type: 'not-a-place' };

const UK_PHRASES: readonly (readonly [string, string])[] = [
  ['england', 'England'],
  ['english', 'England'],
  ['london', 'England'],
  ['wales', 'Wales'],
  ['welsh', 'Wales'],
  ['cardiff', 'Wales'],
  ['scotland', 'Scotland'],
  ['scottish', 'Scotland'],
  ['scots', 'Scotland'],
  ['edinburgh', 'Scotland'],
  ['northern ireland', 'Northern Ireland'],
  ['belfast', 'Northern Ireland'],
  ['united kingdom', 'United Kingdom'],
  ['uk', 'United Kingdom'],
  ['u k', 'United Kingdom'],
  ['gb', 'United Kingdom'],
  ['great britain', 'United Kingdom'],
  ['britain', 'United Kingdom'],
  ['companies house', 'United Kingdom'],
];

const UK_LIKELY_PHRASES: readonly string[] = [
  'registrar of companies',
  'register of companies',
  'registrar for companies',
  'companies registry',
  'companies act',
  'limited by shares',
];

/** Places outside the UK; phrases that contain a UK word are here so that the longer one wins. */
const FOREIGN_PHRASES: readonly (readonly [string, string])[] = [
  ['new south wales', 'Australia'],
  ['new england', 'United States'],
  ['british virgin islands', 'British Virgin Islands'],
  ['bvi', 'British Virgin Islands'],
  ['virgin islands', 'Virgin Islands'],
  ['isle of man', 'Isle of Man'],
  ['jersey', 'Jersey'],
  ['guernsey', 'Guernsey'],
  ['alderney', 'Guernsey'],
  ['gibraltar', 'Gibraltar'],
  ['ireland', 'Ireland'],
  ['eire', 'Ireland'],
  ['delaware', 'United States'],
  ['nevada', 'United States'],
  ['new york', 'United States'],
  ['california', 'United States'],
  ['florida', 'United States'],
  ['texas', 'United States'],
  ['wyoming', 'United States'],
  ['minnesota', 'United States'],
  ['united states', 'United States'],
  ['usa', 'United States'],
  ['u s a', 'United States'],
  ['us', 'United States'],
  ['america', 'United States'],
  ['canada', 'Canada'],
  ['ontario', 'Canada'],
  ['netherlands', 'Netherlands'],
  ['holland', 'Netherlands'],
  ['dutch', 'Netherlands'],
  ['luxembourg', 'Luxembourg'],
  ['luxemburg', 'Luxembourg'],
  ['belgium', 'Belgium'],
  ['france', 'France'],
  ['french', 'France'],
  ['germany', 'Germany'],
  ['german', 'Germany'],
  ['deutschland', 'Germany'],
  ['switzerland', 'Switzerland'],
  ['swiss', 'Switzerland'],
  ['austria', 'Austria'],
  ['italy', 'Italy'],
  ['spain', 'Spain'],
  ['portugal', 'Portugal'],
  ['denmark', 'Denmark'],
  ['sweden', 'Sweden'],
  ['norway', 'Norway'],
  ['finland', 'Finland'],
  ['iceland', 'Iceland'],
  ['estonia', 'Estonia'],
  ['latvia', 'Latvia'],
  ['lithuania', 'Lithuania'],
  ['poland', 'Poland'],
  ['czech', 'Czech Republic'],
  ['czech republic', 'Czech Republic'],
  ['slovakia', 'Slovakia'],
  ['hungary', 'Hungary'],
  ['romania', 'Romania'],
  ['bulgaria', 'Bulgaria'],
  ['greece', 'Greece'],
  ['cyprus', 'Cyprus'],
  ['malta', 'Malta'],
  ['liechtenstein', 'Liechtenstein'],
  ['monaco', 'Monaco'],
  ['russia', 'Russia'],
  ['russian federation', 'Russia'],
  ['ukraine', 'Ukraine'],
  ['turkey', 'Turkey'],
  ['israel', 'Israel'],
  ['united arab emirates', 'United Arab Emirates'],
  ['uae', 'United Arab Emirates'],
  ['dubai', 'United Arab Emirates'],
  ['abu dhabi', 'United Arab Emirates'],
  ['saudi arabia', 'Saudi Arabia'],
  ['qatar', 'Qatar'],
  ['india', 'India'],
  ['china', 'China'],
  ['hong kong', 'Hong Kong'],
  ['singapore', 'Singapore'],
  ['japan', 'Japan'],
  ['korea', 'South Korea'],
  ['taiwan', 'Taiwan'],
  ['malaysia', 'Malaysia'],
  ['australia', 'Australia'],
  ['new zealand', 'New Zealand'],
  ['south africa', 'South Africa'],
  ['nigeria', 'Nigeria'],
  ['mauritius', 'Mauritius'],
  ['seychelles', 'Seychelles'],
  ['cayman', 'Cayman Islands'],
  ['cayman islands', 'Cayman Islands'],
  ['bermuda', 'Bermuda'],
  ['bahamas', 'Bahamas'],
  ['panama', 'Panama'],
  ['belize', 'Belize'],
  ['brazil', 'Brazil'],
  ['mexico', 'Mexico'],
  ['marshall islands', 'Marshall Islands'],
  ['anguilla', 'Anguilla'],
];

/** Words of registers and legal forms, matched whole. */
const NOT_A_PLACE_WORDS: readonly string[] = [
  'limited', 'ltd', 'plc', 'llp', 'llc', 'lp', 'inc', 'ag', 'gmbh', 'bv', 'nv', 'sa', 'sarl', 'partnership',
  'act', 'acts', 'government', 'trust', 'state', 'private', 'public', 'none', 'not', 'unknown', 'n', 'a',
]; // prettier-ignore

/** Beginnings of such words: "company", "companies", "corporation", "registered", "laws". */
const NOT_A_PLACE_STEMS: readonly string[] = ['compan', 'corporat', 'regist', 'law', 'statut', 'ordinance'];

const PHRASES = new Map<string, Mark>();
for (const phrase of UK_LIKELY_PHRASES) PHRASES.set(phrase, { type: 'uk-likely' });
for (const word of NOT_A_PLACE_WORDS) PHRASES.set(word, { type: 'not-a-place' });
for (const [phrase, country] of UK_PHRASES) PHRASES.set(phrase, { type: 'uk', country });
for (const [phrase, country] of FOREIGN_PHRASES) PHRASES.set(phrase, { type: 'foreign', country });
const LONGEST_PHRASE = 3;

/** The words of a text, lower case: anything but letters and digits parts them ("U.K." is u, k). */
function placeWords(text: string): string[] {
  const words: string[] = [];
  let start = -1;
  const lower = text.toLowerCase();
  for (let i = 0; i <= lower.length; i++) {
    const c = i < lower.length ? lower.charCodeAt(i) : 32;
    const wordChar = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c > 127;
    if (wordChar && start < 0) start = i;
    else if (!wordChar && start >= 0) {
      words.push(lower.slice(start, i));
      start = -1;
    }
  }
  return words;
}

function scan(text: string): PlaceReading {
  const words = placeWords(text);
  const reading: PlaceReading = { foreign: null, uk: null, ukLikely: false, notAPlace: false, words: words.length };
  for (let i = 0; i < words.length;) {
    let matched = 1;
    let mark: Mark | undefined;
    for (let n = Math.min(LONGEST_PHRASE, words.length - i); n >= 1 && mark === undefined; n--) {
      mark = PHRASES.get(n === 1 ? words[i]! : words.slice(i, i + n).join(' '));
      if (mark !== undefined) matched = n;
    }
    if (mark === undefined) {
      const word = words[i]!;
      if (NOT_A_PLACE_STEMS.some((stem) => word.startsWith(stem))) reading.notAPlace = true;
    } else if (mark.type === 'foreign') reading.foreign ??= mark.country;
    else if (mark.type === 'uk') reading.uk ??= mark.country;
    else if (mark.type === 'uk-likely') reading.ukLikely = true;
    else reading.notAPlace = true;
    i += matched;
  }
  return reading;
}

// Answers remembered for the texts seen most recently; cleared when full so memory stays bounded.
const REMEMBERED = new Map<string, PlaceReading>();
const REMEMBER_AT_MOST = 20_000;

/** What `text` names (see PlaceReading). The same object for the same text: do not change it. */
export function readPlace(text: string): PlaceReading {
  let reading = REMEMBERED.get(text);
  if (reading === undefined) {
    reading = scan(text);
    if (REMEMBERED.size >= REMEMBER_AT_MOST) REMEMBERED.clear();
    REMEMBERED.set(text, reading);
  }
  return reading;
}
