/**
 * Companies House's Public Data API and Document API, as the follower, the backfills and the PDF
 * reader use them. Every call of every user goes through one adapter and its one rate limiter, so
 * together they keep within Companies House's published limit (600 requests per 5 minutes a key).
 */

/** A Document API document's metadata: what it is and the content types it can be had in. */
export interface DocumentMetadata {
  /** The document's id: the last part of its metadata URL. */
  id: string;
  companyNumber: string | null;
  /** The content types on offer (`application/pdf`, `application/xhtml+xml`, …). */
  contentTypes: string[];
  /** The metadata JSON as served. */
  raw: Record<string, unknown>;
}

export interface CompaniesHouseApi {
  /**
   * The JSON of a Public Data API path (`/company/00000006/officers?items_per_page=100`), or null
   * when the API answers 404. Rejects with an Error saying what failed after retries.
   */
  getJson(path: string, signal?: AbortSignal): Promise<unknown>;
  /**
   * A document's metadata, from its id or from the `document_metadata` link of a filing history
   * item (an absolute URL; only its path is used, against the configured Document API). Null on 404.
   */
  documentMetadata(idOrLink: string, signal?: AbortSignal): Promise<DocumentMetadata | null>;
  /** A document's content in one content type; null when it is not available in that type. */
  documentContent(id: string, contentType: string, signal?: AbortSignal): Promise<Buffer | null>;
}
