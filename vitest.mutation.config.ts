import { fileURLToPath } from 'node:url'
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

// Stryker runs the tests in a sandbox copy whose node_modules are links to the checkout's, so a bare
// `@sightline/core` (tests going through the public entry points) would load the checkout's unmutated
// sources: no mutant would ever be active in those tests, and all of them would look uncovered or survive.
// The aliases send every workspace package to the sources next to this file (the sandbox's, mutated).
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const alias = [
  { find: /^@sightline\/core\/storage$/, replacement: here('./packages/core/src/storage.ts') },
  { find: /^@sightline\/ui\/browser$/, replacement: here('./packages/ui/src/browser/index.ts') },
  { find: /^@sightline\/([a-z-]+)$/, replacement: `${here('./packages')}/$1/src/index.ts` },
]

export default defineConfig({
  resolve: { conditions, alias },
  ssr: { resolve: { conditions, externalConditions: ['sightline-source'] } },
  test: { include, testTimeout: 30_000, hookTimeout: 60_000 },
})
