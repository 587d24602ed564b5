import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// Tests run the TypeScript sources of the workspace packages (the
// `sightline-source` export condition), so no build is needed before `pnpm test`.
const conditions = ['sightline-source', 'node', 'module', 'default']

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['sightline-source'] } },
  test: {
    // CI asks for a JSON report as well, to print a plain "N passed, N failed" line.
    reporters: process.env.SIGHTLINE_TEST_REPORT ? ['default', 'json'] : ['default'],
    outputFile: process.env.SIGHTLINE_TEST_REPORT ? { json: process.env.SIGHTLINE_TEST_REPORT } : undefined,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Every core runs a worker (vitest's default leaves one idle: a single worker on 2 cores). Tests wait on
    // databases and sockets as much as they compute, so two workers on two cores finish in about half the time.
    maxWorkers: Math.max(2, availableParallelism()),
    // The files of one worker share one module graph: core's sources, DuckDB's and PGlite's modules and the
    // PGlite instance of test/targets are loaded once per worker instead of once per file, which was about
    // 40% of the suite's CPU time. Files close what they open; test/setup/restore-globals.ts puts back
    // timers, spies and stubs after each file.
    isolate: false,
    setupFiles: [fileURLToPath(new URL('./test/setup/restore-globals.ts', import.meta.url))],
    projects: [
      { extends: true, test: { name: 'core', include: ['packages/core/test/**/*.test.ts'] } },
      { extends: true, test: { name: 'storage-duckdb', include: ['packages/storage-duckdb/test/**/*.test.ts'] } },
      { extends: true, test: { name: 'storage-postgres', include: ['packages/storage-postgres/test/**/*.test.ts'] } },
      { extends: true, test: { name: 'storage-clickhouse', include: ['packages/storage-clickhouse/test/**/*.test.ts'] } },
      { extends: true, test: { name: 'demo', include: ['packages/demo/test/**/*.test.ts'] } },
      { extends: true, test: { name: 'http-adapter', include: ['packages/http-adapter/test/**/*.test.ts'] } },
      { extends: true, test: { name: 'ui', include: ['packages/ui/test/**/*.test.ts'], globalSetup: ['packages/ui/test/bundle-setup.ts'] } },
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'] } },
    ],
  },
})
