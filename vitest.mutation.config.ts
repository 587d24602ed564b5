import { defineConfig } from 'vitest/config'

// The tests Stryker runs against each mutant (stryker.config.mjs): by default those that exercise
// packages/core/src/query/ (core's unit tests, the shared analysis suites and the references' worked
// examples), one project, on the workspace's TypeScript sources as vitest.config.ts runs them.
// SIGHTLINE_MUTATION_TESTS narrows them (comma-separated paths or globs) for a run on a small scope.
const conditions = ['sightline-source', 'node', 'module', 'default']
const include = process.env.SIGHTLINE_MUTATION_TESTS?.split(',') ?? [
  'packages/core/test/**/*.test.ts',
  'test/{funnels,trends,retention,paths,correlation,filters,query,reference,hogql,parameters}/**/*.test.ts',
]

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['sightline-source'] } },
  test: { include, testTimeout: 30_000, hookTimeout: 60_000 },
})
