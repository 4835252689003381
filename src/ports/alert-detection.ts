/**
 * The port of alert detection: which companies loads changed, who watches them, and where the
 * alerts detected are recorded and queued for delivery.
 * Adapter: src/adapters/postgres/alert-detection-store.ts (pg or PGlite).
 */
import type { KeyAlertEvent } from '../domain/alert-events.ts';
import type { WatchedCompany } from '../domain/watchlists.ts';

/** A company on a key's watchlist, with the snapshot taken when it was added. */
export interface KeyWatch extends WatchedCompany {
  key_id: number;
}

/** What recording a batch of detected alerts did. */
interface RecordedAlerts {
  /** The alerts not detected before for their key, now recorded. */
  recorded: KeyAlertEvent[];
  /** The deliveries put in the outbox for them. */
  deliveries: number;
}

/** How far detection has looked, on the clock loads write with. */
interface DetectionCursor {
  /** The database's clock (ISO date-time, UTC): detection runs are measured on the clock loads write with. */
  now(): Promise<string>;
  /**
   * How far a run that starts now may record it has looked (ISO date-time, UTC): now, or just
   * before the oldest transaction still open, whose changes are dated before they can be read.
   */
  watermark(): Promise<string>;
  /** How far the last detection run looked (ISO date-time, UTC); null before the first. */
  detectedThrough(): Promise<string | null>;
  /** Record that detection has looked at every change before `through`; never moves it back. */
  recordDetectedThrough(through: string): Promise<void>;
}

/** The watched companies that changed, their watches, and the alerts recorded for them. */
interface WatchedChanges {
  /** Whether any key watches any company: when none does, there is nothing to look for. */
  anyWatched(): Promise<boolean>;
  /**
   * The numbers of the companies a register, accounts or PSC load changed after `since` (all
   * when null), in number order, `batchSize` a batch, streamed: memory stays flat after a full
   * load that changed millions.
   */
  changedCompanies(since: string | null, batchSize: number): AsyncGenerator<string[]>;
  /**
   * The watched companies whose accounts fell due on a day from `from` up to, not including,
   * `until` (ISO dates): those that became overdue without any load changing them. Found through
   * the index on the due date, each checked against the watchlists' index.
   */
  watchedFallingDue(from: string, until: string): Promise<string[]>;
  /** Every key's watch of these companies, found through the index on the company number. */
  watchesOf(companyNumbers: readonly string[]): Promise<KeyWatch[]>;
  /**
   * In one transaction: record the alerts not detected before for their key (by key and alert
   * identity), of the keys that still watch their company, and put them in the webhook outbox for the key's enabled endpoints that receive
   * their event type (alert-events.ts alertDeliveries). An alert already detected is left out of
   * both, so recording the same alerts again changes nothing; concurrent runs record each once.
   */
  recordDetected(alerts: readonly KeyAlertEvent[]): Promise<RecordedAlerts>;
}

export interface AlertDetectionStore extends DetectionCursor, WatchedChanges {}
