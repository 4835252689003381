/**
 * The accounts documents the filings stream announced, waiting to be read through the Document
 * API. Claimed a few at a time with a lease (a fetcher that dies leaves them to the next), and
 * finished with what became of each. Adapter: src/adapters/postgres/stream-filings.ts.
 */

export interface PendingDocument {
  transactionId: string;
  companyNumber: string;
  /** The filing's `links.document_metadata` (an absolute Document API URL). */
  link: string;
  /** The filing's date (ISO): the accounts' publication date. */
  filedOn: string | null;
  /** The balance sheet date the filing history states, when it does. */
  madeUpDate: string | null;
}

export type DocumentOutcome = 'loaded' | 'pdf_only' | 'already_loaded' | 'failed';

export interface DocumentQueue {
  /** Up to `limit` documents nobody is fetching, oldest first, each held for `seconds`. */
  claim(limit: number, seconds: number): Promise<PendingDocument[]>;
  /** Whether accounts of this company made up to this date are in the store already (a bulk file's). */
  alreadyLoaded(companyNumber: string, balanceSheetDate: string): Promise<boolean>;
  finish(transactionId: string, outcome: DocumentOutcome, detail: string | null): Promise<void>;
}
