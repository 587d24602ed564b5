import { runTenantWriteCases } from './tenant-writes.suite.js'
import { pgliteTarget } from '../targets/postgres.js'

runTenantWriteCases(pgliteTarget, {
  numRuns: 10,
  singleConnection: 'PGlite is one connection: an open transaction holds it, so every other statement waits for its commit',
})
