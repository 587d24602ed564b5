import { describe, expect, it } from 'vitest'
import { createSightline } from '@sightline/core'
import { pgliteTarget, pgServerTarget } from './targets/postgres.js'

const targets = [pgliteTarget, ...(process.env.SIGHTLINE_PG_URL ? [pgServerTarget(process.env.SIGHTLINE_PG_URL)] : [])]

describe.each(targets)('Postgres schemas: $name', (target) => {
  it('two Sightline schemas in one database migrate and work side by side', async () => {
    const [a, b] = await Promise.all([target.fresh(), target.fresh()])
    try {
      const first = await createSightline({ storage: a.storage() })
      const second = await createSightline({ storage: b.storage() })
      const org = await first.organizations.create({ name: 'Only in A' })
      expect((await first.organizations.list()).map((o) => o.id)).toEqual([org.id])
      expect(await second.organizations.list()).toEqual([])
      // Read past the engines: the row is in A's schema and not in B's (on PGlite both engines share one
      // session, so a search_path set for one engine must not carry the other's writes).
      expect(await a.raw('select id from organizations')).toEqual([{ id: org.id }])
      expect(await b.raw('select id from organizations')).toEqual([])
      const again = await second.organizations.create({ name: 'Only in B' })
      expect((await first.organizations.list()).map((o) => o.id)).toEqual([org.id])
      expect(await b.raw('select id from organizations')).toEqual([{ id: again.id }])
      await Promise.all([first.close(), second.close()])
    } finally {
      await Promise.all([a.dispose(), b.dispose()])
    }
  })
})
