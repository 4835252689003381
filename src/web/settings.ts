/**
 * What the web pages are configured with (from config.ts, through main.ts and buildApp).
 */
export interface WebSettings {
  /** WEB_UI: serve the pages at all (default true). */
  enabled: boolean;
  /** WEB_CSV_MAX_ROWS: the most rows a lead list's CSV download holds (default 10,000). */
  csvMaxRows: number;
}

export const DEFAULT_WEB_SETTINGS: WebSettings = { enabled: true, csvMaxRows: 10_000 };
