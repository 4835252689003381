/**
 * The size of tools/list for each toolset choice (src/mcp/toolsets.ts): bytes of the result and
 * about how many tokens a model reads (four bytes a token). `npm run bench:mcp-tools`; the table
 * goes in BENCHMARKS.md.
 */
import { mcpCatalog } from '../src/mcp/server.ts';
import { TOOLSETS } from '../src/mcp/toolsets.ts';
import type { ToolSelection } from '../src/mcp/toolsets.ts';
import { OPERATIONS } from '../src/operations/index.ts';
import { companyCardApp } from '../src/web/company-card-app.ts';

const choices: [query: string, selection: ToolSelection][] = [
  ['(none: every tool)', { outputSchemas: true }],
  ...Object.keys(TOOLSETS).map((name): [string, ToolSelection] => [
    `toolsets=${name}`,
    { toolsets: [name], outputSchemas: false },
  ]),
  ['toolsets=core,ownership', { toolsets: ['core', 'ownership'], outputSchemas: false }],
  ['toolsets=core,ownership,webhooks', { toolsets: Object.keys(TOOLSETS), outputSchemas: false }],
  ['toolsets=core&output_schemas=true', { toolsets: ['core'], outputSchemas: true }],
];
console.log('| /mcp query | tools | bytes | approx tokens |\n|---|---|---|---|');
for (const [query, selection] of choices) {
  // With the MCP App view, as src/app/app.ts serves it: its _meta is part of what a client reads.
  const { tools } = mcpCatalog(OPERATIONS, selection, [companyCardApp()]);
  const bytes = Buffer.byteLength(JSON.stringify({ tools }));
  console.log(
    `| \`${query}\` | ${tools.length} | ${bytes.toLocaleString('en-GB')} | ${Math.ceil(bytes / 4).toLocaleString('en-GB')} |`,
  );
}
