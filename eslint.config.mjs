import js from '@eslint/js';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'web/test-results/**', '**/*.tsbuildinfo'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='only']", message: 'No focused tests.' },
      ],
    },
  },
  {
    // Package boundaries: services and web may depend on libs, never on each other.
    files: ['services/**/*.ts', 'web/**/*.{ts,tsx}', 'libs/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/services/**', '@artemis-studio/{scraper,notifier,event-store,gateway,web}'],
              message: 'Services and web depend on libs only.',
            },
          ],
        },
      ],
    },
  },
  {
    // Every workspace package lists what it imports (its nearest package.json): a package that
    // works only because another one hoisted its dependency breaks when that one drops it.
    files: ['libs/**/*.ts', 'services/**/*.ts', 'web/**/*.{ts,tsx}', 'bench/**/*.ts', 'deploy/**/*.ts'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-extraneous-dependencies': [
        'error',
        {
          devDependencies: [
            '**/*.spec.ts',
            '**/*.spec.tsx',
            '**/*.int-spec.ts',
            '**/*.e2e-spec.ts',
            'web/e2e/**',
            'web/vite.config.ts',
            'bench/**',
            'deploy/**',
            'libs/testing/**',
          ],
          includeTypes: true,
        },
      ],
    },
  },
  {
    // No import circle: each one is a tangle a newcomer has to hold in their head at once. Type
    // imports alone are no circle at run time and are left to review. TypeORM's relations name
    // each other by design (cluster <-> cluster_node), so the entities are the one exception.
    files: ['libs/**/*.ts', 'services/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    ignores: ['libs/db/src/entities/*.entity.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  { files: ['web/**/*.{ts,tsx}'], languageOptions: { globals: { ...globals.browser } } },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
