/**
 * The arrows between the rooms (docs/architecture.md), checked by `npm run lint`:
 * `depcruise src loaders --config .dependency-cruiser.mjs`. A forbidden import or an import cycle
 * fails the lint with the rule's name; test/lint/architecture.test.ts shows each rule bites.
 *
 * dependency-cruiser reads its configuration as a default export (the one exception to the named
 * exports of this repository).
 */

/** @type {import('dependency-cruiser').IConfiguration['forbidden']} */
const forbidden = [
  {
    name: 'no-circular',
    comment: 'No import cycles: a room that needs another lower down imports it, never back.',
    severity: 'error',
    from: { path: '^(src|loaders)/' },
    to: { circular: true },
  },
  {
    name: 'domain-is-the-ground-floor',
    comment: 'src/domain imports nothing of src outside domain but src/errors.ts.',
    severity: 'error',
    from: { path: '^src/domain/' },
    to: { path: '^src/', pathNot: ['^src/domain/', '^src/errors\\.ts$'] },
  },
  {
    name: 'ports-import-only-domain',
    comment: 'A port is declared in domain terms: src/ports imports only domain, errors and other ports.',
    severity: 'error',
    from: { path: '^src/ports(/|\\.ts$)' },
    to: { path: '^src/', pathNot: ['^src/domain/', '^src/errors\\.ts$', '^src/ports(/|\\.ts$)'] },
  },
  {
    name: 'adapters-stay-below-the-surfaces',
    comment: 'Adapters implement ports; they never reach up into the surfaces, operations, loaders or the CLI.',
    severity: 'error',
    from: { path: '^src/adapters/' },
    to: {
      path: ['^src/(http|web|mcp|call|app|operations|cli|composition)/', '^src/main\\.ts$', '^loaders/'],
    },
  },
  {
    name: 'loaders-never-build-adapters',
    comment: 'A loader is handed its ports by the composition root; it never imports an adapter.',
    severity: 'error',
    from: { path: '^loaders/' },
    to: { path: '^src/adapters/' },
  },
  {
    name: 'http-mcp-web-are-peers',
    comment: 'REST, MCP and the web pages each mount src/call; none imports another.',
    severity: 'error',
    from: { path: '^src/(http|mcp|web)/' },
    to: { path: '^src/(http|mcp|web)/', pathNot: '^src/$1/' },
  },
  {
    name: 'surfaces-never-import-adapters',
    comment: 'REST, MCP and the web pages receive ports; they never import an adapter.',
    severity: 'error',
    from: { path: '^src/(http|mcp|web)/' },
    to: { path: '^src/adapters/' },
  },
  {
    name: 'call-below-the-surfaces',
    comment: 'The call pipeline is mounted by the surfaces; it imports none of them, nor the app.',
    severity: 'error',
    from: { path: '^src/call/' },
    to: { path: '^src/(http|mcp|web|app)/' },
  },
  {
    name: 'rooms-below-the-surfaces',
    comment:
      'The operations and the capability rooms are used by the surfaces and the root; they import neither, nor an adapter.',
    severity: 'error',
    from: {
      path: '^src/(operations|accounts|pdf-accounts|ownership|webhooks|alert-detection|shared-work|synthetic|progress|follow|page-security)/',
    },
    to: { path: ['^src/(http|mcp|web|app|call|adapters|cli|composition)/', '^src/main\\.ts$'] },
  },
  {
    name: 'src-never-imports-tools',
    comment: 'src never imports the benchmarks or the tests, and only the composition root and the CLI the loaders.',
    severity: 'error',
    from: { path: '^src/' },
    to: { path: '^(bench|test)/' },
  },
  {
    name: 'only-the-root-imports-loaders',
    comment: 'Loaders are run by the CLI (src/cli, src/main.ts, src/composition), never imported by the rooms.',
    severity: 'error',
    from: { path: '^src/', pathNot: ['^src/cli/', '^src/composition/', '^src/main\\.ts$'] },
    to: { path: '^loaders/' },
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are arrows too: a cycle of types still ties two rooms together.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.mjs', '.js', '.json'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
