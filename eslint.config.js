// Lint rules: typescript-eslint's type-checked recommended set (the rules that need type
// information, such as no-floating-promises and no-misused-promises), plus no console in library
// code (logs go through pino; in stdio MCP mode stdout is the protocol channel).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      'node_modules/**',
      'data/**',
      'coverage/**',
      '.scratch/**',
      'src/web/static/**',
      'src/mcp/app/**',
      'test/support/app-host/**',
      'eslint.config.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  {
    files: ['src/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // `import { type X }` alone still loads the module under verbatimModuleSyntax (a value
      // import, and a cycle the architecture test counts): write `import type { X }`.
      '@typescript-eslint/no-import-type-side-effects': 'error',
      // A promise discarded with `void` is still a floating promise: handle or await it.
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }],
      // Adapters implement async ports with synchronous drivers (better-sqlite3, in-memory maps):
      // `async` turns their throws into rejections, as the ports promise, without an `await`.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests read JSON answers as `any` and assert on them; the assertions are the type check.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
);
