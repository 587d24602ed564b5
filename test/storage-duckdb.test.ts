import { runStorageConformance } from './conformance/storage-conformance.js'
import { duckdbFile } from './targets/duckdb.js'

// DuckDB in a file, as a host runs it: the write-ahead log, checkpoints and a path of its own. DuckDB in memory is the
// same adapter with the same SQL (only the instance differs); it runs every analysis suite, the full HTTP suite and
// the migrated-copy check (test/targets/migrated-copies.test.ts), so the conformance suite a second time on it reached
// no code the file does not, for about 50 s of the suite's CPU (2026-11-29).
runStorageConformance(duckdbFile)
