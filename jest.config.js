// Two tiers with fixed names (docs/testing.md):
//   *.spec.ts      unit: every external system replaced, fast, no network
//   *.int-spec.ts  integration: real PostgreSQL, NATS and Artemis, started by the harness
//   *.e2e-spec.ts  end to end: the console in Chromium against the whole stack and the broker
const base = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }] },
  // Tests run from sources: a library's tests never need a build of another library.
  moduleNameMapper: {
    '^@artemis-studio/(contracts|timing|db|bus|platform|testing)$': '<rootDir>/libs/$1/src',
  },
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '<rootDir>/web/'],
};

/** @type {import('jest').Config} */
module.exports = {
  // Integration tests wait on real brokers; unit tests finish in milliseconds either way.
  testTimeout: 60_000,
  projects: [
    {
      ...base,
      displayName: 'unit',
      testMatch: ['<rootDir>/{libs,services}/**/src/**/*.spec.ts', '<rootDir>/deploy/**/*.spec.ts'],
    },
    {
      ...base,
      displayName: 'integration',
      testMatch: ['<rootDir>/{libs,services}/**/src/**/*.int-spec.ts'],
      globalSetup: '<rootDir>/libs/testing/src/jest/global-setup.ts',
      globalTeardown: '<rootDir>/libs/testing/src/jest/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/jest/each-suite.ts'],
    },
    {
      ...base,
      displayName: 'e2e',
      testMatch: ['<rootDir>/web/e2e/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '/dist/'],
      globalSetup: '<rootDir>/libs/testing/src/jest/global-setup.ts',
      globalTeardown: '<rootDir>/libs/testing/src/jest/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/jest/each-suite.ts'],
      testTimeout: 120_000,
    },
  ],
};
