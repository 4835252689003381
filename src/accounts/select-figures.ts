/**
 * Pick each figure of one period from the numeric facts, following the concept table.
 *
 * Duplicate facts (same concept, same period, same dimensions, possibly in different but
 * equivalent contexts) are merged when they agree, allowing for the precision each was given
 * with. When they disagree the rule is: the most precise fact wins (higher `decimals`, INF
 * highest); among equally precise ones, the first in document order. Every such conflict is
 * reported.
 */
import type { FigureSet } from '../domain/figures.ts';
import { emptyFigures } from '../domain/figures.ts';
import { groupBy } from '../domain/group-by.ts';
import type { ConceptEntry, FigureRule } from './concepts.ts';
import { FIGURE_RULES } from './concepts.ts';
import type { NumericFact } from './read-facts.ts';

export interface PeriodSpec {
  /** Balance sheet date (instants) and end of the period (durations). */
  date: string;
  /** Start of the period, when known: picks the right duration among several ending on `date`. */
  start: string | null;
}

export interface SelectedFigures {
  figures: FigureSet;
  /** Units of the chosen money facts that are not GBP, by figure. */
  foreignUnits: Partial<Record<keyof FigureSet, string>>;
  conflicts: string[];
}

/** Index facts by concept once, so each period's selection is a few map lookups. */
export function indexByConcept(facts: readonly NumericFact[]): Map<string, NumericFact[]> {
  return groupBy(facts, (fact) => fact.concept);
}

export function selectFigures(byConcept: Map<string, NumericFact[]>, period: PeriodSpec): SelectedFigures {
  const figures = emptyFigures();
  const foreignUnits: SelectedFigures['foreignUnits'] = {};
  const conflicts: string[] = [];
  for (const rule of FIGURE_RULES) {
    const chosen = chooseForRule(byConcept, rule, period, conflicts);
    if (!chosen) continue;
    figures[rule.key] = chosen.value;
    if (rule.key !== 'employees' && chosen.unit && !/^(GBP|iso4217:GBP)$/i.test(chosen.unit)) {
      foreignUnits[rule.key] = chosen.unit;
    }
  }
  // The contract: `creditors` is the undimensioned Creditors fact, else the within-one-year amount.
  if (figures.creditors === null) figures.creditors = figures.creditors_within_one_year;
  return { figures, foreignUnits, conflicts };
}

function chooseForRule(
  byConcept: Map<string, NumericFact[]>,
  rule: FigureRule,
  period: PeriodSpec,
  conflicts: string[],
): NumericFact | null {
  for (const entry of rule.entries) {
    const facts = byConcept.get(entry.concept);
    if (facts === undefined) continue;
    const candidates = facts.filter((fact) => fact.date === period.date && dimensionsMatch(fact, entry));
    if (candidates.length === 0) continue;
    const preferred = preferPeriod(candidates, rule.periodType, period.start);
    return resolveDuplicates(
      preferred,
      `${entry.concept}${entry.members ? `[${entry.members[0]!.member}]` : ''}`,
      period.date,
      conflicts,
    );
  }
  return null;
}

function dimensionsMatch(fact: NumericFact, entry: ConceptEntry): boolean {
  const dims = fact.context.dimensions;
  if (!entry.members) return dims.length === 0;
  const allowed = entry.members;
  return (
    dims.length > 0 &&
    dims.every((dim) => allowed.some((m) => m.dimension === dim.dimension && m.member === dim.member))
  );
}

/**
 * Facts of the expected period type first (a balance sheet item tagged on a duration context is
 * a filer's slip, used only when nothing else exists); among durations, the one starting at the
 * period start, else the longest.
 */
function preferPeriod(
  candidates: NumericFact[],
  periodType: FigureRule['periodType'],
  start: string | null,
): NumericFact[] {
  const ofType = candidates.filter((fact) => fact.periodType === periodType);
  const pool = ofType.length > 0 ? ofType : candidates;
  if (periodType !== 'duration') return pool;
  const starting = start === null ? [] : pool.filter((fact) => fact.context.startDate === start);
  if (starting.length > 0) return starting;
  const earliest = pool.reduce<string | null>((min, fact) => {
    const s = fact.context.startDate;
    return s !== null && (min === null || s < min) ? s : min;
  }, null);
  return pool.filter((fact) => fact.context.startDate === earliest);
}

function resolveDuplicates(facts: NumericFact[], label: string, date: string, conflicts: string[]): NumericFact {
  const ranked = [...facts].sort((a, b) => precisionOf(b) - precisionOf(a) || a.order - b.order);
  const best = ranked[0]!;
  const disagreeing = ranked.filter((fact) => !consistent(best, fact));
  if (disagreeing.length > 0) {
    const values = [best, ...disagreeing].map((fact) => fact.value).join(', ');
    conflicts.push(
      `conflicting facts for ${label} at ${date}: ${values}; used ${best.value} (most precise, then first)`,
    );
  }
  return best;
}

function precisionOf(fact: NumericFact): number {
  return fact.decimals ?? -Infinity;
}

/** Two values agree when they are equal once rounded to the coarser of their two precisions. */
function consistent(a: NumericFact, b: NumericFact): boolean {
  if (a.value === b.value) return true;
  const decimals = Math.min(a.decimals ?? Infinity, b.decimals ?? Infinity);
  if (!Number.isFinite(decimals)) return false;
  const unit = 10 ** -decimals;
  return Math.round(a.value / unit) === Math.round(b.value / unit);
}
