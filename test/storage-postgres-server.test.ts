import { describe, it } from 'vitest'
import { runStorageConformance } from './conformance/storage-conformance.js'
import { pgServerTarget } from './targets/postgres.js'

const url = process.env.SIGHTLINE_PG_URL
if (url) runStorageConformance(pgServerTarget(url))
else describe('storage conformance: postgres (server)', () => it.skip('SIGHTLINE_PG_URL is not set: no Postgres server to test against', () => {}))
