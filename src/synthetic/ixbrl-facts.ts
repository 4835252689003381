/**
 * Inline XBRL fact markup in a filing's dialect: `ix:nonFraction` for amounts and counts (with the
 * transformation format, scale, decimals and `sign`), `ix:nonNumeric` for text and dates.
 *
 * Negative amounts are written as filers do: the magnitude inside the tag with sign="-", and the
 * brackets printed outside it, where they are presentation only. Zero is a dash under the
 * registry's zero format.
 */
import type { ContextSet, Dimension, Period } from './ixbrl-contexts.ts';
import type { Dialect } from './ixbrl-dialect.ts';
import { dottedDate, dottedShortDate, longDate, shortMonthDate, slashDate } from './dates.ts';
import { groupedDigits } from './markup.ts';

/** One flat string: a joined array is never a rope, so a fragment reused on every fact costs one copy. */
function flat(...parts: string[]): string {
  return parts.join('');
}

/** Writes the facts of one filing in its dialect, registering their contexts as it goes. */
export class FactWriter {
  private readonly q: string;
  private readonly ixNs: string;
  /** Attributes every amount of the filing shares, built once. */
  private readonly moneyTail: string;
  private readonly zeroTail: string;
  private readonly negativeTail: string;

  constructor(
    readonly dialect: Dialect,
    readonly contexts: ContextSet,
  ) {
    const q = (this.q = dialect.quote);
    this.ixNs = dialect.inlineNamespaceOnFacts ? flat(' xmlns:ix=', q, dialect.ixNamespace, q) : '';
    const scale = dialect.scale;
    let attrs = flat(' unitRef=', q, dialect.monetaryUnit, q, ' decimals=', q, scale === 3 ? '-3' : '0', q);
    if (scale !== 0 || dialect.explicitScale) attrs = flat(attrs, ' scale=', q, String(scale), q);
    this.moneyTail = flat(attrs, ' format=', q, dialect.transform.number, q, this.ixNs, '>');
    this.negativeTail = flat(attrs, ' format=', q, dialect.transform.number, q, ' sign=', q, '-', q, this.ixNs, '>');
    this.zeroTail = flat(attrs, ' format=', q, dialect.transform.zero, q, this.ixNs, '>-</ix:nonFraction>');
  }

  /** The start of a fact element: name and context in the dialect's order. */
  private open(element: string, name: string, contextRef: string): string {
    const q = this.q;
    return this.dialect.nameFirst
      ? `<ix:${element} name=${q}${name}${q} contextRef=${q}${contextRef}${q}`
      : `<ix:${element} contextRef=${q}${contextRef}${q} name=${q}${name}${q}`;
  }

  /** A monetary amount, printed as the balance sheet shows it. */
  money(name: string, period: Period, value: number, dimensions?: readonly Dimension[]): string {
    const open = this.open('nonFraction', name, this.contexts.id(period, dimensions));
    if (value === 0) return open + this.zeroTail;
    const shown = groupedDigits(value / 10 ** this.dialect.scale);
    if (value < 0) return `(${open}${this.negativeTail}${shown}</ix:nonFraction>)`;
    return `${open}${this.moneyTail}${shown}</ix:nonFraction>`;
  }

  /** A count (employees, shares) in the pure or shares unit, never scaled. */
  count(
    name: string,
    period: Period,
    value: number,
    options: { unit?: 'pure' | 'shares'; hidden?: boolean; dimensions?: readonly Dimension[] } = {},
  ): string {
    const q = this.q;
    const contextRef = this.contexts.id(period, options.dimensions);
    const unit = options.unit === 'shares' ? 'shares' : this.dialect.pureUnit;
    const head = `${this.open('nonFraction', name, contextRef)} unitRef=${q}${unit}${q} decimals=${q}0${q}`;
    // Hidden facts carry the XML value itself, with no format to undo.
    if (options.hidden) return `${head}${this.ixNs}>${value}</ix:nonFraction>`;
    return `${head} format=${q}${this.dialect.transform.number}${q}${this.ixNs}>${groupedDigits(value)}</ix:nonFraction>`;
  }

  /** A rate or ratio shown as a percentage: "25" with scale -2 is 0.25. */
  percent(name: string, period: Period, percent: number, dimensions: readonly Dimension[] = []): string {
    const q = this.q;
    const contextRef = this.contexts.id(period, dimensions);
    return `${this.open('nonFraction', name, contextRef)} unitRef=${q}${this.dialect.pureUnit}${q} decimals=${q}2${q} scale=${q}-2${q} format=${q}${this.dialect.transform.number}${q}${this.ixNs}>${percent}</ix:nonFraction>`;
  }

  /** A text fact; `content` is markup, already escaped. */
  text(
    name: string,
    period: Period,
    content: string,
    options: { dimensions?: readonly Dimension[]; continuedAt?: string } = {},
  ): string {
    const q = this.q;
    const contextRef = this.contexts.id(period, options.dimensions);
    const continued = options.continuedAt ? ` continuedAt=${q}${options.continuedAt}${q}` : '';
    return `${this.open('nonNumeric', name, contextRef)}${continued}${this.ixNs}>${content}</ix:nonNumeric>`;
  }

  /** A date shown in the dialect's spelling under its date format, or as an ISO date in ix:hidden. */
  date(name: string, period: Period, iso: string, hidden = false): string {
    const q = this.q;
    const contextRef = this.contexts.id(period);
    if (hidden) return `${this.open('nonNumeric', name, contextRef)}${this.ixNs}>${iso}</ix:nonNumeric>`;
    return `${this.open('nonNumeric', name, contextRef)} format=${q}${this.dialect.transform.date}${q}${this.ixNs}>${this.spellDate(iso)}</ix:nonNumeric>`;
  }

  /** The date as the dialect prints it. */
  spellDate(iso: string): string {
    switch (this.dialect.transform.dateSpelling) {
      case 'long':
        return longDate(iso);
      case 'short':
        return shortMonthDate(iso);
      case 'slash':
        return slashDate(iso);
      case 'dots':
        return dottedDate(iso);
      case 'dotted-short':
        return dottedShortDate(iso);
    }
  }
}
