import { duckdbMemory } from '../targets/duckdb.js'
import { pgliteTarget, pgServerTarget } from '../targets/postgres.js'
import { interfaceRowCases } from './interface-rows.cases.js'

// Every storage: DuckDB in memory, PGlite, and the Postgres server when SIGHTLINE_PG_URL names one.
for (const target of [duckdbMemory, pgliteTarget, ...(process.env.SIGHTLINE_PG_URL ? [pgServerTarget(process.env.SIGHTLINE_PG_URL)] : [])]) interfaceRowCases(target)
