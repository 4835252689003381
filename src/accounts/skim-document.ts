/**
 * The fast way through an inline XBRL filing: find the elements that matter in the decoded text
 * with `indexOf`, and hand only those to the `DocumentScanner` — the root element, the facts,
 * contexts, units, continuations, exclusions and schema references, whole, with everything inside
 * them — skipping the markup in between without tokenising it. The scanner then reads exactly
 * what it would have read from the whole document, so the result is the same by construction.
 *
 * What may be skipped is decided with certainty, not guessed: every `<` of the document is
 * classified the way htmlparser2's tokenizer (HTML mode) would — tag, closing tag, comment,
 * CDATA, declaration, bogus comment, or text — and the raw text of `<script>`, `<style>`,
 * `<title>` and the like is passed over as the tokenizer passes over it, so a `<ix:nonFraction`
 * inside a comment or an attribute value is never taken for a tag. A stretch is skipped only when
 * the scanner would do nothing with it: no tag it reads, no namespace declaration, no closing
 * tag of an element it has open, and no element open that collects text. The skimmer keeps its
 * own stack of the elements that may be open in the scanner (a superset: when in doubt it sends
 * the closing tag), and while the scanner says it is collecting text (inside a fact it keeps, a
 * continuation, a context's dates) it sends everything, up to the closing tag that ends it.
 *
 * Documents whose root is not `<html>` (plain XBRL, anything else) are handed to the scanner
 * whole, as before.
 */
import type { ScannedDocument, ScanOptions } from './scan-document.ts';
import { DocumentScanner, INSTANCE_ELEMENTS, localName } from './scan-document.ts';

/** Local names (lower case) of the elements the scanner keeps open while it reads them. */
const FRAME_ELEMENTS = new Set([
  'nonfraction',
  'nonnumeric',
  'continuation',
  'exclude',
  'context',
  'unit',
  'identifier',
  'startdate',
  'enddate',
  'instant',
  'explicitmember',
  'typedmember',
  'measure',
]);

/** Elements whose content the tokenizer reads as raw text up to their closing tag. */
const RAW_TEXT_ELEMENTS = new Set([
  'iframe',
  'noembed',
  'noframes',
  'plaintext',
  'script',
  'style',
  'title',
  'textarea',
  'xmp',
]);

/**
 * A name's shape, its length and lower-case first letter, rules most names out before they are
 * sliced. Shapes index a table: every tag is tested, and reading a typed array is cheaper than
 * hashing into a set. Shapes may collide (a non-ASCII first letter, a name of 32 characters or
 * more), which only lets a name through to the exact test.
 */
function shapeOf(length: number, first: number): number {
  return length < 32 ? (length << 7) | ((first | 0x20) & 0x7f) : 0;
}

function shapeTable(names: Iterable<string>): Uint8Array {
  const table = new Uint8Array(32 << 7);
  for (const name of names) table[shapeOf(name.length, name.charCodeAt(0))] = 1;
  return table;
}

/** Unprefixed names can only be wanted when they are instance elements: their shapes. */
const INSTANCE_SHAPES = shapeTable(INSTANCE_ELEMENTS);
const RAW_TEXT_SHAPES = shapeTable(RAW_TEXT_ELEMENTS);

const TAB = 9;
const NEWLINE = 10;
const FORM_FEED = 12;
const CARRIAGE_RETURN = 13;
const SPACE = 32;
const EXCLAMATION = 33;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;
const DASH = 45;
const SLASH = 47;
const COLON = 58;
const EQUALS = 61;
const GT = 62;
const QUESTION = 63;

// Letters, the commonest characters in names, are above all of these: one comparison rules them out.
function isWhitespace(c: number): boolean {
  return c <= SPACE && (c === SPACE || c === NEWLINE || c === TAB || c === FORM_FEED || c === CARRIAGE_RETURN);
}

function isEndOfTagSection(c: number): boolean {
  return c <= GT && (c === SLASH || c === GT || isWhitespace(c));
}

