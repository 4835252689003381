/**
 * One pass over a filing's markup that collects what figure extraction needs: contexts, units,
 * facts (inline `ix:nonFraction`/`ix:nonNumeric`, or plain XBRL elements), continuations and
 * schema references. Nothing else of the document is kept, so memory follows the number of facts,
 * not the size of the file.
 *
 * htmlparser2 runs in its forgiving HTML mode: real filings are often not well-formed XML, entity
 * declarations in a DOCTYPE are never expanded (no entity blow-up, no external fetch), and a
 * truncated file ends with implied closes that reveal the truncation.
 */
import { Parser } from 'htmlparser2';

export interface Dimension {
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

interface Frame {
  tag: string;
  close(): void;
}

interface Accumulator {
  parts: string[];
  length: number;
  limit: number;
  excludeDepth: number;
  overflow: boolean;
}

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
  private readonly parser: Parser;
  private readonly frames: Frame[] = [];
  private readonly accumulators: Accumulator[] = [];
  private inlinePrefixes = new Set<string>();
  private excludeDepth = 0;
  private context: RawContext | null = null;
  private unit: { id: string; measures: string[] } | null = null;
  private capture: { parts: string[] } | null = null;

  constructor(private readonly options: ScanOptions) {
    this.parser = new Parser(
      {
        onopentag: (name, attribs) => this.open(name, attribs),
        onclosetag: (name, isImplied) => this.close(name, isImplied),
        ontext: (text) => this.text(text),
      },
      {
        xmlMode: false,
        decodeEntities: true,
        lowerCaseTags: false,
        lowerCaseAttributeNames: true,
        recognizeSelfClosing: true,
        recognizeCDATA: true,
      },
    );
  }

  write(text: string): void {
    this.parser.write(text);
  }

  finish(): ScannedDocument {
    this.parser.end();
    return this.doc;
  }

  private open(name: string, attribs: Record<string, string>): void {
    const colon = name.indexOf(':');
    const prefix = colon < 0 ? '' : name.slice(0, colon);
    const local = (colon < 0 ? name : name.slice(colon + 1)).toLowerCase();

    if (this.doc.rootName === null) this.openRoot(name, local, attribs);
    else this.declareNamespaces(name, attribs);

    if (this.doc.kind === 'ixbrl' && this.inlinePrefixes.has(prefix)) {
      this.openInline(name, local, attribs);
      return;
    }
    if (this.doc.kind === 'xbrl' && attribs.contextref !== undefined && this.context === null) {
      this.openPlainFact(name, attribs);
      return;
    }
    switch (local) {
      case 'context':
        this.openContext(name, attribs);
        return;
      case 'identifier':
        if (this.context) this.captureInto(name, (text) => this.setIdentifier(attribs.scheme ?? '', text));
        return;
      case 'startdate':
        if (this.context) this.captureInto(name, (text) => (this.context!.startDate = text.trim()));
        return;
      case 'enddate':
        if (this.context) this.captureInto(name, (text) => (this.context!.endDate = text.trim()));
        return;
      case 'instant':
        if (this.context) this.captureInto(name, (text) => (this.context!.instant = text.trim()));
        return;
      case 'explicitmember':
      case 'typedmember':
        if (this.context) {
          const dimension = localName(attribs.dimension ?? '');
          this.captureInto(name, (text) => {
            const member = local === 'explicitmember' ? localName(text.trim()) : text.trim();
            this.context!.dimensions.push({ dimension, member });
          });
        }
        return;
      case 'unit':
        if (this.context === null && attribs.id !== undefined) {
          const unit = { id: attribs.id, measures: [] as string[] };
          this.unit = unit;
          this.frames.push({
            tag: name,
            close: () => {
              this.doc.units.set(unit.id, unit.measures.join('/'));
              this.unit = null;
            },
          });
        }
        return;
      case 'measure':
        if (this.unit) {
          const unit = this.unit;
          this.captureInto(name, (text) => unit.measures.push(localName(text.trim())));
        }
        return;
      case 'schemaref': {
        const href = attribs['xlink:href'] ?? attribs.href;
        if (href) this.doc.schemaRefs.push(href);
        return;
      }
    }
  }

  private openRoot(name: string, local: string, attribs: Record<string, string>): void {
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
    this.frames.push({ tag: name, close: () => undefined });
  }

