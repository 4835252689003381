/**
 * One pass over a filing's markup that collects what figure extraction needs: contexts, units,
 * facts (inline `ix:nonFraction`/`ix:nonNumeric`, or plain XBRL elements), continuations and
 * schema references. Nothing else of the document is kept, so memory follows the number of facts,
 * not the size of the file.
 *
 * It drives htmlparser2's tokenizer directly, in its forgiving HTML mode: real filings are often
 * not well-formed XML, and entity declarations in a DOCTYPE are never expanded (no entity blow-up,
 * no external fetch). Going below htmlparser2's Parser matters for speed: text is sliced only
 * inside the facts and contexts that are kept, and attributes are collected only for tags that
 * matter, which makes the scan about three times faster on typical filings.
 */
import { Parser, Tokenizer } from 'htmlparser2';

interface Dimension {
  /** Local name of the dimension, e.g. "MaturitiesOrExpirationPeriodsDimension". */
  dimension: string;
  /** Local name of an explicit member, or the text of a typed member. */
  member: string;
}

export interface RawContext {
  id: string;
  scheme: string;
  identifier: string;
  startDate: string | null;
  endDate: string | null;
  instant: string | null;
  dimensions: Dimension[];
}

export interface RawFact {
  /** Concept QName as written, e.g. "core:NetAssetsLiabilities". */
  name: string;
  numeric: boolean;
  contextRef: string;
  unitRef: string | null;
  format: string | null;
  scale: string | null;
  sign: string | null;
  decimals: string | null;
  nil: boolean;
  continuedAt: string | null;
  /** Displayed text (inline) or element content (plain XBRL); only kept for facts that matter. */
  text: string;
  /** True when the text was longer than kept: the fact cannot be read reliably. */
  overflow: boolean;
}

export interface ScannedDocument {
  kind: 'ixbrl' | 'xbrl' | 'other';
  rootName: string | null;
  /** False when the root element never closed: the file was cut short. */
  rootClosed: boolean;
  namespaces: Map<string, string>;
  contexts: Map<string, RawContext>;
  units: Map<string, string>;
  facts: RawFact[];
  continuations: Map<string, { text: string; continuedAt: string | null }>;
  schemaRefs: string[];
}

export interface ScanOptions {
  /** Local names of non-numeric concepts whose text is wanted; every other text fact is skipped. */
  wantedText: ReadonlySet<string>;
}

const INLINE_NAMESPACE = /^https?:\/\/www\.xbrl\.org\/(2008|2013)\/inlineXBRL\/?$/;
const MAX_NUMBER_TEXT = 256;
const MAX_TEXT = 2048;
const MAX_CONTINUATIONS = 10_000;

/**
 * Local names of the XBRL instance elements read inside contexts and units, as the XBRL schema
 * spells them and lower-cased (the element names HTML-minded software writes).
 */
export const INSTANCE_ELEMENTS: ReadonlySet<string> = new Set(
  [
    'context',
    'identifier',
    'startDate',
    'endDate',
    'instant',
    'explicitMember',
    'typedMember',
    'unit',
    'measure',
    'schemaRef',
  ].flatMap((name) => [name, name.toLowerCase()]),
);

/**
 * Text collected for a fact or continuation. Pieces are joined as they come: most facts are one
 * piece, which then costs nothing, where an array of parts cost an allocation per fact.
 */
interface Accumulator {
  text: string;
  limit: number;
  excludeDepth: number;
  overflow: boolean;
}

interface NameParts {
  prefix: string;
  /** As written, and lower-cased. */
  local: string;
  lowerLocal: string;
}

/** Names remembered per document; documents use a few dozen, but nothing stops one using millions. */
const MAX_NAME_PARTS = 256;

