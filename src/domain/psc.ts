/**
 * Persons with significant control (PSC), as this product keeps them: one record per PSC or PSC
 * statement of a company, read from a line of Companies House's PSC snapshot (psc-line.ts). The
 * snapshot's `data` is kept as filed (unknown kinds and fields included), less what is not kept of
 * an individual by design: the address and any day of birth.
 */

/** What kind of PSC a record is, whatever its exact `kind` string (kept as filed beside it). */
export const PSC_KIND_CLASSES = [
  /** individual-person-with-significant-control, individual-beneficial-owner */
  'individual',
  /** corporate-entity-person-with-significant-control, corporate-entity-beneficial-owner */
  'corporate',
  /** legal-person-person-with-significant-control, legal-person-beneficial-owner */
  'legal_person',
  /** super-secure-person-with-significant-control, super-secure-beneficial-owner: details withheld */
  'super_secure',
  /** persons-with-significant-control-statement: no PSC, details not confirmed, … */
  'statement',
  /** exemptions (a company exempt from keeping a PSC register) */
  'exemption',
  /** a kind this code does not know: kept, shown as filed */
  'other',
] as const;
export type PscKindClass = (typeof PSC_KIND_CLASSES)[number];

export interface PscNameElements {
  title: string | null;
  forename: string | null;
  middle_name: string | null;
  surname: string | null;
}

/** How a corporate or legal-person PSC identifies itself, as filed. */
export interface PscIdentification {
  legal_authority: string | null;
  legal_form: string | null;
  place_registered: string | null;
  registration_number: string | null;
  country_registered: string | null;
}

export interface PscRecord {
  /** The controlled company, normalised (8 characters). */
  company_number: string;
  /**
   * The PSC's identity within the company: the last segment of `links.self`
   * (/company/…/persons-with-significant-control/individual/<id>), else the etag, else a hash of
   * the record. Stable from one snapshot to the next.
   */
  psc_id: string;
  /** `data.kind` as filed. */
  kind: string;
  kind_class: PscKindClass;
  /** One of the beneficial-owner kinds of a registered overseas entity. */
  beneficial_owner: boolean;
  name: string | null;
  name_elements: PscNameElements | null;
  /** The codes as filed ("ownership-of-shares-75-to-100-percent"); natures.ts puts them in words. */
  natures_of_control: string[];
  notified_on: string | null;
  ceased_on: string | null;
  /** Ceased in the snapshot (`ceased` true or a `ceased_on` date). */
  ceased: boolean;
  birth_year: number | null;
  birth_month: number | null;
  nationality: string | null;
  country_of_residence: string | null;
  identification: PscIdentification | null;
  /** A statement's code as filed ("no-individual-or-entity-with-signficant-control"), else null. */
  statement: string | null;
  /**
   * A corporate or legal-person PSC whose identification names a UK register (Companies House,
   * the register of companies of England and Wales, Scotland or Northern Ireland): its
   * registration number normalised to a company number. Resolved against the register when read.
   */
  registered_company_number: string | null;
  /**
   * Where a corporate or legal-person PSC is registered or governed, as filed (else the country
   * of its address); null when not said.
   */
  country: string | null;
  /** Outside the United Kingdom; null when neither its identification nor its address says. */
  overseas: boolean | null;
  /**
   * Groups one person across companies: the kind class, the normalised name (title dropped) and
   * the year and month of birth; null for statements and exemptions.
   */
  person_key: string | null;
  /** The etag as filed, else a hash of the line: a changed record has a changed hash. */
  content_hash: string;
  /** The record's `data` as filed, less an individual's address and day of birth. */
  data: Record<string, unknown>;
}

/** What one line of a PSC snapshot is. */
export type PscLine =
  | { type: 'psc'; record: PscRecord }
  /** The closing line: {"data":{"kind":"totals#persons-of-significant-control-snapshot", …}}. */
  | { type: 'summary'; data: Record<string, unknown> }
  /** Not usable (not JSON, no company number, …): the reason, for the load's report. */
  | { type: 'rejected'; reason: string };

/** A PSC as the store holds it: the record, when it was last listed, and its resolution. */
export interface StoredPsc extends PscRecord {
  /** The newest snapshot that listed it. */
  snapshot_date: string;
  /** Set when a complete snapshot of this date no longer listed it: kept, as ceased. */
  ceased_by_snapshot: string | null;
  /** `registered_company_number` when that company is on the register, else null. */
  resolved_company_number: string | null;
  resolved_company_name: string | null;
}
