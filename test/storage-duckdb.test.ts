import { runStorageConformance } from './conformance/storage-conformance.js'
import { duckdbFile, duckdbMemory } from './targets/duckdb.js'

runStorageConformance(duckdbMemory)
runStorageConformance(duckdbFile)