function isAsciiAlpha(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/**
 * The attribute names the wanted elements carry, lower case. A name read from the text is matched
 * against these in place: slicing and lower-casing every name, then hashing the new string as a
 * property key, was the largest single cost of reading a fact's tag.
 */
const KNOWN_ATTRIBUTE_NAMES = [
  'name',
  'contextref',
  'unitref',
  'decimals',
  'precision',
  'scale',
  'format',
  'sign',
  'id',
  'xsi:nil',
  'continuedat',
  'escape',
  'dimension',
  'scheme',
  'xlink:href',
  'xlink:type',
  'href',
  'class',
  'style',
];
const KNOWN_ATTRIBUTES_BY_LENGTH: string[][] = [];
for (const name of KNOWN_ATTRIBUTE_NAMES) (KNOWN_ATTRIBUTES_BY_LENGTH[name.length] ??= []).push(name);

/**
 * The lower-case attribute name written at [start, end) when it is a known one, else null. Only
 * ASCII letters are lower-cased here, so a match is exactly what `toLowerCase` would give.
 */
function knownAttributeName(s: string, start: number, end: number): string | null {
  const candidates = KNOWN_ATTRIBUTES_BY_LENGTH[end - start];
  if (candidates === undefined) return null;
  next: for (const known of candidates) {
    for (let k = 0; k < known.length; k++) {
      let c = s.charCodeAt(start + k);
      if (c >= 65 && c <= 90) c += 32;
      if (c !== known.charCodeAt(k)) continue next;
    }
    return known;
  }
  return null;
}

/** An attribute name as the scanner keys it: lower case. */
function attributeName(s: string, start: number, end: number): string {
  return knownAttributeName(s, start, end) ?? s.slice(start, end).toLowerCase();
}

/**
 * A tag name that may be wanted, met before in this document: later tags of that name reuse the
 * string (so the scanner's set and map lookups find its hash cached) and what is known about it.
 */
interface KnownName {
  name: string;
  /** The scanner keeps elements of this name open while it reads them. */
  frame: boolean;
  /** Whether the scanner wants it, decided for the set of inline prefixes `wantedIn`. */
  wanted: boolean;
  wantedIn: ReadonlySet<string> | null;
}

/** Documents use a handful of such names; past this many, further ones are sliced each time. */
const MAX_KNOWN_NAMES = 64;

interface OpenElement {
  name: string;
  /** It declared namespaces: when it closes, the scanner's inline prefixes may change back. */
  declares: boolean;
}

/** Scan a decoded document, reading only what matters. Same result as writing it all to a `DocumentScanner`. */
export function skimDocument(text: string, options: ScanOptions): ScannedDocument {
  return new Skimmer(text, new DocumentScanner(options)).run();
}

class Skimmer {
  private readonly open: OpenElement[] = [];
  /** Names met before, by length: most documents' wanted names differ in length, so a lookup compares one or two. */
  private readonly knownNames: KnownName[][] = [];
  private knownNameCount = 0;
  /** Whether unprefixed names are inline XBRL, for the scanner's set of inline prefixes `prefixesSeen`. */
  private unprefixedInline = false;
  private prefixesSeen: ReadonlySet<string> | null = null;
  /** While the scanner collects text, everything is sent to it; as it was after the last write. */
  private collecting = false;
  // Text accepted for the scanner and not yet written: [pendingStart, pendingEnd), or none (-1).
  private pendingStart = -1;
  private pendingEnd = -1;
  private rootSeen = false;
  // What readTag found about the tag it read.
  private selfClosing = false;
  private declares = false;
  /** Where each namespace declaration readTag found is written: name start, name end, value start, value end. */
  private readonly declarationBounds: number[] = [];
  /** The attributes as the scanner collects them (names lower-cased), or null when not asked for or a value holds an entity. */
  private attribs: Record<string, string> | null = null;

  constructor(
    private readonly s: string,
    private readonly scanner: DocumentScanner,
  ) {}

  run(): ScannedDocument {
    const s = this.s;
    let pos = 0;
    let unfinished = -1;
    while (pos < s.length) {
      const lt = s.indexOf('<', pos);
      if (lt < 0) break;
      const next = this.token(lt);
      if (next === Infinity) return this.scanner.finish();
      if (next < 0) {
        unfinished = lt;
        break;
      }
      pos = next;
    }
    if (!this.rootSeen) {
      this.scanner.write(s); // no element at all: nothing to skip
      return this.scanner.finish();
    }
    // The document ends while text is collected, or inside a token: the scanner sees it as it would have.
    if (this.collecting) this.pendingEnd = s.length;
    else if (unfinished >= 0) this.accept(unfinished, s.length);
    this.flush();
    return this.scanner.finish();
  }

  /** Handle the token starting with the `<` at `lt`; returns where to go on, -1 at the end of the text. */
  private token(lt: number): number {
    const s = this.s;
    const c = s.charCodeAt(lt + 1);
    if (isAsciiAlpha(c)) return this.openingTag(lt);
    if (c === SLASH) return this.closingTag(lt);
    if (c === EXCLAMATION) {
      if (s.startsWith('--', lt + 2)) return this.comment(lt + 4);
      if (s.startsWith('[CDATA[', lt + 2)) return after(s.indexOf(']]>', lt + 9), 3);
      return after(s.indexOf('>', lt + 2), 1);
    }
    if (c === QUESTION) return after(s.indexOf('>', lt + 2), 1);
    // `<` followed by anything else is text; whatever follows it is read again.
    return Number.isNaN(c) ? -1 : lt + 1;
  }

  /** An HTML comment whose text starts at `from`: it ends at `-->` or `--!>`, or at once as `<!-->` or `<!--->`. */
  private comment(from: number): number {
    const s = this.s;
    if (s.charCodeAt(from) === GT) return from + 1;
    if (s.charCodeAt(from) === DASH && s.charCodeAt(from + 1) === GT) return from + 2;
    // The first "--" followed by ">" or "!>"; searching for both endings separately would read to
    // the end of the document for the one that is absent, at every comment.
    for (let dash = s.indexOf('--', from); dash >= 0; dash = s.indexOf('--', dash + 1)) {
      const c = s.charCodeAt(dash + 2);
      if (c === GT) return dash + 3;
      if (c === EXCLAMATION && s.charCodeAt(dash + 3) === GT) return dash + 4;
    }
    return -1;
  }

  private openingTag(lt: number): number {
    const s = this.s;
    const nameStart = lt + 1;
    let i = nameStart;
    let colon = -1;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c > GT) {
        i++; // a letter, most of a name: nothing more to test
        continue;
      }
      if (isEndOfTagSection(c)) break;
      if (Number.isNaN(c)) return -1;
      if (c === COLON && colon < 0) colon = i;
      i++;
    }
    if (!this.rootSeen) {
      const end = this.readTag(i, true);
      return end < 0 ? -1 : this.root(s.slice(nameStart, i), end, this.selfClosing, this.attribs);
    }
    const known = this.mayBeWanted(nameStart, i, colon) ? this.knownName(nameStart, i) : null;
    const wanted = known !== null && this.isWanted(known);
    const end = this.readTag(i, wanted && !this.collecting);
    if (end < 0) return -1;
    const { selfClosing, attribs } = this;
    const declares = this.declares && this.declarationsMatter();
    const rawText = selfClosing ? null : this.rawTextName(nameStart, i);
    if (wanted && attribs !== null && !declares && !selfClosing && rawText === null) {
      const next = this.plainElement(known.name, attribs, end + 1);
      if (next >= 0) return next;
    }
    if (wanted && attribs !== null && !declares) this.openDirectly(known, end, selfClosing);
    else if (wanted || declares) this.keepElement(lt, end, known?.name ?? s.slice(nameStart, i), selfClosing, declares);
    return rawText === null ? end + 1 : this.rawText(end + 1, rawText);
  }

  /**
   * When the element whose content starts at `from` holds plain text only and closes at once
   * with its own name, the scanner reads it directly; returns where to go on, or -1 to tokenise it.
   */
  private plainElement(name: string, attribs: Record<string, string>, from: number): number {
    const s = this.s;
    const lt = s.indexOf('<', from);
    if (lt < 0 || s.charCodeAt(lt + 1) !== SLASH || !holdsAt(s, lt + 2, name)) return -1;
    if (!isEndOfTagSection(s.charCodeAt(lt + 2 + name.length))) return -1;
    const gt = s.indexOf('>', lt + 2 + name.length);
    if (gt < 0) return -1;
    const text = s.slice(from, lt);
    if (text.includes('&')) return -1;
    this.flush();
    this.scanner.readPlainElement(name, attribs, text);
    this.collecting = this.scanner.collectingText;
    return gt + 1;
  }

  /** The lower-case name when the tag at [start, end) opens raw text (`<script>`, `<style>`…), else null. */
  private rawTextName(start: number, end: number): string | null {
    const length = end - start;
    const first = this.s.charCodeAt(start) | 0x20;
    if (RAW_TEXT_SHAPES[shapeOf(length, first)] === 0) return null;
    for (const name of RAW_TEXT_ELEMENTS) {
      if (name.length !== length || name.charCodeAt(0) !== first) continue;
      let k = 1;
      while (k < length && (this.s.charCodeAt(start + k) | 0x20) === name.charCodeAt(k)) k++;
      if (k === length) return name;
    }
    return null;
  }

  /** The name at [start, end), as met before in this document when it was. */
  private knownName(start: number, end: number): KnownName {
    const s = this.s;
    const sameLength = this.knownNames[end - start];
    if (sameLength !== undefined) {
      for (const known of sameLength) if (holdsAt(s, start, known.name)) return known;
    }
    const name = s.slice(start, end);
    const known = { name, frame: FRAME_ELEMENTS.has(localName(name).toLowerCase()), wanted: false, wantedIn: null };
    if (this.knownNameCount < MAX_KNOWN_NAMES) {
      (this.knownNames[end - start] ??= []).push(known);
      this.knownNameCount++;
    }
    return known;
  }

  /** `scanner.isWanted`, asked again only when the inline prefixes changed (the scanner replaces the set then). */
  private isWanted(known: KnownName): boolean {
    const prefixes = this.scanner.inlinePrefixSet;
    if (known.wantedIn !== prefixes) {
      known.wanted = this.scanner.isWanted(known.name);
      known.wantedIn = prefixes;
    }
    return known.wanted;
  }

  /** Cheap test before slicing the name: can the scanner want an element of this name at all? */
  private mayBeWanted(start: number, end: number, colon: number): boolean {
    if (colon >= 0) return true;
    const prefixes = this.scanner.inlinePrefixSet;
    if (prefixes !== this.prefixesSeen) {
      this.prefixesSeen = prefixes;
      this.unprefixedInline = prefixes.has('');
    }
    return this.unprefixedInline || INSTANCE_SHAPES[shapeOf(end - start, this.s.charCodeAt(start))] === 1;
  }

  /** A wanted tag outside collected text, without entities or namespace declarations: straight to the scanner. */
  private openDirectly({ name, frame }: KnownName, end: number, selfClosing: boolean): void {
    this.flush();
    this.scanner.openTag(name, this.attribs!, selfClosing);
    if (!selfClosing && frame) this.open.push({ name, declares: false });
    this.collecting = this.scanner.collectingText;
    if (this.collecting) {
      // It collects text: from here the tokenizer reads everything, up to the closing tag that ends it.
      this.pendingStart = end + 1;
      this.pendingEnd = end + 1;
    }
  }

  private keepElement(lt: number, end: number, name: string, selfClosing: boolean, declares: boolean): void {
    const opens = !selfClosing && (declares || FRAME_ELEMENTS.has(localName(name).toLowerCase()));
    if (!this.collecting) this.accept(lt, end + 1);
    if (opens) this.open.push({ name, declares });
    // The scanner reads the tag now when it may start collecting text, or when a namespace
    // declaration may change which names it wants.
    if ((opens && !this.collecting) || declares) this.flushThrough(end + 1);
  }

  /** The first element: it tells the scanner what the document is. */
  private root(name: string, end: number, selfClosing: boolean, attribs: Record<string, string> | null): number {
    this.rootSeen = true;
    if (attribs === null) {
      // Entities in its attributes: the tokenizer reads it, and what comes before it.
      this.accept(0, end + 1);
      this.flush();
    } else {
      this.scanner.openTag(name, attribs, selfClosing);
    }
    if (this.scanner.kind !== 'ixbrl' || selfClosing) {
      // Not inline XBRL (or an odd one): the scanner reads all of it.
      this.scanner.write(this.s.slice(end + 1));
      return Infinity;
    }
    this.open.push({ name: this.scanner.rootName ?? '', declares: false });
    return end + 1;
  }

  private closingTag(lt: number): number {
    const s = this.s;
    const nameStart = lt + 2;
    const c = s.charCodeAt(nameStart);
    if (c === GT) return lt + 3;
    if (!isAsciiAlpha(c)) return after(s.indexOf('>', nameStart), 1); // a bogus comment, or the end
    // A closing tag ends at the first '>' whatever it holds, so its name need not be read first:
    // it only matters when it is the name of an element kept open, which is compared in place.
    const gt = s.indexOf('>', nameStart + 1);
    if (gt < 0) return -1;
    for (let k = this.open.length - 1; k >= 0; k--) {
      const element = this.open[k]!;
      const nameEnd = nameStart + element.name.length;
      if (!holdsAt(s, nameStart, element.name) || !isEndOfTagSection(s.charCodeAt(nameEnd))) continue;
      if (!this.collecting) {
        // Outside collected text: straight to the scanner, after what it has still to read.
        this.flush();
        this.scanner.closeTag(element.name);
        this.open.length = k;
        this.collecting = this.scanner.collectingText;
        break;
      }
      let declared = false;
      while (this.open.length > k) declared = this.open.pop()!.declares || declared;
      // Collecting text may end here, or the namespaces change back: the scanner reads up to here now.
      if (this.collecting || declared) this.flushThrough(gt + 1);
      break;
    }
    return gt + 1;
  }

  /** Skip the raw text of a `<script>`, `<style>`, `<title>`…, up to its closing tag (which is then read as one). */
  private rawText(from: number, lowerName: string): number {
    const s = this.s;
    if (lowerName === 'plaintext') return -1;
    for (let at = s.indexOf('</', from); at >= 0; at = s.indexOf('</', at + 1)) {
      let k = 0;
      while (k < lowerName.length && (s.charCodeAt(at + 2 + k) | 0x20) === lowerName.charCodeAt(k)) k++;
      if (k < lowerName.length) continue;
      const c = s.charCodeAt(at + 2 + k);
      if (Number.isNaN(c)) return -1;
      if (isEndOfTagSection(c)) return at;
    }
    return -1;
  }

  /**
   * The attributes of an opening tag, read as the tokenizer reads them from `i` (just after the
   * name): the index of its `>`, or -1 when the text ends first; whether it closes itself, declares
   * namespaces, and its attributes (when `collect`) are left in the fields above.
   */
  private readTag(i: number, collect: boolean): number {
    const s = this.s;
    this.declares = false;
    // Setting an array's length is a call into the runtime: only when there is something to drop.
    if (this.declarationBounds.length > 0) this.declarationBounds.length = 0;
    this.attribs = collect ? {} : null;
    for (;;) {
      let c = s.charCodeAt(i);
      if (c === GT) {
        this.selfClosing = false;
        return i;
      }
      if (c === SLASH) {
        do c = s.charCodeAt(++i);
        while (isWhitespace(c));
        if (c === GT) {
          this.selfClosing = true;
          return i;
        }
        continue;
      }
      if (isWhitespace(c)) {
        i++;
        continue;
      }
      if (Number.isNaN(c)) return -1;
      // An attribute name: its first character is part of it whatever it is.
      const nameStart = i++;
      for (c = s.charCodeAt(i); c !== EQUALS && !isEndOfTagSection(c); c = s.charCodeAt(++i)) {
        if (Number.isNaN(c)) return -1;
      }
      const nameEnd = i;
      const declaration = nameEnd - nameStart >= 5 && isXmlnsAt(s, nameStart);
      if (declaration) this.declares = true;
      while (isWhitespace(c)) c = s.charCodeAt(++i);
      if (c !== EQUALS) {
        if (declaration) this.declarationBounds.push(nameStart, nameEnd, nameEnd, nameEnd);
        if (this.attribs) this.attribs[attributeName(s, nameStart, nameEnd)] = '';
        continue;
      }
      do c = s.charCodeAt(++i);
      while (isWhitespace(c));
      let valueStart = i;
      let valueEnd: number;
      if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
        valueStart = i + 1;
        valueEnd = s.indexOf(c === DOUBLE_QUOTE ? '"' : "'", valueStart);
        if (valueEnd < 0) return -1;
        i = valueEnd + 1;
      } else {
        while (c !== GT && !isWhitespace(c)) {
          if (Number.isNaN(c)) return -1;
          c = s.charCodeAt(++i);
        }
        valueEnd = i;
      }
      if (declaration) this.declarationBounds.push(nameStart, nameEnd, valueStart, valueEnd);
      if (this.attribs) {
        const value = s.slice(valueStart, valueEnd);
        // Entities in values are decoded by the tokenizer: such a tag is left to it.
        if (value.includes('&')) this.attribs = null;
        else this.attribs[attributeName(s, nameStart, nameEnd)] = value;
      }
    }
  }

  /**
   * Whether the namespace declarations of the tag readTag read may change which prefixes mean
   * inline XBRL. Some software repeats the root's declarations on every fact or span; those change
   * nothing, so the tag is read as if it declared none (and a fact's text need not be tokenised).
   */
  private declarationsMatter(): boolean {
    const s = this.s;
    const bounds = this.declarationBounds;
    const declarations: [string, string][] = [];
    for (let k = 0; k < bounds.length; k += 4) {
      const value = s.slice(bounds[k + 2], bounds[k + 3]);
      if (value.includes('&')) return true; // the tokenizer decodes it: left to the scanner
      declarations.push([s.slice(bounds[k], bounds[k + 1]).toLowerCase(), value]);
    }
    return this.scanner.changesInlinePrefixes(declarations);
  }

  /** Accept [start, end) for the scanner, joining it to what is pending when they touch. */
  private accept(start: number, end: number): void {
    if (this.pendingStart >= 0 && this.pendingEnd === start) {
      this.pendingEnd = end;
      return;
    }
    this.flush();
    this.pendingStart = start;
    this.pendingEnd = end;
  }

  /** Write everything accepted up to `end` (while collecting: all of it) now. */
  private flushThrough(end: number): void {
    this.pendingEnd = end;
    this.flush();
    if (this.collecting) {
      this.pendingStart = end;
      this.pendingEnd = end;
    }
  }

  private flush(): void {
    if (this.pendingStart >= 0 && this.pendingEnd > this.pendingStart) {
      this.scanner.write(this.s.slice(this.pendingStart, this.pendingEnd));
    }
    this.pendingStart = -1;
    this.pendingEnd = -1;
    this.collecting = this.scanner.collectingText;
  }
}

/**
 * Whether `s` holds `name` at `at`. Names are short; this loop is compiled inline, where
 * `startsWith` with a position is a call into a builtin, for every wanted tag and closing tag.
 */
function holdsAt(s: string, at: number, name: string): boolean {
  for (let k = 0; k < name.length; k++) if (s.charCodeAt(at + k) !== name.charCodeAt(k)) return false;
  return true;
}

/** Whether the attribute name at `at` starts with "xmlns", in any case: the scanner reads all of those. */
function isXmlnsAt(s: string, at: number): boolean {
  return (
    (s.charCodeAt(at) | 0x20) === 0x78 &&
    (s.charCodeAt(at + 1) | 0x20) === 0x6d &&
    (s.charCodeAt(at + 2) | 0x20) === 0x6c &&
    (s.charCodeAt(at + 3) | 0x20) === 0x6e &&
    (s.charCodeAt(at + 4) | 0x20) === 0x73
  );
}

/** The position after a token that ends with a `length`-character marker found at `at`, or -1. */
function after(at: number, length: number): number {
  return at < 0 ? -1 : at + length;
}