/** What an open element of interest does when it closes. */
type Frame =
  | { tag: string; kind: 'root' }
  | { tag: string; kind: 'fact'; attribs: Record<string, string>; numeric: boolean; acc: Accumulator | null }
  | { tag: string; kind: 'continuation'; id: string | undefined; continuedAt: string | null; acc: Accumulator | null }
  | { tag: string; kind: 'exclude' }
  | { tag: string; kind: 'context'; context: RawContext }
  | { tag: string; kind: 'unit'; id: string; measures: string[] }
  | { tag: string; kind: 'capture'; field: CaptureField; attribs: Record<string, string>; text: string }
  | { tag: string; kind: 'namespaces'; outer: Set<string> };

type CaptureField = 'identifier' | 'startdate' | 'enddate' | 'instant' | 'explicitmember' | 'typedmember' | 'measure';

/** A scanner that accepts text in pieces; `finish()` returns what it found. */
export class DocumentScanner {
  private readonly doc: ScannedDocument = {
    kind: 'other',
    rootName: null,
    rootClosed: false,
    namespaces: new Map(),
    contexts: new Map(),
    units: new Map(),
    facts: [],
    continuations: new Map(),
    schemaRefs: [],
  };
  /** Made when text is first written: the skimmer hands most documents over without any. */
  private tokenizer: Tokenizer | null = null;
  private readonly frames: Frame[] = [];
  private readonly nameParts = new Map<string, NameParts>();
  private readonly accumulators: Accumulator[] = [];
  private inlinePrefixes = new Set<string>();
  private excludeDepth = 0;
  private context: RawContext | null = null;
  private unit: Extract<Frame, { kind: 'unit' }> | null = null;
  private capture: Extract<Frame, { kind: 'capture' }> | null = null;

  // Text already written, kept from the oldest position a pending slice may still need.
  private chunks: string[] = [];
  private chunksStart = 0;

  // The tag being opened.
  private tagName = '';
  private tagWanted = false;
  private attribs: Record<string, string> | null = null;
  private attribName = '';
  private attribValue = '';
  private attribCaptured = false;
  // Where the tag being opened starts, to re-read it when it turns out to matter; see onOpenTagEnd.
  private tagStart = 0;

  constructor(private readonly options: ScanOptions) {}

  private createTokenizer(): Tokenizer {
    return new Tokenizer(
      { xmlMode: false, decodeEntities: true, recognizeSelfClosing: true },
      {
        onopentagname: (start, end) => this.onOpenTagName(start, end),
        onattribname: (start, end) => this.onAttribName(start, end),
        onattribdata: (start, end) => {
          if (this.attribCaptured) this.attribValue += this.slice(start, end);
        },
        onattribentity: (codepoint) => {
          if (this.attribCaptured) this.attribValue += String.fromCodePoint(codepoint);
        },
        onattribend: () => {
          if (this.attribCaptured) (this.attribs ??= {})[this.attribName] = this.attribValue;
        },
        onopentagend: (end) => this.onOpenTagEnd(false, end),
        onselfclosingtag: (end) => this.onOpenTagEnd(true, end),
        onclosetag: (start, end) => this.close(this.slice(start, end)),
        ontext: (start, end) => {
          if (this.capture !== null || this.accumulators.length > 0) this.text(this.slice(start, end));
        },
        ontextentity: (codepoint) => {
          if (this.capture !== null || this.accumulators.length > 0) this.text(String.fromCodePoint(codepoint));
        },
        oncdata: (start, end, endOffset) => {
          if (this.capture !== null || this.accumulators.length > 0) this.text(this.slice(start, end - endOffset));
        },
        oncomment: () => undefined,
        ondeclaration: () => undefined,
        onprocessinginstruction: () => undefined,
        onend: () => undefined,
      },
    );
  }

  write(text: string): void {
    this.chunks.push(text);
    (this.tokenizer ??= this.createTokenizer()).write(text);
  }

  finish(): ScannedDocument {
    // A tokenizer never written to has nothing to end.
    this.tokenizer?.end();
    // Whatever is still open was never closed: read what it holds, as a forgiving parser would.
    while (this.frames.length > 0) this.closeFrame(this.frames.pop()!);
    return this.doc;
  }

