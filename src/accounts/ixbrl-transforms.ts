/**
 * Inline XBRL transformation rules: turn the text a filer displayed into the XBRL value.
 *
 * Covers the numeric and date formats of the transformation registries 1 (2008/2010), 2 (2011),
 * 3 (2015), 4 (2020) and 5 (2022) as they occur in UK filings. Registry versions renamed the same
 * rule (`numcommadot` -> `numdotdecimal` -> `num-dot-decimal`), so a format is keyed by its local
 * name, lower-cased, without hyphens; the registry version never changes what a name means.
 */

export type Transformed<T> = { ok: true; value: T } | { ok: false; reason: string };

/** An unsigned decimal, kept as text so that `scale` can shift it without floating-point error. */
export interface DecimalMagnitude {
  /** Digits with an optional single '.', no sign, e.g. "1234.5". */
  digits: string;
  /** True when the displayed text itself marked the value negative: "(1,234)" or "-1,234". */
  negativeInText: boolean;
}

/** The local name of a format QName, normalised: "ixt4:num-dot-decimal" -> "numdotdecimal". */
export function formatKey(format: string | null | undefined): string {
  if (!format) return '';
  let key = formatKeys.get(format);
  if (key === undefined) {
    const local = format.slice(format.lastIndexOf(':') + 1);
    key = local.replace(/-/g, '').toLowerCase().trim();
    // Filings use a handful of formats, asked for once per fact: remembered, up to a bound.
    if (formatKeys.size < MAX_FORMAT_KEYS) formatKeys.set(format, key);
  }
  return key;
}

const formatKeys = new Map<string, string>();
const MAX_FORMAT_KEYS = 1024;

type NumberStyle = 'dot' | 'comma' | 'zero' | 'unit-dot' | 'unit-comma' | 'words' | 'plain';

/** Every numeric format name seen across the registries, by how its text is read. */
const NUMBER_STYLES: Record<string, NumberStyle> = {
  // Registry 1 (2008, 2010): named by thousands separator then decimal separator.
  numcommadot: 'dot',
  numspacedot: 'dot',
  numdotcomma: 'comma',
  numspacecomma: 'comma',
  numcomma: 'comma',
  numdash: 'zero',
  // Registries 2 and 3; registry 4 and 5 spell the same names with hyphens.
  numdotdecimal: 'dot',
  numdotdecimalin: 'dot',
  numdotdecimalapos: 'dot',
  numcommadecimal: 'comma',
  numcommadecimalin: 'comma',
  numcommadecimalapos: 'comma',
  zerodash: 'zero',
  fixedzero: 'zero',
  numunitdecimal: 'unit-dot',
  numunitdecimalin: 'unit-dot',
  numunitdecimalapos: 'unit-dot',
  numcommaunitdecimal: 'unit-comma',
  numwordsen: 'words',
  numworden: 'words',
  // Registry 3 "numwordsen" is also published by the SEC registry under the same name.
  '': 'plain',
};

const DASHES = /^[\s\u00a0]*[-\u2010-\u2015\u2212]?[\s\u00a0]*$/;

/**
 * Read the magnitude of a displayed number under `format`.
 * Parentheses or a leading/trailing minus inside the tagged text are reported as `negativeInText`
 * rather than applied, so the caller can combine them with `sign="-"` without negating twice.
 */
export function readNumber(format: string | null | undefined, displayed: string): Transformed<DecimalMagnitude> {
  const key = formatKey(format);
  const style = NUMBER_STYLES[key];
  if (style === undefined) return { ok: false, reason: `unknown number format "${format}"` };
  if (style === 'zero') {
    return DASHES.test(displayed) || /^[\s\u00a0]*0*[\s\u00a0]*$/.test(displayed)
      ? { ok: true, value: { digits: '0', negativeInText: false } }
      : { ok: false, reason: `format "${format}" expects a dash, got "${clip(displayed)}"` };
  }
  if (style === 'words') return readWords(displayed);
  if (style === 'dot' || style === 'plain') {
    const digits = plainDigits(displayed);
    if (digits !== null) return { ok: true, value: { digits, negativeInText: false } };
  }

  let text = displayed.replace(/[\s\u00a0\u202f]+/g, ' ').trim();
  let negativeInText = false;
  const paren = /^\((.*)\)$/.exec(text);
  if (paren) {
    negativeInText = true;
    text = paren[1]!.trim();
  }
  const minus = /^[-\u2212\u2013](.*)$|^(.*?)[-\u2212\u2013]$/.exec(text);
  if (minus) {
    negativeInText = true;
    text = (minus[1] ?? minus[2] ?? '').trim();
  }
  // A dash alone means nil in UK practice even when the filer chose a plain number format.
  if (text === '' && (paren || minus)) return { ok: true, value: { digits: '0', negativeInText: false } };

  const digits =
    style === 'unit-dot' || style === 'unit-comma' ? unitDigits(text, style) : separatedDigits(text, style);
  if (digits === null)
    return { ok: false, reason: `"${clip(displayed)}" is not a number in format "${format ?? 'none'}"` };
  return { ok: true, value: { digits, negativeInText } };
}

