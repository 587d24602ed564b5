import { describe, it } from 'vitest'
import { runIngestionProperties } from './ingestion.properties.js'
import { pgServerTarget } from '../targets/postgres.js'

const url = process.env.SIGHTLINE_PG_URL
if (url) runIngestionProperties(pgServerTarget(url), { numRuns: 20 })
else describe('ingestion properties: postgres (server)', () => it.skip('SIGHTLINE_PG_URL is not set: no Postgres server to test against', () => {}))