  /** Text between two absolute positions of everything written so far. */
  private slice(start: number, end: number): string {
    while (this.chunks.length > 1 && start >= this.chunksStart + this.chunks[0]!.length) {
      this.chunksStart += this.chunks.shift()!.length;
    }
    const first = this.chunks[0]!;
    const from = start - this.chunksStart;
    if (end - this.chunksStart <= first.length) return first.slice(from, end - this.chunksStart);
    return this.chunks.join('').slice(from, end - this.chunksStart);
  }

  private charCodeAt(position: number): number {
    const first = this.chunks[0]!;
    const at = position - this.chunksStart;
    return at < first.length ? first.charCodeAt(at) : this.slice(position, position + 1).charCodeAt(0);
  }

  private onOpenTagName(start: number, end: number): void {
    const name = this.slice(start, end);
    this.tagName = name;
    this.tagStart = start - 1;
    this.attribs = null;
    this.tagWanted = this.isWanted(name);
  }

  /**
   * The attributes of the tag being opened, read again from its source. Attributes are collected
   * only for tags that look relevant by name; a tag whose own xmlns makes it inline XBRL is
   * rare enough to re-read with htmlparser2's Parser.
   */
  private reReadAttributes(end: number): Record<string, string> {
    let attribs: Record<string, string> = {};
    const parser = new Parser(
      { onopentag: (_name, read) => (attribs = read) },
      { lowerCaseAttributeNames: true, decodeEntities: true },
    );
    parser.end(this.slice(this.tagStart, end + 1));
    return attribs;
  }

  /** What kind of document the root element made this; 'other' until the root is seen. */
  get kind(): ScannedDocument['kind'] {
    return this.doc.kind;
  }

  /** The root element's name as written, once it has been read. */
  get rootName(): string | null {
    return this.doc.rootName;
  }

  /**
   * The prefixes that currently mean inline XBRL. Once the root is read, a namespace declaration
   * that changes them replaces the set (and closing its element puts the old one back): the set
   * itself never changes, so a caller may remember what it decided for it.
   */
  get inlinePrefixSet(): ReadonlySet<string> {
    return this.inlinePrefixes;
  }

  /**
   * An opening tag read by the skimmer, handled as the tokenised one would be: `attribs` holds all
   * its attributes (names lower-cased, values without entities), and unless it is the root, any
   * namespaces it declares change nothing (`changesInlinePrefixes` said so).
   */
  openTag(name: string, attribs: Record<string, string>, selfClosing: boolean): void {
    const wanted = this.isWanted(name);
    const depth = this.frames.length;
    if (this.doc.rootName === null) this.openRoot(name, attribs);
    if (wanted) this.open(name, attribs);
    if (selfClosing) while (this.frames.length > depth) this.closeFrame(this.frames.pop()!);
  }

  /** A closing tag read by the skimmer. */
  closeTag(name: string): void {
    this.close(name);
  }

  /**
   * Read `<name attribs>text</name>` as if it had been tokenised: a wanted element whose namespace
   * declarations (if any) change nothing, with nothing but plain text inside (no markup, no
   * entities), its attribute names lower-cased and values as written. The skimmer hands such
   * elements over directly, which spares tokenising most facts and context dates.
   */
  readPlainElement(name: string, attribs: Record<string, string>, text: string): void {
    this.open(name, attribs);
    if (text !== '' && (this.capture !== null || this.accumulators.length > 0)) this.text(text);
    this.close(name);
  }

  /** True while an open element collects text (a fact, a continuation, a context's dates…): text matters. */
  get collectingText(): boolean {
    return this.accumulators.length > 0 || this.capture !== null;
  }

  /** Whether an element of this name would be read (attributes collected, opened): the rest is skipped. */
  isWanted(name: string): boolean {
    if (this.doc.rootName === null || this.doc.kind === 'xbrl') return true;
    // Contexts may be prefixed (xbrli:context) or in a default namespace (<context>).
    const parts = this.partsOf(name);
    return this.inlinePrefixes.has(parts.prefix) || INSTANCE_ELEMENTS.has(parts.local);
  }

