import { describe, it } from 'vitest'
import { runTenantWriteCases } from './tenant-writes.suite.js'
import { pgServerTarget } from '../targets/postgres.js'

const url = process.env.SIGHTLINE_PG_URL
if (url) runTenantWriteCases(pgServerTarget(url), { numRuns: 10 })
else describe('writes across projects: postgres (server)', () => it.skip('SIGHTLINE_PG_URL is not set: no Postgres server to test against', () => {}))
