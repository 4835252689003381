/**
 * What the company search index keeps of a company's PSC register, for the ownership filters
 * (`has_corporate_parent`, `parent_country`, `controller_count`): the store sums a company's PSC
 * records up as a PscSummary (one aggregate per batch of companies), and ownershipFacts turns it
 * into the search document's fields.
 */
import type { ParentPlace } from './countries.ts';
import { parentCountryKeys } from './countries.ts';
import type { PscKindClass } from './psc.ts';

/**
 * The kinds of record that are a person with significant control: what `controller_count`
 * counts. Statements, exemptions and kinds this code does not know are not counted.
 */
export const CONTROLLER_KIND_CLASSES = [
  'individual',
  'corporate',
  'legal_person',
  'super_secure',
] as const satisfies readonly PscKindClass[];

/** The kinds of PSC that are a corporate parent: a corporate entity or a legal person. */
export const PARENT_KIND_CLASSES = ['corporate', 'legal_person'] as const satisfies readonly PscKindClass[];

/** A company's PSC register summed up; null (not this) when the store holds no PSC record of it. */
export interface PscSummary {
  /** Current records of CONTROLLER_KIND_CLASSES. */
  controllers: number;
  /** Each current record of PARENT_KIND_CLASSES: where it is registered. */
  parents: ParentPlace[];
}

/** The search document's ownership fields. */
export interface OwnershipFacts {
  /** Current PSCs, statements excluded; null when no PSC record of the company is held. */
  controller_count: number | null;
  /** A current corporate or legal-person PSC, UK or overseas; null when no PSC record is held. */
  has_corporate_parent: boolean | null;
  /** The country keys (countries.ts) of the current corporate parents, `overseas` and `united kingdom` included. */
  parent_countries: string[];
}

/**
 * The ownership fields of a company. Without any PSC record (none loaded yet, or none filed) the
 * answers are unknown rather than no: such a company matches neither `has_corporate_parent=true`
 * nor `=false`, and no controller count.
 */
export function ownershipFacts(summary: PscSummary | null): OwnershipFacts {
  if (summary === null) return { controller_count: null, has_corporate_parent: null, parent_countries: [] };
  return {
    controller_count: summary.controllers,
    has_corporate_parent: summary.parents.length > 0,
    parent_countries: [...new Set(summary.parents.flatMap(parentCountryKeys))].sort(),
  };
}
