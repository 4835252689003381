/**
 * Turn scanned numeric facts into numbers, applying the inline XBRL rules: the format's
 * transformation, then `scale` (which may be negative), then `sign="-"`. A minus or parentheses
 * inside the tagged text also make the value negative, but never negate a `sign="-"` value
 * back to positive. Text outside the tag (the printed brackets of a negative) is presentation and
 * is not part of the fact.
 */
import { applyScale, readNumber } from './ixbrl-transforms.ts';
import type { RawContext, RawFact, ScannedDocument } from './scan-document.ts';
import { localName } from './scan-document.ts';

export interface NumericFact {
  /** Concept local name. */
  concept: string;
  context: RawContext;
  /** instant, or the end of a duration. */
  date: string;
  periodType: 'instant' | 'duration';
  value: number;
  /** XBRL decimals (or precision for plain XBRL); Infinity for INF; null when absent. */
  decimals: number | null;
  unit: string | null;
  /** Position in the document, for "first wins" tie breaks. */
  order: number;
}

export interface ReadFacts {
  facts: NumericFact[];
  /** One message per fact that could not be read. */
  problems: string[];
}

/**
 * Read every numeric fact of `doc`. All of them date the periods; only problems with concepts
 * that `reportProblems` accepts are worth telling the user about.
 */
export function readNumericFacts(doc: ScannedDocument, reportProblems: (concept: string) => boolean): ReadFacts {
  const facts: NumericFact[] = [];
  const problems: string[] = [];
  doc.facts.forEach((raw, order) => {
    if (!raw.numeric || raw.nil) return;
    const concept = localName(raw.name);
    const context = doc.contexts.get(raw.contextRef);
    if (!context) {
      noteProblem(problems, reportProblems, concept, `${raw.name}: context "${raw.contextRef}" is not defined`);
      return;
    }
    const date = context.instant ?? context.endDate;
    if (!date || !/^\d{4}-\d{2}-\d{2}/.test(date)) {
      noteProblem(problems, reportProblems, concept, `${raw.name}: context "${raw.contextRef}" has no usable period`);
      return;
    }
    const value = doc.kind === 'xbrl' ? readPlainValue(raw) : readInlineValue(raw);
    if (typeof value === 'string') {
      noteProblem(problems, reportProblems, concept, `${raw.name} in context "${raw.contextRef}": ${value}`);
      return;
    }
    facts.push({
      concept,
      context,
      date: date.slice(0, 10),
      periodType: context.instant ? 'instant' : 'duration',
      value,
      decimals: readDecimals(raw.decimals),
      unit: raw.unitRef === null ? null : (doc.units.get(raw.unitRef) ?? raw.unitRef),
      order,
    });
  });
  return { facts, problems };
}

/**
 * Keep a problem when its concept is worth telling about. A plain function rather than a closure
 * made for every fact: problems are rare, and under tsx each such closure is also given a name.
 */
function noteProblem(problems: string[], report: (concept: string) => boolean, concept: string, message: string): void {
  if (report(concept)) problems.push(message);
}

/** The value of an `ix:nonFraction`, or a reason it has none. */
export function readInlineValue(
  raw: Pick<RawFact, 'format' | 'text' | 'scale' | 'sign' | 'overflow'>,
): number | string {
  if (raw.overflow) return 'tagged text is too long to be a number';
  const magnitude = readNumber(raw.format, raw.text);
  if (!magnitude.ok) return magnitude.reason;
  const scale = raw.scale === null ? 0 : Number(raw.scale);
  if (!Number.isInteger(scale) || Math.abs(scale) > 30) return `scale "${raw.scale}" is not a whole number`;
  const value = applyScale(magnitude.value.digits, scale);
  const negative = raw.sign === '-' || magnitude.value.negativeInText;
  return negative && value !== 0 ? -value : value;
}

function readPlainValue(raw: RawFact): number | string {
  if (raw.overflow) return 'element text is too long to be a number';
  const text = raw.text.trim();
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text)) return `"${text.slice(0, 40)}" is not a number`;
  const value = Number(text);
  return value === 0 ? 0 : value;
}

function readDecimals(raw: string | null): number | null {
  if (raw === null) return null;
  if (raw.toUpperCase() === 'INF') return Infinity;
  const n = Number(raw);
  return Number.isFinite(n) ? n : null;
}