/**
 * The commonest case of the dot and plain styles, read without regular expressions: digits with
 * thousands commas and at most one decimal point ("1,234", "56.70"). Null for anything else,
 * which the general reading handles; when this returns digits, so would it.
 */
function plainDigits(text: string): string | null {
  let body = '';
  let from = 0;
  let point = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) continue;
    if (c === 44) {
      body += text.slice(from, i); // thousands commas are dropped
      from = i + 1;
    } else if (c === 46 && point < 0) point = body.length + (i - from);
    else return null;
  }
  body += text.slice(from);
  // As the general reading requires: at least one digit before the point.
  if (body.length === 0 || point === 0) return null;
  return trimDecimal(body);
}

function separatedDigits(text: string, style: 'dot' | 'comma' | 'plain'): string | null {
  let body = text.replace(/^[£$€]\s*/, '');
  if (style === 'comma') {
    body = body.replace(/[.\s'\u2019]/g, '').replace(',', '.');
  } else {
    // 'plain' (no format) is read as the XML lexical form, tolerating the thousands commas
    // that filers leave in untransformed facts.
    body = body.replace(/[,\s'\u2019]/g, '');
  }
  if (/^\d+(\.\d*)?$/.test(body)) return trimDecimal(body);
  if (/^\.\d+$/.test(body)) return trimDecimal(`0${body}`);
  return null;
}

/** "5 pounds 20 pence", "5.20": whole units, then an optional fraction of at most two digits. */
function unitDigits(text: string, style: 'unit-dot' | 'unit-comma'): string | null {
  const m = /^(\d[\d,.\s'\u2019]*?)(?:[^\d]+(\d{1,2}))?[^\d]*$/.exec(text);
  if (!m) return null;
  const whole = m[1]!.replace(style === 'unit-dot' ? /[,.\s'\u2019]/g : /[.,\s'\u2019]/g, '');
  if (!/^\d+$/.test(whole)) return null;
  const fraction = m[2] ? m[2].padStart(2, '0') : '';
  return trimDecimal(fraction ? `${whole}.${fraction}` : whole);
}

const SMALL_NUMBERS: Record<string, number> = {
  zero: 0,
  no: 0,
  none: 0,
  nil: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const MULTIPLIERS: Record<string, number> = { hundred: 100, thousand: 1e3, million: 1e6, billion: 1e9 };

/** English number words: "one hundred and twenty-three", "no", "nil". */
function readWords(displayed: string): Transformed<DecimalMagnitude> {
  const words = displayed
    .toLowerCase()
    .replace(/[-,]/g, ' ')
    .split(/\s+/)
    .filter((w) => w && w !== 'and');
  if (words.length === 0) return { ok: false, reason: 'format "numwordsen" got no words' };
  let total = 0;
  let group = 0;
  for (const word of words) {
    if (word in SMALL_NUMBERS) group += SMALL_NUMBERS[word]!;
    else if (/^\d+$/.test(word)) group += Number(word);
    else if (word === 'hundred') group *= 100;
    else if (word in MULTIPLIERS) {
      total += Math.max(group, 1) * MULTIPLIERS[word]!;
      group = 0;
    } else return { ok: false, reason: `"${clip(displayed)}" is not an English number` };
  }
  return { ok: true, value: { digits: String(total + group), negativeInText: false } };
}

function trimDecimal(digits: string): string {
  // Most figures are whole numbers without leading zeros: nothing to trim.
  if (digits.charCodeAt(0) !== 48 && !digits.includes('.')) return digits;
  let [whole = '0', fraction = ''] = digits.split('.');
  whole = whole.replace(/^0+(?=\d)/, '');
  fraction = fraction.replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** Multiply a decimal string by 10^scale exactly, returning a number (scale may be negative). */
export function applyScale(digits: string, scale: number): number {
  if (scale === 0) return Number(digits);
  const [whole = '0', fraction = ''] = digits.split('.');
  const all = whole + fraction;
  const point = whole.length + scale;
  let shifted: string;
  if (point <= 0) shifted = `0.${'0'.repeat(-point)}${all}`;
  else if (point >= all.length) shifted = all + '0'.repeat(point - all.length);
  else shifted = `${all.slice(0, point)}.${all.slice(point)}`;
  return Number(shifted);
}

// ---------------------------------------------------------------------------------------------
// Dates

type DateOrder = 'DMY' | 'MDY' | 'YMD';

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
  // Welsh month names, used by filings in Welsh (registry 4 "-cy" date formats).
  ion: 1,
  chw: 2,
  maw: 3,
  ebr: 4,
  mai: 5,
  meh: 6,
  gor: 7,
  aws: 8,
  med: 9,
  hyd: 10,
  tac: 11,
  rha: 12,
};

function dateOrderFor(key: string): DateOrder {
  if (key.startsWith('dateyear')) return 'YMD';
  // Registry 1 names the convention by country (datelongus, dateslashus); later ones by order.
  if (key.startsWith('datemonth') || /us(en)?$/.test(key)) return 'MDY';
  return 'DMY';
}

/**
 * Read a displayed date under a date format ("31 March 2018", "31.3.18", "2018-03-31").
 * Without a format the text must already be an ISO date, as in plain XBRL.
 */
export function readDate(format: string | null | undefined, displayed: string): Transformed<string> {
  const text = displayed.replace(/[\s\u00a0]+/g, ' ').trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  const key = formatKey(format);
  if (key === '' || key === 'dateyearmonthday' || key === 'dateyearmonthdaycjk') {
    if (iso) return checkedDate(Number(iso[1]), Number(iso[2]), Number(iso[3]), displayed);
  }
  const order = dateOrderFor(key);
  const tokens = text.toLowerCase().match(/\d+|[a-z\u00e0-\u017f]+/g) ?? [];
  const numbers: number[] = [];
  let month: number | null = null;
  for (const token of tokens) {
    if (/^\d+$/.test(token)) numbers.push(Number(token));
    else if (month === null && MONTHS[token.slice(0, 3)] !== undefined) month = MONTHS[token.slice(0, 3)]!;
    // Ordinal suffixes ("31st") and filler words ("of") are ignored.
  }
  let day: number | undefined;
  let year: number | undefined;
  if (month !== null) {
    if (numbers.length !== 2) return { ok: false, reason: `"${clip(displayed)}" is not a date` };
    [day, year] = order === 'YMD' ? [numbers[1], numbers[0]] : [numbers[0], numbers[1]];
  } else {
    if (numbers.length !== 3) return { ok: false, reason: `"${clip(displayed)}" is not a date` };
    const [a, b, c] = numbers as [number, number, number];
    if (order === 'YMD') [year, month, day] = [a, b, c];
    else if (order === 'MDY') [month, day, year] = [a, b, c];
    else [day, month, year] = [a, b, c];
  }
  return checkedDate(fullYear(year!), month, day!, displayed);
}

function fullYear(year: number): number {
  if (year >= 100) return year;
  return year < 70 ? 2000 + year : 1900 + year;
}

function checkedDate(year: number, month: number, day: number, displayed: string): Transformed<string> {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return { ok: false, reason: `"${clip(displayed)}" is not a valid date` };
  }
  return { ok: true, value: isoDay(year, month, day) };
}

/** `YYYY-MM-DD` of a checked date, as `toISOString` writes it; formatted directly for four-digit years (all real ones). */
function isoDay(year: number, month: number, day: number): string {
  if (year < 0 || year > 9999) return new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);
  return `${String(year).padStart(4, '0')}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`;
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
