import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'fixtures/reports/', 'test-results/', 'bench/.data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  {
    // Test files share their worker's loaded modules (vitest.config.ts):
    // a module mocked in one would stay mocked for the next file. The one that mocks is listed
    // there (MOCKS_MODULES) and runs alone.
    files: ['**/*.test.ts'],
    ignores: ['server/store/read/run-results.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['mock', 'doMock', 'hoisted'].map((property) => ({ object: 'vi', property, message: 'This file shares its worker\'s modules: add it to MOCKS_MODULES in vitest.config.ts (and to this rule\'s ignores) to mock one.' })),
      ],
    },
  },
  {
    // core/ runs in the browser too: nothing from Node.
    files: ['core/**/*.ts'],
    ignores: ['core/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*'], message: 'core/ is shared with the UI: no Node modules.' }] }],
    },
  },
  {
    files: ['ui/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/server/**', 'node:*'], message: 'The UI talks to the server over HTTP only.' }] }],
    },
  },
  {
    // The store's rooms: engine/ at the bottom; write/, read/ and accounts/ stand on it; read/
    // may take the rollups' description from write/, and nothing below imports what stands on it.
    files: ['server/store/engine/**/*.ts'],
    ignores: ['server/store/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['../write/*', '../read/*', '../accounts/*', '../evidence/*'], message: 'engine/ is the bottom of the store: it imports no other room.' }] }] },
  },
  {
    // evidence/: the blob stores (a folder, a bucket) and the blob rows, beside the engines.
    files: ['server/store/evidence/**/*.ts'],
    ignores: ['server/store/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['../write/*', '../read/*', '../accounts/*'], message: 'evidence/ stands on engine/ only.' }] }] },
  },
  {
    files: ['server/store/write/**/*.ts'],
    ignores: ['server/store/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['../read/*', '../accounts/*'], message: 'write/ stands on engine/ only.' }] }] },
  },
  {
    files: ['server/store/accounts/**/*.ts'],
    ignores: ['server/store/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['../read/*', '../write/*'], message: 'accounts/ stands on engine/ only.' }] }] },
  },
  {
    files: ['server/store/webhooks/**/*.ts'],
    ignores: ['server/store/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['../read/*', '../write/*', '../accounts/*'], message: 'webhooks/ (the alerts and their outbox) stands on engine/ only.' }] }] },
  },
  {
    files: ['server/store/read/**/*.ts'],
    ignores: ['server/store/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['../accounts/*'], message: 'read/ stands on engine/ and the rollups of write/.' }] }] },
  },
);