  /**
   * Namespace declarations below the root are scoped to their element. Some software writes
   * `<nonFraction xmlns="http://www.xbrl.org/2013/inlineXBRL">`, making the inline namespace the
   * default for that element only.
   */
  private declareNamespaces(name: string, attribs: Record<string, string>): void {
    let changed: Set<string> | null = null;
    for (const attr in attribs) {
      if (attr !== 'xmlns' && !attr.startsWith('xmlns:')) continue;
      const prefix = attr === 'xmlns' ? '' : attr.slice(6);
      const isInline = INLINE_NAMESPACE.test(attribs[attr]!.trim());
      if (isInline === this.inlinePrefixes.has(prefix)) continue;
      changed ??= new Set(this.inlinePrefixes);
      if (isInline) changed.add(prefix);
      else changed.delete(prefix);
    }
    if (changed === null) return;
    const outer = this.inlinePrefixes;
    this.inlinePrefixes = changed;
    this.frames.push({ tag: name, close: () => (this.inlinePrefixes = outer) });
  }

  private openInline(name: string, local: string, attribs: Record<string, string>): void {
    switch (local) {
      case 'nonfraction':
      case 'nonnumeric': {
        const numeric = local === 'nonfraction';
        const wanted = numeric || this.options.wantedText.has(localName(attribs.name ?? ''));
        const acc = wanted ? this.startAccumulator(numeric ? MAX_NUMBER_TEXT : MAX_TEXT) : null;
        this.frames.push({
          tag: name,
          close: () => {
            if (acc) this.stopAccumulator(acc);
            if (!wanted) return;
            this.doc.facts.push(factFrom(attribs, numeric, acc!));
          },
        });
        return;
      }
      case 'continuation': {
        const id = attribs.id;
        const acc =
          id !== undefined && this.doc.continuations.size < MAX_CONTINUATIONS ? this.startAccumulator(MAX_TEXT) : null;
        this.frames.push({
          tag: name,
          close: () => {
            if (!acc || id === undefined) return;
            this.stopAccumulator(acc);
            this.doc.continuations.set(id, { text: acc.parts.join(''), continuedAt: attribs.continuedat ?? null });
          },
        });
        return;
      }
      case 'exclude':
        this.excludeDepth++;
        this.frames.push({ tag: name, close: () => this.excludeDepth-- });
        return;
    }
  }

  private openPlainFact(name: string, attribs: Record<string, string>): void {
    const numeric = attribs.unitref !== undefined;
    const wanted = numeric || this.options.wantedText.has(localName(name));
    if (!wanted) return;
    const acc = this.startAccumulator(numeric ? MAX_NUMBER_TEXT : MAX_TEXT);
    this.frames.push({
      tag: name,
      close: () => {
        this.stopAccumulator(acc);
        this.doc.facts.push(factFrom({ ...attribs, name }, numeric, acc));
      },
    });
  }

  private openContext(name: string, attribs: Record<string, string>): void {
    const context: RawContext = {
      id: attribs.id ?? '',
      scheme: '',
      identifier: '',
      startDate: null,
      endDate: null,
      instant: null,
      dimensions: [],
    };
    this.context = context;
    this.frames.push({
      tag: name,
      close: () => {
        if (context.id) this.doc.contexts.set(context.id, context);
        this.context = null;
      },
    });
  }

  private setIdentifier(scheme: string, text: string): void {
    this.context!.scheme = scheme.trim();
    this.context!.identifier = text.trim();
  }

  private captureInto(tag: string, done: (text: string) => void): void {
    const capture = { parts: [] as string[] };
    this.capture = capture;
    this.frames.push({
      tag,
      close: () => {
        done(capture.parts.join(''));
        this.capture = null;
      },
    });
  }

  private startAccumulator(limit: number): Accumulator {
    const acc: Accumulator = { parts: [], length: 0, limit, excludeDepth: this.excludeDepth, overflow: false };
    this.accumulators.push(acc);
    return acc;
  }

  private stopAccumulator(acc: Accumulator): void {
    const at = this.accumulators.lastIndexOf(acc);
    if (at >= 0) this.accumulators.splice(at, 1);
  }

  private text(text: string): void {
    if (this.capture) this.capture.parts.push(text);
    for (const acc of this.accumulators) {
      if (acc.excludeDepth !== this.excludeDepth || acc.overflow) continue;
      if (acc.length + text.length > acc.limit) {
        acc.overflow = true;
        continue;
      }
      acc.parts.push(text);
      acc.length += text.length;
    }
  }

  private close(name: string, isImplied: boolean): void {
    if (name === this.doc.rootName && !isImplied && this.frames.length > 0 && this.frames[0]!.tag === name) {
      this.doc.rootClosed = true;
    }
    for (let i = this.frames.length - 1; i >= 0; i--) {
      if (this.frames[i]!.tag !== name) continue;
      // Close everything opened inside the element too: malformed markup leaves tags open.
      while (this.frames.length > i) this.frames.pop()!.close();
      return;
    }
  }
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
    text: acc.parts.join(''),
    overflow: acc.overflow,
  };
}

/** "frs-core:Equity" -> "Equity". */
export function localName(qname: string): string {
  return qname.slice(qname.indexOf(':') + 1);
}
