// Mutation testing of the query compilers, run on demand (`pnpm mutation`), never in CI: each mutant reruns
// the tests that cover it, so a whole run of packages/core/src/query/ takes hours of CPU. It is incremental
// (reports/stryker-incremental.json keeps the results of unchanged code and tests), and a narrower run takes
// Stryker's own flag and the tests to run, e.g.
//   SIGHTLINE_MUTATION_TESTS=test/retention/examples.test.ts pnpm mutation --mutate packages/core/src/query/retention/retention-cells-sql.ts
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts', related: false, pool: 'forks' },
  mutate: ['packages/core/src/query/**/*.ts'],
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  coverageAnalysis: 'perTest',
  // One mutant at a time: the machine is shared, and each test file opens its own databases.
  concurrency: 1,
  timeoutMS: 60_000,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  ignorePatterns: ['benchmarks', 'reports', 'coverage', '**/dist', '.sightline', 'packages/ui/assets'],
}
