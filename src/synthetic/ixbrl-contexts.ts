/**
 * The contexts and units of an inline XBRL filing. Facts ask for a context by period and
 * dimensions; the set hands back an id in the filing software's naming style and writes each
 * context once, in the order first asked for.
 */
import type { Dialect } from './ixbrl-dialect.ts';
import { escapeXml } from './markup.ts';

export interface Period {
  role: 'current' | 'prior';
  /** Instants have no start. */
  start: string | null;
  end: string;
}

export interface Dimension {
  /** Qualified names, prefixes included: "core:MaturitiesOrExpirationPeriodsDimension". */
  dimension: string;
  member: string;
}

const CH_SCHEME = 'http://www.companieshouse.gov.uk/';
const NO_DIMENSIONS: readonly Dimension[] = [];

function ddmmyyyy(iso: string): string {
  return `${iso.slice(8, 10)}_${iso.slice(5, 7)}_${iso.slice(0, 4)}`;
}

function localName(qname: string): string {
  return qname.slice(qname.indexOf(':') + 1);
}

/** The contexts of one filing, named in its dialect; see `id`. */
export class ContextSet {
  private readonly ids = new Map<string, string>();
  /**
   * Ids by the identity of the period object and dimension list: most facts ask for one of four
   * periods with one of a few shared dimension lists, so this skips building the string key.
   */
  private readonly byIdentity = new Map<Period, Map<readonly Dimension[], string>>();
  private readonly usedIds = new Set<string>();
  private readonly definitions: string[] = [];
  private counter = 0;

  /** Markup shared by every context of the filing, built once as flat strings. */
  private readonly entityOpen: string;
  private readonly entityClose: string;
  private readonly tail: string;

  constructor(
    private readonly dialect: Dialect,
    /** The company number as the filing spells it. */
    identifier: string,
  ) {
    const q = dialect.quote;
    const p = dialect.xbrliPrefixed ? 'xbrli:' : '';
    const nl = dialect.prettyContexts ? '\n\t\t\t\t' : '';
    const t = dialect.prettyContexts ? '\t' : '';
    this.entityOpen = [
      nl,
      t,
      '<',
      p,
      'entity>',
      nl,
      t,
      t,
      '<',
      p,
      'identifier scheme=',
      q,
      CH_SCHEME,
      q,
      '>',
      escapeXml(identifier),
      '</',
      p,
      'identifier>',
    ].join('');
    this.entityClose = [nl, t, '</', p, 'entity>', nl, t, '<', p, 'period>'].join('');
    this.tail = [nl, t, '</', p, 'period>'].join('');
  }

  /** The id of the context for `period` with `dimensions`, defining it on first use. */
  id(period: Period, dimensions: readonly Dimension[] = NO_DIMENSIONS): string {
    let forPeriod = this.byIdentity.get(period);
    if (forPeriod === undefined) this.byIdentity.set(period, (forPeriod = new Map()));
    const cached = forPeriod.get(dimensions);
    if (cached !== undefined) return cached;
    const id = this.lookup(period, dimensions);
    forPeriod.set(dimensions, id);
    return id;
  }

  private lookup(period: Period, dimensions: readonly Dimension[]): string {
    let key = `${period.start ?? ''}/${period.end}`;
    // Members are unique across the dimensions used, so they alone tell contexts apart.
    for (const d of dimensions) key += `|${d.member}`;
    let id = this.ids.get(key);
    if (id !== undefined) return id;
    id = this.uniqueId(this.nameFor(period, dimensions));
    this.ids.set(key, id);
    this.definitions.push(this.render(id, period, dimensions));
    return id;
  }

  private nameFor(period: Period, dimensions: readonly Dimension[]): string {
    const instant = period.start === null;
    const current = period.role === 'current';
    switch (this.dialect.contextNaming) {
      case 'vt': {
        const base = `${current ? 'Curr' : 'Prev'}Year${instant ? 'End' : 'Duration'}`;
        return dimensions.length === 0 ? base : `${base}_Dim${String(++this.counter).padStart(3, '0')}`;
      }
      case 'iris': {
        const base = `${instant ? 'cfwd' : 'FY'}_${ddmmyyyy(period.end)}`;
        if (dimensions.length === 0) return base;
        const cube = localName(dimensions[0]!.dimension).replace(/Dimension$/, 'Hypercube');
        return `${cube}_${base}_Set${++this.counter}`;
      }
      case 'webfiling': {
        const base = `${current ? 'current' : 'previous'}-${instant ? 'mud' : 'period'}`;
        if (dimensions.length === 0) return base;
        return `${base}-${dimensions.map((d) => localName(d.member).toLowerCase()).join('-')}`;
      }
      case 'numbered':
        return `c${++this.counter}`;
    }
  }

  private uniqueId(wanted: string): string {
    let id = wanted;
    for (let n = 2; this.usedIds.has(id); n++) id = `${wanted}-${n}`;
    this.usedIds.add(id);
    return id;
  }

  private render(id: string, period: Period, dimensions: readonly Dimension[]): string {
    const d = this.dialect;
    const q = d.quote;
    const p = d.xbrliPrefixed ? 'xbrli:' : '';
    const nl = d.prettyContexts ? '\n\t\t\t\t' : '';
    const t = d.prettyContexts ? '\t' : '';
    const open = d.xbrliPrefixed
      ? `<xbrli:context id=${q}${id}${q}>`
      : `<context id=${q}${id}${q} xmlns=${q}http://www.xbrl.org/2003/instance${q}>`;
    let members = '';
    for (const dim of dimensions) {
      members += `${nl}${t}${t}${t}<xbrldi:explicitMember dimension=${q}${dim.dimension}${q}>${dim.member}</xbrldi:explicitMember>`;
    }
    const container = d.dimensionContainer;
    const qualifiers = members ? `${nl}${t}${t}<${p}${container}>${members}${nl}${t}${t}</${p}${container}>` : '';
    const periodBody =
      period.start === null
        ? `${nl}${t}${t}<${p}instant>${period.end}</${p}instant>`
        : `${nl}${t}${t}<${p}startDate>${period.start}</${p}startDate>${nl}${t}${t}<${p}endDate>${period.end}</${p}endDate>`;
    return (
      nl +
      open +
      this.entityOpen +
      (container === 'segment' ? qualifiers : '') +
      this.entityClose +
      periodBody +
      this.tail +
      (container === 'scenario' ? qualifiers : '') +
      `${nl}</${p}context>`
    );
  }

  /** Every context defined so far, then the units. */
  renderResources(): string {
    const d = this.dialect;
    const q = d.quote;
    const nl = d.prettyContexts ? '\n\t\t\t\t' : '';
    const unit = (id: string, measure: string) =>
      `${nl}<xbrli:unit id=${q}${id}${q}><xbrli:measure>${measure}</xbrli:measure></xbrli:unit>`;
    return (
      this.definitions.join('') +
      unit(d.monetaryUnit, 'iso4217:GBP') +
      unit(d.pureUnit, 'xbrli:pure') +
      unit('shares', 'xbrli:shares')
    );
  }
}
