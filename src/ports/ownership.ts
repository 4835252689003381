/**
 * Ports of the ownership capability: where PSC records are written (the PSC loader) and how the
 * ownership graph and a company's controllers are read (get_ownership, alerts). Adapters:
 * src/adapters/postgres/psc-store.ts and ownership-reader.ts. A lookup reads a company with its
 * PSCs through CompanyReader.companyWithPscs (companies.ts); the people index is in people-index.ts.
 */
import type { PscRecord, StoredPsc } from '../domain/psc.ts';

export interface PscStore {
  /**
   * Insert or update the records as listed by the snapshot of `snapshotDate`; an older snapshot
   * never overwrites a newer one. A record repeated within the batch keeps its last copy.
   */
  upsertPscs(records: readonly PscRecord[], snapshotDate: string): Promise<void>;
  /** How upsertSerialisedPscs wants a batch: the adapter's `serialisePscs` in this format. */
  readonly batchFormat: 'copy' | 'json';
  /**
   * The same for a batch already serialised (the PSC loader serialises it in the thread that
   * parses the lines, so that the thread that writes only sends it).
   */
  upsertSerialisedPscs(rows: string, snapshotDate: string): Promise<void>;
  /**
   * After a complete snapshot: the current PSCs and statements it no longer lists are kept,
   * marked ceased by that snapshot. Returns how many.
   */
  markMissingCeased(snapshotDate: string): Promise<number>;
  /**
   * What markMissingCeased would mark, of the PSCs and statements not ceased: counted, nothing
   * changed; with the newest snapshot date any of them was last listed on (null when none).
   */
  countMissing(snapshotDate: string): Promise<{ count: number; held: number; lastListed: string | null }>;
  counts(): Promise<{ pscs: number; current: number; statements: number }>;
  /** No record at all (a first load). */
  isEmpty(): Promise<boolean>;
}

export interface OwnershipReader {
  /** A company's PSCs and statements, ceased ones too when asked; current first, newest notified first. */
  pscsOf(companyNumber: string, includeCeased: boolean): Promise<StoredPsc[]>;
  /** The current PSCs and statements of each of these companies (one query), whole. */
  currentPscsOf(companyNumbers: readonly string[]): Promise<StoredPsc[]>;
  /**
   * Everything the ownership walk draws around a company on the register, in one statement: the
   * company, the current records up its chain and down it level by level, and how many companies
   * each controller met controls. Null when the company is not on the register. One statement,
   * because a walk of five levels each way made a dozen round trips, and planning and sending them
   * cost more than running them.
   */
  ownershipAround(companyNumber: string, reach: OwnershipReach): Promise<OwnershipNeighbourhood | null>;
}

/**
 * A PSC record as the ownership walk reads it: the fields its nodes and edges are drawn from. Of
 * the filed JSON only an exemption's `exemptions` is kept (statementWords names them); `data` is
 * an empty object for every other record.
 */
export type ControlRecord = Pick<
  StoredPsc,
  | 'company_number'
  | 'psc_id'
  | 'kind'
  | 'kind_class'
  | 'beneficial_owner'
  | 'name'
  | 'natures_of_control'
  | 'notified_on'
  | 'birth_year'
  | 'birth_month'
  | 'nationality'
  | 'country_of_residence'
  | 'identification'
  | 'statement'
  | 'registered_company_number'
  | 'country'
  | 'overseas'
  | 'person_key'
  | 'resolved_company_number'
  | 'resolved_company_name'
  | 'data'
>;

/** How far ownershipAround reads: levels up and down (0: that way is not read), and at most how many records each way. */
interface OwnershipReach {
  up: number;
  down: number;
  maxRecords: number;
}

/**
 * A record met walking: its level, and the register's name and status of both its company and
 * (when it is a company on the register) its controller.
 */
export type LevelledControlRecord = ControlRecord & {
  /**
   * Up, 1 for the company's own records, 2 for those of the companies that control it, and so on;
   * down, 1 for the records naming the company as their controller, 2 for those naming them, and
   * so on. A company reached again at a later level (a cycle, a longer path) is read again there.
   */
  level: number;
  resolved_company_status: string | null;
  company_name: string | null;
  company_status: string | null;
};

/**
 * What ownershipAround reads. `up`: the current records of the company and of each company up its
 * chain (a corporate PSC that is a company on the register), in level, company, newest notified
 * order. `down`: the current corporate PSCs naming the company, then those naming the companies
 * so reached, breadth first, in level, controller, company, id order. Each way stops at
 * `maxRecords`; a way that has that many may have more.
 */
export interface OwnershipNeighbourhood {
  root: RegisteredCompany;
  up: LevelledControlRecord[];
  down: LevelledControlRecord[];
  /** For the company, each company on the register that controls one met, and each person or entity met up the chain. */
  counts: ControlledCounts;
}

/** A company on the register, as the ownership graph names it. */
export interface RegisteredCompany {
  company_number: string;
  name: string;
  status: string;
}

/** Companies controlled now, by controlling company number and by person_key. */
interface ControlledCounts {
  companies: ReadonlyMap<string, number>;
  persons: ReadonlyMap<string, number>;
}
