/**
 * The work of fetching accounts PDFs, shared between processes and machines through the store:
 * companies requested (by a lookup or a backfill) and claimed under a lease, every accounts
 * document already looked at (so none is fetched or read twice), and the backfill's runs.
 * Adapter: src/adapters/postgres/pdf-accounts-work.ts.
 */

/** Who claims (unique per process) and for how long. */
export interface PdfLease {
  holder: string;
  seconds: number;
}

/** What became of one accounts document. */
export interface PdfDocumentOutcome {
  documentId: string;
  companyNumber: string;
  transactionId: string | null;
  madeUpDate: string | null;
  outcome: 'read' | 'failed' | 'machine_readable';
  /** Why reading failed; null otherwise. */
  reason: string | null;
  /** The PDF's path relative to DATA_DIR; null when it was not downloaded. */
  path: string | null;
  sha256: string | null;
}

/** Asking for a company's estimates: a lookup's side of the queue. */
export interface PdfAccountsRequests {
  /**
   * Queue the company for the worker unless it is queued already or was done within the last day.
   * True when it is pending now (queued by this call or before).
   */
  requestCompany(companyNumber: string): Promise<boolean>;
}

export interface PdfAccountsQueue extends PdfAccountsRequests {
  /**
   * Queue these companies for a backfill run begun at `since`: those not finished since then are
   * made pending (a company pending already keeps its place). Returns those finished since then.
   */
  requestForRun(companyNumbers: readonly string[], requestedBy: string, since: string): Promise<Set<string>>;
  /**
   * Claim up to `limit` pending companies no live lease holds (of `among` only, when given), oldest
   * request first, with FOR UPDATE SKIP LOCKED so two processes never claim the same one.
   */
  claim(lease: PdfLease, limit: number, among?: readonly string[]): Promise<string[]>;
  /** Done with the company: finished (error null), or put off for `retrySeconds` with the error. */
  finish(companyNumber: string, holder: string, error: string | null, retrySeconds?: number): Promise<void>;
  /** Of these companies, those pending and held by a live lease of another holder. */
  heldElsewhere(companyNumbers: readonly string[], holder: string): Promise<number>;
}

export interface PdfAccountsDocuments {
  /** The documents of the company already looked at, by id. */
  knownDocuments(companyNumber: string): Promise<Map<string, PdfDocumentOutcome>>;
  recordDocument(outcome: PdfDocumentOutcome): Promise<void>;
  /** The balance sheet dates (YYYY-MM-DD) of the company's machine-readable accounts in the store. */
  machineReadableDates(companyNumber: string): Promise<Set<string>>;
}

/** The backfill's runs and the companies it selects. */
export interface PdfBackfillJournal {
  beginRun(selection: string): Promise<{ startedAt: string; resumed: boolean }>;
  finishRun(selection: string): Promise<void>;
  /** Every company some API key watches, in company number order. */
  watchedCompanies(): Promise<string[]>;
  /**
   * Companies on the register that filed accounts (a last made-up date) with none machine-readable
   * in the store, after `after`, in number order.
   */
  companiesWithoutFigures(after: string | null, limit: number): Promise<string[]>;
  countCompaniesWithoutFigures(): Promise<number>;
}
