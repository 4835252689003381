/**
 * The security headers of every page the service serves to a browser (the web pages and their
 * assets, the API reference at /docs): a strict Content-Security-Policy (scripts and styles only
 * from this service's own files, no framing, forms post only here), no MIME sniffing, no referrer
 * sent to other sites. A page that needs more names what it needs, and gets only that.
 */

export interface PolicyAllowances {
  /** Inline `<style>` elements and style attributes (Redoc injects them). */
  inlineStyles?: boolean;
  /** Workers from `blob:` URLs (Redoc's search index). */
  blobWorkers?: boolean;
}

/**
 * The policy, one directive a line. `connect-src 'self'` lets the as-you-type script call the
 * service; `img-src data:` costs nothing; `form-action 'self'` keeps forms from posting elsewhere.
 */
function contentSecurityPolicy(allow: PolicyAllowances): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    allow.inlineStyles ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    ...(allow.blobWorkers ? ['worker-src blob:'] : []),
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

export function securityHeadersFor(allow: PolicyAllowances = {}): Readonly<Record<string, string>> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(allow),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}
