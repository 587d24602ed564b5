import { runIngestionProperties } from './ingestion.properties.js'
import { duckdbMemory } from '../targets/duckdb.js'

runIngestionProperties(duckdbMemory, { numRuns: 20 })