  /**
   * The parts of an element name, worked out once per name and document: every fact and context
   * asks for them, and slicing them again each time cost more than the lookup.
   */
  private partsOf(name: string): NameParts {
    let parts = this.nameParts.get(name);
    if (parts === undefined) {
      const local = localName(name);
      parts = { prefix: prefixOf(name), local, lowerLocal: local.toLowerCase() };
      if (this.nameParts.size < MAX_NAME_PARTS) this.nameParts.set(name, parts);
    }
    return parts;
  }

  private onAttribName(start: number, end: number): void {
    // An xmlns declaration can make any element an inline XBRL one, so those are always read.
    if (!this.tagWanted && (this.charCodeAt(start) | 0x20) !== 0x78 /* x */) {
      this.attribCaptured = false;
      return;
    }
    const name = this.slice(start, end).toLowerCase();
    this.attribCaptured = this.tagWanted || name.startsWith('xmlns');
    if (!this.attribCaptured) return;
    this.attribName = name;
    this.attribValue = '';
  }

  private onOpenTagEnd(selfClosing: boolean, end: number): void {
    const name = this.tagName;
    const attribs = this.attribs ?? {};
    const depth = this.frames.length;
    if (this.doc.rootName === null) this.openRoot(name, attribs);
    else if (this.attribs !== null) this.declareNamespaces(name, attribs);
    if (this.tagWanted) this.open(name, attribs);
    else if (this.inlinePrefixes.has(prefixOf(name))) {
      // The tag's own xmlns made it inline XBRL after its other attributes went by uncollected.
      this.open(name, this.reReadAttributes(end));
    }
    // A self-closed element opens and closes at once.
    if (selfClosing) while (this.frames.length > depth) this.closeFrame(this.frames.pop()!);
  }

  private open(name: string, attribs: Record<string, string>): void {
    const parts = this.partsOf(name);
    const local = parts.lowerLocal;

    if (this.doc.kind === 'ixbrl' && this.inlinePrefixes.has(parts.prefix)) {
      this.openInline(name, local, attribs);
      return;
    }
    if (this.doc.kind === 'xbrl' && attribs.contextref !== undefined && this.context === null) {
      this.openPlainFact(name, attribs);
      return;
    }
    switch (local) {
      case 'context':
        this.context = {
          id: attribs.id ?? '',
          scheme: '',
          identifier: '',
          startDate: null,
          endDate: null,
          instant: null,
          dimensions: [],
        };
        this.frames.push({ tag: name, kind: 'context', context: this.context });
        return;
      case 'identifier':
      case 'startdate':
      case 'enddate':
      case 'instant':
      case 'explicitmember':
      case 'typedmember':
        if (this.context) this.startCapture(name, local, attribs);
        return;
      case 'unit':
        if (this.context === null && attribs.id !== undefined) {
          this.unit = { tag: name, kind: 'unit', id: attribs.id, measures: [] };
          this.frames.push(this.unit);
        }
        return;
      case 'measure':
        if (this.unit) this.startCapture(name, local, attribs);
        return;
      case 'schemaref': {
        const href = attribs['xlink:href'] ?? attribs.href;
        if (href) this.doc.schemaRefs.push(href);
        return;
      }
    }
  }

  private openRoot(name: string, attribs: Record<string, string>): void {
    const local = localName(name).toLowerCase();
    this.doc.rootName = name;
    this.doc.kind = local === 'html' ? 'ixbrl' : local === 'xbrl' ? 'xbrl' : 'other';
    for (const [attr, value] of Object.entries(attribs)) {
      if (attr === 'xmlns' || attr.startsWith('xmlns:')) {
        const prefix = attr === 'xmlns' ? '' : attr.slice(6);
        this.doc.namespaces.set(prefix, value.trim());
        if (INLINE_NAMESPACE.test(value.trim())) this.inlinePrefixes.add(prefix);
      }
    }
    // Filings that never declare the inline namespace still mean it by "ix:".
    if (this.inlinePrefixes.size === 0) this.inlinePrefixes.add('ix');
    this.frames.push({ tag: name, kind: 'root' });
  }

