import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // Sites copied from other projects (test/fixtures/docusaurus-*) are their code, not ours: kept as they wrote it.
  { ignores: ['node_modules/', 'data/', 'coverage/', 'dist/', 'test/fixtures/docusaurus-*/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', fetch: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // One SQLite library per process, chosen by src/db/sqlite-library.ts (12 on Node 20, 13 where it loads).
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [{ name: 'better-sqlite3', allowTypeImports: true, message: 'import { SQLite } from src/db/sqlite-library.ts, which picks the release that works on this Node' }] }],
    },
  },
  // The import walls and cycles are checked by dependency-cruiser (.dependency-cruiser.cjs), run by `npm run lint`.
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } } },
  {
    // The reader's browser script: plain ES5-style JavaScript, run by the visitor's browser.
    files: ['src/features/reader/assets/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: {
        window: 'readonly', document: 'readonly', localStorage: 'readonly', location: 'readonly', navigator: 'readonly',
        fetch: 'readonly', URL: 'readonly', AbortController: 'readonly', IntersectionObserver: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly',
        TextDecoder: 'readonly',
      },
    },
  },
);
