/**
 * What the web pages are configured with (from config.ts, through main.ts and buildApp).
 */
export interface WebSettings {
  /** WEB_UI: serve the pages at all (default true). */
  enabled: boolean;
  /** WEB_CSV_MAX_ROWS: the most rows a lead list's CSV download holds (default 10,000). */
  csvMaxRows: number;
  /** WEB_ANON_RATE_PER_MINUTE: page views a minute from one address without signing in (default 120). */
  anonPerMinute: number;
  /** WEB_SIGNED_IN_RATE_PER_MINUTE: page views a minute for one signed-in key (default 300). */
  signedInPerMinute: number;
  /** WEB_SESSION_TTL_MINUTES: how long a sign-in lasts (default 720, 12 hours). */
  sessionTtlMinutes: number;
}

export const DEFAULT_WEB_SETTINGS: WebSettings = {
  enabled: true,
  csvMaxRows: 10_000,
  anonPerMinute: 120,
  signedInPerMinute: 300,
  sessionTtlMinutes: 720,
};
