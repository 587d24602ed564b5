import { runTenantWriteCases } from './tenant-writes.suite.js'
import { duckdbFile, duckdbMemory } from '../targets/duckdb.js'

runTenantWriteCases(duckdbMemory, { numRuns: 10 })
runTenantWriteCases(duckdbFile, { numRuns: 5 })