  /**
   * Namespace declarations below the root are scoped to their element. Some software writes
   * `<nonFraction xmlns="http://www.xbrl.org/2013/inlineXBRL">`, making the inline namespace the
   * default for that element only.
   */
  private declareNamespaces(name: string, attribs: Record<string, string>): void {
    let changed: Set<string> | null = null;
    for (const attr in attribs) {
      const prefix = declaredPrefix(attr);
      if (prefix === null) continue;
      const isInline = INLINE_NAMESPACE.test(attribs[attr]!.trim());
      if (isInline === this.inlinePrefixes.has(prefix)) continue;
      changed ??= new Set(this.inlinePrefixes);
      if (isInline) changed.add(prefix);
      else changed.delete(prefix);
    }
    if (changed === null) return;
    this.frames.push({ tag: name, kind: 'namespaces', outer: this.inlinePrefixes });
    this.inlinePrefixes = changed;
  }

  /**
   * Whether namespace declarations (attribute names lower-cased, values without entities) on an
   * element opened now would change which prefixes mean inline XBRL. When they would not,
   * `openTag` reads the element exactly as the tokenised one would be read.
   */
  changesInlinePrefixes(declarations: readonly (readonly [string, string])[]): boolean {
    for (const [attr, value] of declarations) {
      const prefix = declaredPrefix(attr);
      if (prefix !== null && INLINE_NAMESPACE.test(value.trim()) !== this.inlinePrefixes.has(prefix)) return true;
    }
    return false;
  }

  private openInline(name: string, local: string, attribs: Record<string, string>): void {
    switch (local) {
      case 'nonfraction':
      case 'nonnumeric': {
        const numeric = local === 'nonfraction';
        const wanted = numeric || this.options.wantedText.has(localName(attribs.name ?? ''));
        const acc = wanted ? this.startAccumulator(numeric ? MAX_NUMBER_TEXT : MAX_TEXT) : null;
        this.frames.push({ tag: name, kind: 'fact', attribs, numeric, acc });
        return;
      }
      case 'continuation': {
        const id = attribs.id;
        const room = id !== undefined && this.doc.continuations.size < MAX_CONTINUATIONS;
        const acc = room ? this.startAccumulator(MAX_TEXT) : null;
        this.frames.push({ tag: name, kind: 'continuation', id, continuedAt: attribs.continuedat ?? null, acc });
        return;
      }
      case 'exclude':
        this.excludeDepth++;
        this.frames.push({ tag: name, kind: 'exclude' });
        return;
    }
  }

  private openPlainFact(name: string, attribs: Record<string, string>): void {
    const numeric = attribs.unitref !== undefined;
    if (!numeric && !this.options.wantedText.has(localName(name))) return;
    const acc = this.startAccumulator(numeric ? MAX_NUMBER_TEXT : MAX_TEXT);
    this.frames.push({ tag: name, kind: 'fact', attribs: { ...attribs, name }, numeric, acc });
  }

  private startCapture(tag: string, field: string, attribs: Record<string, string>): void {
    this.capture = { tag, kind: 'capture', field: field as CaptureField, attribs, text: '' };
    this.frames.push(this.capture);
  }

  private startAccumulator(limit: number): Accumulator {
    const acc: Accumulator = { text: '', limit, excludeDepth: this.excludeDepth, overflow: false };
    this.accumulators.push(acc);
    return acc;
  }

  private stopAccumulator(acc: Accumulator): void {
    // Nearly always the last one: popped, without the array splice would allocate for what it removes.
    if (this.accumulators.at(-1) === acc) {
      this.accumulators.pop();
      return;
    }
    const at = this.accumulators.lastIndexOf(acc);
    if (at >= 0) this.accumulators.splice(at, 1);
  }

