/**
 * The company card as an MCP App (docs/mcp-app.md): the ui:// document that hosts supporting MCP
 * Apps show beside lookup_company's and lookup_companies' results. One HTML document with everything inline: the web
 * pages' stylesheet, and one script bundled from company-card-view.ts (ext-apps' App and the
 * Company page's own card and chart code) by esbuild, once per process. Its own
 * Content-Security-Policy allows that script and that style by hash and nothing else: no
 * connection, no image, font or frame from anywhere.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const VIEW_ENTRY = fileURLToPath(new URL('./company-card-view.ts', import.meta.url));
const STYLESHEET = new URL('./assets/site.css', import.meta.url);

/** The view's entry as the MCP route serves it (src/mcp/app-views.ts McpAppView, by shape). */
export interface CompanyCardApp {
  uri: `ui://${string}`;
  name: string;
  title: string;
  description: string;
  tools: readonly string[];
  html(): Promise<string>;
}

/** The company card view, for lookup_company and lookup_companies. */
export function companyCardApp(): CompanyCardApp {
  return {
    uri: 'ui://ukcd/company-card.html',
    name: 'company_card',
    title: 'Company card',
    description:
      'A company’s name, status, key figures, risk band and signals, and a chart per figure over its filed years, ' +
      'drawn from a lookup_company result; a card per company, without charts, for lookup_companies.',
    tools: ['lookup_company', 'lookup_companies'],
    html: companyCardDocument,
  };
}

/**
 * The same bytes for every app of the process, so built once: on the first read, or at start
 * (start-service.ts awaits it, so that an install that cannot bundle fails the start, not the
 * first host). A failed build is not kept: the next read tries again.
 */
let built: Promise<string> | undefined;

/** The card's HTML document. */
export function companyCardDocument(): Promise<string> {
  built ??= buildDocument().catch((error: unknown) => {
    built = undefined;
    throw error;
  });
  return built;
}

async function buildDocument(): Promise<string> {
  const [script, style] = await Promise.all([viewScript(), readFile(STYLESHEET, 'utf8')]);
  const policy = [
    "default-src 'none'",
    `script-src '${sha256(script)}'`,
    `style-src '${sha256(style)}'`,
    "img-src 'none'",
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<title>Company card</title>
<style>${style}</style>
</head>
<body>
<main id="card" aria-live="polite"><h1>Company card</h1><p>Waiting for the lookup’s result.</p></main>
<script type="module">${script}</script>
</body>
</html>
`;
}

/** The view and what it imports, as one browser module. */
async function viewScript(): Promise<string> {
  const result = await build({
    entryPoints: [VIEW_ENTRY],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    logLevel: 'silent',
  });
  const script = result.outputFiles[0]?.text ?? '';
  // Inline, a "</script" in the bundle would end the element early (esbuild escapes it in strings).
  if (script === '' || /<\/script/i.test(script))
    throw new Error('The company card view did not bundle to one inline script');
  return script;
}

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}
