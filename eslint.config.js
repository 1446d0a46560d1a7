import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const WEB_SRC = path.resolve(import.meta.dirname, 'apps/web/src');

/** Where a file of the web app sits: 'app', 'features/<name>', 'components', 'lib', 'test'..., or null outside src. */
function webZone(file) {
  const relative = path.relative(WEB_SRC, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
  const [first, second] = relative.split(path.sep);
  return first === 'features' && second ? `features/${second}` : first;
}

/** Why `from` may not import `to`, or null when it may. */
function zoneViolation(from, to) {
  if (!from || !to || from === to) return null;
  const lowLevel = from === 'components' || from === 'lib' || from === 'test';
  if (to === 'app' && from !== 'app' && from !== 'main.tsx') return 'Only app/ may import app/.';
  if (lowLevel && to.startsWith('features/')) return 'components/ and lib/ are below features/ and app/.';
  if (from.startsWith('features/') && to.startsWith('features/'))
    return `Features do not import each other (${from} -> ${to}): move what both need to components/ or lib/, or compose them in app/.`;
  return null;
}

/** The web app's import zones, by resolved path (a relative import names no folder to match on). */
const webImportZones = {
  meta: { type: 'problem', schema: [], docs: { description: 'app -> features -> components/lib; no feature imports another' } },
  create(context) {
    const from = webZone(context.filename);
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const message = zoneViolation(from, webZone(path.resolve(path.dirname(context.filename), source)));
      if (message) context.report({ node, message });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

/**
 * The one door to a patient's data (apps/server/src/modules/patients/patient-scope.ts): a
 * PatientScope is minted by the patients policy (PatientsService.open) and, for a verified
 * recipient, by the sharing service; the patient's own scope for system work (ownerScope) only by
 * the demo seed, the calendar feed read by its secret address and a connected source's sync. Nowhere else, and never by a
 * type assertion.
 */
const SCOPE_MINTERS = {
  PatientScope: ['apps/server/src/modules/patients/patient-scope.ts', 'apps/server/src/modules/patients/patients.service.ts', 'apps/server/src/modules/sharing/sharing.service.ts'],
  ownerScope: [
    'apps/server/src/modules/patients/patient-scope.ts',
    'apps/server/src/db/seed/demo.ts',
    'apps/server/src/modules/calendar/calendar-feed.service.ts',
    // The sync of a connection the patient (or their full-access carer) made: the system's work for them.
    'apps/server/src/modules/sources/source-sync.ts',
  ],
  // The staff side: a provider's or chat staff member's caseload, minted by PatientsService.openCareTeam.
  CareTeamScope: ['apps/server/src/modules/patients/care-team-scope.ts', 'apps/server/src/modules/patients/patients.service.ts'],
};
const SCOPE_TYPES = new Set(['PatientScope', 'CareTeamScope']);
const patientScopeDoor = {
  meta: { type: 'problem', schema: [], docs: { description: 'a PatientScope is made only by the patients policy (and the sharing service for a recipient)' } },
  create(context) {
    const file = path.relative(import.meta.dirname, context.filename).split(path.sep).join('/');
    const allowed = (name) => SCOPE_MINTERS[name].includes(file);
    return {
      NewExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'PatientScope' && !allowed('PatientScope'))
          context.report({ node, message: 'A PatientScope comes from PatientsService.open (the patients policy), never from `new` here.' });
        if (node.callee.type === 'Identifier' && node.callee.name === 'CareTeamScope' && !allowed('CareTeamScope'))
          context.report({ node, message: 'A CareTeamScope comes from PatientsService.openCareTeam (the patients policy), never from `new` here.' });
      },
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'ownerScope' && !allowed('ownerScope'))
          context.report({ node, message: "ownerScope is the system's own work for a patient: ask PatientsService.open for a request's scope." });
      },
      TSAsExpression(node) {
        const t = node.typeAnnotation;
        if (t.type === 'TSTypeReference' && t.typeName.type === 'Identifier' && SCOPE_TYPES.has(t.typeName.name))
          context.report({ node, message: `A ${t.typeName.name} is never made by a type assertion.` });
      },
    };
  },
};

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
    // Imports flow one way: app -> features -> components/lib -> shared; features do not import
    // each other (bulletproof-react's import/no-restricted-paths zones, resolved by path here).
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { web: { rules: { 'import-zones': webImportZones } } },
    rules: { 'web/import-zones': 'error' },
  },
  {
    // Server: SQL is built only in repositories (and the database layer itself). A handler or
    // service never writes a query, so it cannot forget the organisation filter a repository adds.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.repository.ts', 'apps/server/src/db/**', 'apps/server/src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|selectNoFrom)$/]',
          message: 'Build queries in a *.repository.ts, scoped to an organisation.',
        },
        { selector: "TaggedTemplateExpression[tag.name='sql']", message: 'Build queries in a *.repository.ts, scoped to an organisation.' },
      ],
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    plugins: { server: { rules: { 'patient-scope-door': patientScopeDoor } } },
    rules: { 'server/patient-scope-door': 'error' },
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
