import { pgliteTarget } from '../targets/postgres.js'
import { runHttpSuite } from './suite.js'

// The smoke subset: Postgres refuses more than DuckDB (NUL, lone surrogates, 32-bit ids), so the walk, isolation and fuzz run here too.
runHttpSuite(pgliteTarget, { full: false, fuzz: { numRuns: 150, seconds: 40 } })
