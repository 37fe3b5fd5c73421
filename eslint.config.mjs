import js from '@eslint/js';
import { readdirSync } from 'node:fs';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * The scraper's folders from the bottom up (ADR-0001): a folder imports only from folders on
 * lower rows, never from its own row or above, so there is no folder loop and a newcomer reads
 * the tower from its foot. Ownership, at the top, imports no feature but the parts' token.
 */
const SCRAPER_LAYERS = [
  ['jolokia'],
  ['cluster-parts', 'notification-rings', 'queues', 'addresses'],
  ['topology'],
  ['history'],
  ['polling'],
  ['alerting', 'export', 'cluster-links', 'live-lists', 'broker-actions'],
  ['body-filters'],
  ['message-jobs', 'message-export'],
  ['ownership'],
];
const scraperFolder = (name) => `./services/scraper/src/${name}`;
const SCRAPER_ZONES = SCRAPER_LAYERS.flatMap((row, level) =>
  row.map((folder) => ({
    target: scraperFolder(folder),
    from: SCRAPER_LAYERS.slice(level)
      .flat()
      .filter((other) => other !== folder)
      .map(scraperFolder),
    message: `services/scraper/src/${folder} sits below what it imports here (SCRAPER_LAYERS, eslint.config.mjs).`,
  })),
)
  .filter((zone) => zone.from.length > 0)
  .concat({
    target: scraperFolder('ownership'),
    from: SCRAPER_LAYERS.flat()
      .filter((f) => f !== 'ownership' && f !== 'cluster-parts')
      .map(scraperFolder),
    message: 'Ownership drives the parts it is given (CLUSTER_PARTS) and imports no feature.',
  });

/** The console's features import lib/ and never one another: what two features share is lib/'s. */
const WEB_FEATURES = readdirSync(new URL('./web/src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const WEB_FEATURE_ZONES = WEB_FEATURES.map((feature) => ({
  target: `./web/src/features/${feature}`,
  from: WEB_FEATURES.filter((other) => other !== feature).map((other) => `./web/src/features/${other}`),
  message: 'A feature imports no other feature: move what both use to web/src/lib (ADR-0008).',
}));

const SQL_STATEMENT = '/^\\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER|DROP|TRUNCATE|LOCK|COPY)\\s/';
const SQL_MESSAGE =
  "SQL only in a *Repository (its own tables) or *Queries (reading another's) file (ADR-0001).";
/** What counts as running SQL: a query call, a typed-row helper, TypeORM's builders, a statement. */
const SQL_OUTSIDE_REPOSITORIES = [
  { selector: "CallExpression[callee.property.name='query']", message: SQL_MESSAGE },
  { selector: 'CallExpression[callee.name=/^(rowsOf|firstRow|changeOf)$/]', message: SQL_MESSAGE },
  {
    selector: 'CallExpression[callee.property.name=/^(getRepository|createQueryBuilder)$/]',
    message: SQL_MESSAGE,
  },
  { selector: `TemplateLiteral[quasis.0.value.raw=${SQL_STATEMENT}]`, message: SQL_MESSAGE },
  { selector: `Literal[value=${SQL_STATEMENT}]`, message: SQL_MESSAGE },
];

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
            '**/*.fixture.ts',
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
  {
    // SQL only where the name says (ADR-0001): a `*Repository` for its service's own tables, a
    // `*Queries` for reading another's. Anywhere else a query call or a statement is an error, so a
    // newcomer finds every statement of a table by its file name. Migrations and tests are exempt.
    files: ['libs/**/src/**/*.ts', 'services/**/src/**/*.ts'],
    ignores: [
      '**/*.repository.ts',
      '**/*.queries.ts',
      '**/*-queries.ts',
      '**/*.spec.ts',
      '**/*.int-spec.ts',
      '**/*.fixture.ts',
      'libs/db/src/migrations/**',
      'libs/db/src/sql/**',
      'libs/testing/**',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='only']", message: 'No focused tests.' },
        ...SQL_OUTSIDE_REPOSITORIES,
      ],
    },
  },
  {
    // A controller maps a request to one call: the transaction and its audit note belong to the
    // repository or service it calls (ADR-0001).
    files: ['services/**/src/**/*.controller.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='only']", message: 'No focused tests.' },
        ...SQL_OUTSIDE_REPOSITORIES,
        {
          selector: "CallExpression[callee.property.name='transaction']",
          message: 'A controller opens no transaction: call the repository or service that does.',
        },
      ],
    },
  },
  {
    // The scraper's folders in layers, and the console's features apart (see SCRAPER_LAYERS and
    // WEB_FEATURES above). Tests may reach across for fixtures.
    files: ['services/scraper/src/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.spec.ts', '**/*.spec.tsx', '**/*.int-spec.ts', '**/*.fixture.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...SCRAPER_ZONES, ...WEB_FEATURE_ZONES] }],
    },
  },
  {
    // A file a newcomer can read in one sitting: past 300 lines, a file holds more than one thing.
    files: ['services/**/src/**/*.ts', 'libs/**/src/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    rules: { 'max-lines': ['error', { max: 300 }] },
  },
  { files: ['web/**/*.{ts,tsx}'], languageOptions: { globals: { ...globals.browser } } },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
