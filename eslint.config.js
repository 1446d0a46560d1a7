import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'test-results/**', 'data/**', '.bench/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The sign-in bundle must not carry zod: import shared code by module, types only from contracts.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: '@healthbook/shared', message: "Import a module ('@healthbook/shared/constants', '/validation') so zod stays out of the bundle." }],
          patterns: [{ group: ['@healthbook/shared/contracts/*'], allowTypeImports: true, message: 'Contracts hold zod schemas: import their types only.' }],
        },
      ],
    },
  },
  {
    // Imports flow one way: app -> features -> components/lib -> shared. Features do not import each other.
    files: ['apps/web/src/features/*/**/*.{ts,tsx}', 'apps/web/src/components/**/*.{ts,tsx}', 'apps/web/src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/app/*', '../app/*', '../../app/*'], message: 'Only app/ may import app/.' }] },
      ],
    },
  },
  {
    files: ['apps/web/src/components/**/*.{ts,tsx}', 'apps/web/src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/features/*', '**/app/*'], message: 'components/ and lib/ are below features/ and app/.' }] }],
    },
  },
  {
    // Server: nothing but config.ts reads process.env.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/config.ts', 'apps/server/src/**/*.test.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through config.ts.' }],
    },
  },
);
