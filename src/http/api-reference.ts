/**
 * GET /docs: the OpenAPI document rendered for people by Redoc (npm `redoc`, its standalone
 * bundle served from the installed package: no CDN, nothing fetched from elsewhere at run time).
 * The bundle's one third-party address, the Redocly logo of its menu (an <img> from
 * cdn.redoc.ly), is replaced at start-up by an empty data: image, which fails to decode, so Redoc
 * hides it: the reference asks nothing of another site. The page has the web pages' security
 * headers, with the two allowances Redoc needs (styles it injects, its search worker from blob:).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Router from '@koa/router';
import { securityHeadersFor } from '../page-security/security-headers.ts';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>UK Company Data API reference</title>
<link rel="icon" href="data:,">
<meta name="description" content="The UK Company Data REST API: every operation, its parameters, answers and errors, from the OpenAPI document.">
</head>
<body>
<redoc spec-url="/openapi.json"></redoc>
<script src="/docs/redoc.standalone.js"></script>
</body>
</html>
`;

/** The logo Redoc's menu loads from its vendor's CDN. */
const THIRD_PARTY_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

/**
 * The web pages' policy with what Redoc needs: inline styles (it injects <style> elements and
 * style attributes) and its search index in a blob: worker.
 */
const SECURITY_HEADERS = securityHeadersFor({ inlineStyles: true, blobWorkers: true });

export function addApiReference(router: Router): void {
  // Read once, at start-up: a missing package fails the start, not the first reader.
  const original = readFileSync(createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js'), 'utf8');
  if (!original.includes(THIRD_PARTY_LOGO))
    throw new Error(`redoc's bundle no longer holds ${THIRD_PARTY_LOGO}: check what it loads from elsewhere now`);
  const bundle = Buffer.from(original.replaceAll(THIRD_PARTY_LOGO, 'data:,'));
  router.get('docs', '/docs', (ctx) => {
    ctx.set(SECURITY_HEADERS);
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });
  router.get('docs', '/docs/redoc.standalone.js', (ctx) => {
    ctx.set(SECURITY_HEADERS);
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = bundle;
  });
}
