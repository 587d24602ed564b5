import { runIngestionProperties } from './ingestion.properties.js'
import { pgliteTarget } from '../targets/postgres.js'

runIngestionProperties(pgliteTarget, { numRuns: 20 })
