// Lint rules, including the dependency direction of STYLE.md practice 12:
// the domain, the accounts parser and the capability folders (ownership, webhooks, alert-detection) import no
// adapters or vendor I/O packages, and entry points receive ports rather than adapters.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const vendorPackages = ['pg', '@electric-sql/*', '@elastic/*', 'koa', '@koa/*', '@modelcontextprotocol/*'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'data/**', 'bench/results/**', 'tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Named exports only; this config file is the one place a tool demands a default export.
    files: ['**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' }],
    },
  },
  {
    files: [
      'src/domain/**/*.ts',
      'src/accounts/**/*.ts',
      'src/ownership/**/*.ts',
      'src/webhooks/**/*.ts',
      'src/alert-detection/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/adapters/**', '**/http/**', '**/mcp/**', '../../loaders/**'],
              message: 'Pure code imports no adapters or entry points.',
            },
            { group: vendorPackages, message: 'Pure code imports no vendor I/O packages.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/http/**/*.ts', 'src/mcp/**/*.ts', 'src/operations/**/*.ts', 'src/web/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/adapters/**'], message: 'Entry points receive ports, not adapters.' }] },
      ],
    },
  },
  {
    // A loader is handed its ports: the composition root (src/composition) builds the adapters.
    files: ['loaders/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src/adapters/**', '**/src/composition/**'],
              message: 'Loaders receive ports; src/composition builds the adapters.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    // The web pages' scripts run in the browser, as classic scripts served from src/web/assets.
    files: ['src/web/assets/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'fetch',
          'AbortController',
          'URLSearchParams',
          'setTimeout',
          'clearTimeout',
          'HTMLElement',
          'Event',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
);