  private text(text: string): void {
    if (this.capture) this.capture.text += text;
    for (const acc of this.accumulators) {
      if (acc.excludeDepth !== this.excludeDepth || acc.overflow) continue;
      if (acc.text.length + text.length > acc.limit) {
        acc.overflow = true;
        continue;
      }
      acc.text += text;
    }
  }

  private close(name: string): void {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      if (this.frames[i]!.tag !== name) continue;
      if (i === 0 && this.frames[0]!.kind === 'root') this.doc.rootClosed = true;
      // Close everything opened inside the element too: malformed markup leaves tags open.
      while (this.frames.length > i) this.closeFrame(this.frames.pop()!);
      return;
    }
  }

  private closeFrame(frame: Frame): void {
    switch (frame.kind) {
      case 'fact':
        if (frame.acc) {
          this.stopAccumulator(frame.acc);
          this.doc.facts.push(factFrom(frame.attribs, frame.numeric, frame.acc));
        }
        return;
      case 'continuation':
        if (frame.acc && frame.id !== undefined) {
          this.stopAccumulator(frame.acc);
          this.doc.continuations.set(frame.id, { text: frame.acc.text, continuedAt: frame.continuedAt });
        }
        return;
      case 'exclude':
        this.excludeDepth--;
        return;
      case 'context':
        if (frame.context.id) this.doc.contexts.set(frame.context.id, frame.context);
        this.context = null;
        return;
      case 'unit':
        this.doc.units.set(frame.id, frame.measures.join('/'));
        this.unit = null;
        return;
      case 'capture':
        this.capture = null;
        this.finishCapture(frame);
        return;
      case 'namespaces':
        this.inlinePrefixes = frame.outer;
        return;
      case 'root':
        return;
    }
  }

  private finishCapture(frame: Extract<Frame, { kind: 'capture' }>): void {
    const text = frame.text.trim();
    const context = this.context;
    switch (frame.field) {
      case 'identifier':
        if (context) {
          context.scheme = (frame.attribs.scheme ?? '').trim();
          context.identifier = text;
        }
        return;
      case 'startdate':
        if (context) context.startDate = text;
        return;
      case 'enddate':
        if (context) context.endDate = text;
        return;
      case 'instant':
        if (context) context.instant = text;
        return;
      case 'explicitmember':
      case 'typedmember':
        context?.dimensions.push({
          dimension: localName(frame.attribs.dimension ?? ''),
          member: frame.field === 'explicitmember' ? localName(text) : text,
        });
        return;
      case 'measure':
        this.unit?.measures.push(localName(text));
        return;
    }
  }
}

/** The prefix an attribute (lower-cased) declares: '' for `xmlns`, `p` for `xmlns:p`, else null. */
function declaredPrefix(attr: string): string | null {
  if (attr === 'xmlns') return '';
  return attr.startsWith('xmlns:') ? attr.slice(6) : null;
}

function prefixOf(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? '' : name.slice(0, colon);
}

function factFrom(attribs: Record<string, string>, numeric: boolean, acc: Accumulator): RawFact {
  return {
    name: (attribs.name ?? '').trim(),
    numeric,
    contextRef: (attribs.contextref ?? '').trim(),
    unitRef: attribs.unitref?.trim() ?? null,
    format: attribs.format?.trim() || null,
    scale: attribs.scale?.trim() || null,
    sign: attribs.sign?.trim() || null,
    decimals: (attribs.decimals ?? attribs.precision)?.trim() || null,
    nil: (attribs['xsi:nil'] ?? '').trim() === 'true',
    continuedAt: attribs.continuedat?.trim() || null,
    text: acc.text,
    overflow: acc.overflow,
  };
}

/** "frs-core:Equity" -> "Equity". */
export function localName(qname: string): string {
  return qname.slice(qname.indexOf(':') + 1);
}
