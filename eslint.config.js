// Lint rules for the whole repository. Feature folders may not import one another or the
// app layer: shared code -> features -> app.
import js from '@eslint/js';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const fixedSleepMs = 200;
const fixedSleeps = [
  `CallExpression[callee.name='setTimeout'][arguments.1.value>${fixedSleepMs}]`,
  `CallExpression[callee.name=/^(sleep|delay|wait)$/][arguments.0.value>${fixedSleepMs}]`,
  `CallExpression[callee.property.name='waitForTimeout'][arguments.0.value>${fixedSleepMs}]`,
];
const loops = ['WhileStatement', 'DoWhileStatement', 'ForStatement', 'ForOfStatement', 'ForInStatement'].map((loop) => `${loop} *`).join(', ');
const fixedSleepMessage = `A fixed wait over ${fixedSleepMs} ms on the real clock: poll with a deadline, set the time in SQL, or use fake timers.`;

export default tseslint.config(
  { ignores: ['node_modules', 'dist', '.local-data', 'coverage', 'test-results', 'bench/results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-undef': 'off',
    },
  },
  {
    // No import cycles anywhere in the product or the local stack.
    files: ['web/src/**/*.{ts,tsx}', 'supabase/functions/**/*.ts', 'local/**/*.ts', 'worker/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@/features/*', '@/app/*'], message: 'A feature imports only shared code (components, lib, @domain); the app composes features.' },
            { group: ['../../*', '!../../components/*', '!../../lib/*'], message: 'Do not reach into another feature.' },
          ],
        },
      ],
    },
  },
  {
    // Tests off the real clock: no fixed wait over 200 ms in a test. Poll with a deadline
    // (expect.poll, or a loop: a wait inside a loop is a poll interval), set times in SQL, or
    // use fake timers.
    files: ['tests/**/*.ts', '**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': ['error', ...fixedSleeps.map((selector) => ({ selector: `${selector}:not(${loops})`, message: fixedSleepMessage }))],
    },
  },
  {
    files: ['web/src/components/**/*.{ts,tsx}', 'web/src/lib/**/*.{ts,tsx}', 'supabase/functions/_shared/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@/features/*', '@/app/*'], message: 'Shared code must not depend on features or the app.' }] }],
    },
  },
);
