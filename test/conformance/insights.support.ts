import { expect } from 'vitest'
import type { Sightline } from '@sightline/core'
import { count, NOW, type Engine } from './harness.js'
import type { FreshDatabase } from './target.js'

/** `NOW` plus some minutes, as Sightline writes timestamps. */
export const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000)
export const iso = (minutes: number) => `${at(minutes).toISOString().slice(0, 23)}000Z`
/** JSON columns come back parsed from Postgres and as text from DuckDB's raw reader. */
export const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v)

export const user = (e: Engine, name: string) =>
  e.sightline.users.create({ email: `${name.toLowerCase()}@acme.io`, firstName: name, organizationIds: [e.organizationId] })

/** The insight's raw row. */
export const insightRow = async (db: FreshDatabase, id: number) => {
  const [row] = await db.raw<Record<string, unknown>>(
    'select short_id, name, derived_name, description, filters, query, "order", deleted, favorited, saved, tags, is_sample, created_by, last_modified_by, query is null as query_is_null from insights where id = $1',
    [id],
  )
  return row!
}

export const tilesOf = (db: FreshDatabase, insightId: number) =>
  db.raw<{ id: number; dashboard_id: number; deleted: boolean }>('select id, dashboard_id, deleted from dashboard_tiles where insight_id = $1 order by id', [insightId])

/** What each call writes: checked to be unchanged after a call that fails. */
export const written = async (db: FreshDatabase) => ({
  insights: await count(db, 'insights'),
  tiles: await count(db, 'dashboard_tiles'),
  liveTiles: await count(db, 'dashboard_tiles', 'not deleted'),
  dashboards: await count(db, 'dashboards', 'not deleted'),
  views: await count(db, 'insight_views'),
  activity: await count(db, 'activity_log', "scope in ('Insight', 'Dashboard')"),
})

export const failure = (p: Promise<unknown>) => p.then(
  () => expect.fail('expected the call to fail'),
  (error: unknown) => error as Error & { attr?: string | null; resource?: string },
)

export const ids = (page: { results: ReadonlyArray<{ id: number }> }) => page.results.map((r) => r.id)
