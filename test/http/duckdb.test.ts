import { duckdbMemory } from '../targets/duckdb.js'
import { runHttpSuite } from './suite.js'

runHttpSuite(duckdbMemory, { full: true, fuzz: { numRuns: 400, seconds: 60 } })
