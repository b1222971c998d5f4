// ESLint flat config: typescript-eslint's recommended rules, Nx module boundaries from the
// `type:` tags in each project.json (the same arrows test/architecture.spec.ts checks), and a
// parameter count that makes long positional lists into argument objects. Formatting is
// Prettier's (.prettierrc.json), not ESLint's. `npm run lint`.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

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
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain'] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'] },
            // Test files of data libraries and apps use the factories and test database of type:testing;
            // test/architecture.spec.ts keeps production code from importing them.
            {
              sourceTag: 'type:data',
              onlyDependOnLibsWithTags: ['type:domain', 'type:data', 'type:util', 'type:testing'],
            },
            {
              sourceTag: 'type:testing',
              onlyDependOnLibsWithTags: ['type:domain', 'type:data', 'type:util', 'type:testing'],
            },
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: ['type:domain', 'type:data', 'type:util', 'type:testing'],
            },
          ],
        },
      ],
      // The parameter count: more than four positional parameters, pass an argument object.
      // Constructors inject by position (Nest), so they get their own limit: past about six
      // dependencies a class wants splitting.
      'no-restricted-syntax': [
        'error',
        {
          selector: ':function[params.length>4]:not(MethodDefinition[kind="constructor"] > FunctionExpression)',
          message: 'more than four parameters: pass an argument object',
        },
        {
          selector: 'MethodDefinition[kind="constructor"] > FunctionExpression[params.length>7]',
          message: 'more than seven constructor dependencies: the class wants splitting',
        },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  prettier,
);
