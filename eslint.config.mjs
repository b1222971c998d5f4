// ESLint flat config: typescript-eslint's recommended rules plus a few type-aware ones (promises
// awaited or handled, exhaustive switches), Nx module boundaries from the `type:` tags in each
// project.json (the same arrows test/architecture.spec.ts checks), no import cycles, and a
// parameter count that makes long positional lists into argument objects. Formatting is
// Prettier's (.prettierrc.json), not ESLint's. `npm run lint`.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Which tags a project may import. Data libraries and apps may use type:testing (factories, the
// test database) in any file, since their `src/**/testing/` helpers do; test/architecture.spec.ts
// keeps their production code from it. Utility libraries may use it in test files only.
function depConstraints({ tests }) {
  const testing = tests ? ['type:testing'] : [];
  return [
    { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain'] },
    { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util', ...testing] },
    { sourceTag: 'type:data', onlyDependOnLibsWithTags: ['type:domain', 'type:data', 'type:util', 'type:testing'] },
    { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:domain', 'type:data', 'type:util', 'type:testing'] },
    { sourceTag: 'type:wiring', onlyDependOnLibsWithTags: ['type:domain', 'type:data', 'type:util'] },
    {
      sourceTag: 'type:app',
      onlyDependOnLibsWithTags: ['type:domain', 'type:data', 'type:util', 'type:wiring', 'type:testing'],
    },
  ];
}

const TEST_FILES = ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts', 'bench/**/*.ts'];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/generated/**',
      '.data/**',
      'coverage/**',
      'apps/console/dist/**',
      'libs/client/src/openapi.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        { enforceBuildableLibDependency: false, allow: [], depConstraints: depConstraints({ tests: false }) },
      ],
      // The parameter count: more than four positional parameters, pass an argument object.
      // Constructors and Nest `useFactory` functions inject by position (the `inject` list), so
      // they get their own limit: past seven dependencies the class wants splitting.
      'no-restricted-syntax': [
        'error',
        {
          selector:
            ':function[params.length>4]:not(MethodDefinition[kind="constructor"] > FunctionExpression, Property[key.name="useFactory"] > :function)',
          message: 'more than four parameters: pass an argument object',
        },
        {
          selector: 'MethodDefinition[kind="constructor"] > FunctionExpression[params.length>7]',
          message: 'more than seven constructor dependencies: the class wants splitting',
        },
        {
          selector: 'Property[key.name="useFactory"] > :function[params.length>7]',
          message: 'more than seven injected dependencies: the class wants splitting',
        },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  // Type-aware rules: each .ts/.tsx file is checked with the program of its nearest tsconfig.json
  // (the root one, or apps/console's), found by typescript-eslint's project service. A promise is
  // awaited, handled with .catch, or marked `void` where nobody waits for it: the console's event
  // handlers are called as `void submit(event)`, each catching and showing its own errors.
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
    },
  },
  // No import cycles in the apps and libraries (the console included). Type-only imports are
  // left out, as TypeScript erases them; workspace packages (@sitemaps/*) resolve to their sources.
  {
    files: ['apps/**/*.ts', 'apps/**/*.tsx', 'libs/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'apps/console/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  {
    files: TEST_FILES,
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        { enforceBuildableLibDependency: false, allow: [], depConstraints: depConstraints({ tests: true }) },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['apps/console/**/*.ts', 'apps/console/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      // useCursorPages(load, deps) takes its dependencies as useEffect does: checked the same way.
      'react-hooks/exhaustive-deps': ['error', { additionalHooks: '^useCursorPages$' }],
    },
  },
  // The build scripts and the CLI's launcher are CommonJS run by Node as they are.
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
