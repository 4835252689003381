/**
 * Ports of the officers capability: where a company's officers are written by the officers
 * backfill and read by lookups, get_officers and the people search, and where the backfill records
 * how far it got. The stream appliers (stream-appliers.ts) write the same tables inside the
 * follower's transaction. Adapter: src/adapters/postgres/officer-store.ts.
 */
import type { OfficerRecord, StoredOfficer } from '../domain/officers.ts';

/** An appointment with the register's name and status of its company (null when not on it). */
export type OfficerAppointment = StoredOfficer & { company_name: string | null; company_status: string | null };

export interface OfficerStore {
  /**
   * A company's whole officer list as the API listed it at `fetchedAt` (ISO date-time): each
   * appointment written unless what is stored is newer, those the list no longer holds marked
   * deleted (unless newer), and the company noted as fetched at that time.
   */
  replaceCompanyOfficers(companyNumber: string, records: readonly OfficerRecord[], fetchedAt: string): Promise<void>;
  /** A company's appointments, resigned ones too when asked: current first, newest appointed first. */
  officersOf(companyNumber: string, includeResigned: boolean): Promise<StoredOfficer[]>;
  /** Every appointment of one officer (by officer id), current first, newest appointed first. */
  appointmentsOf(officerId: string): Promise<OfficerAppointment[]>;
  /**
   * For each of these officer ids, how many appointments (current or resigned) it holds at companies
   * other than `companyNumber`: a director's network at a glance. Ids with none are left out.
   */
  otherAppointmentCounts(officerIds: readonly string[], companyNumber: string): Promise<Map<string, number>>;
}

/** How far the officers backfill got: a run per selection, and the companies fetched in it. */
export interface OfficerBackfillJournal {
  /**
   * The run of `selection`: the unfinished one (resumed) or a new one begun now. Its start is the
   * time after which a company counts as fetched in it.
   */
  beginRun(selection: string): Promise<{ startedAt: string; resumed: boolean }>;
  /** Of these companies, those fetched at or after `since`. */
  fetchedSince(companyNumbers: readonly string[], since: string): Promise<Set<string>>;
  finishRun(selection: string): Promise<void>;
  /** Every company some API key watches, in company number order. */
  watchedCompanies(): Promise<string[]>;
  /** Companies on the register after `after` (all when null), `limit` of them in number order. */
  registerCompanies(after: string | null, limit: number): Promise<string[]>;
  /** How many companies the register holds. */
  countRegister(): Promise<number>;
}
