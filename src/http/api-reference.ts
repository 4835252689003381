/**
 * GET /docs: the OpenAPI document rendered for people by Redoc (npm `redoc`, its standalone
 * bundle served from the installed package: no CDN, nothing fetched from elsewhere at run time).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Router from '@koa/router';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>UK Company Data API reference</title>
</head>
<body>
<redoc spec-url="/openapi.json"></redoc>
<script src="/docs/redoc.standalone.js"></script>
</body>
</html>
`;

export function addApiReference(router: Router): void {
  // Read once, at start-up: a missing package fails the start, not the first reader.
  const bundle = readFileSync(createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js'));
  router.get('docs', '/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });
  router.get('docs', '/docs/redoc.standalone.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = bundle;
  });
}
