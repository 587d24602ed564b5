/**
 * The filter tests' database: a plain table `filter_events(id, properties,
 * person_properties)` created per target through the adapter's own dialect
 * (so the SQL runs through the same driver and parameter binding as in
 * Sightline), not core's events table: filters are compiled over any JSON
 * column, and a plain table keeps each case to one insert and one select.
 */
import { Kysely, sql } from 'kysely'
import type { StorageAdapter } from '@sightline/core'
import { compilePropertyFilters } from '../../packages/core/src/query/filters/compile-property-filters.js'
import { decodePropertyFilters } from '../../packages/core/src/query/filters/property-filters.js'
import { duckdbMemory } from '../targets/duckdb.js'
import { pgliteTarget, pgServerTarget } from '../targets/postgres.js'
import type { ConformanceTarget, FreshDatabase } from '../conformance/target.js'

export const PG_URL = process.env.SIGHTLINE_PG_URL
export const targets: ReadonlyArray<ConformanceTarget> = [duckdbMemory, pgliteTarget, ...(PG_URL ? [pgServerTarget(PG_URL)] : [])]
export const serverSkipReason = PG_URL ? undefined : 'SIGHTLINE_PG_URL is not set: the Postgres server target is skipped'

export interface FilterRow {
  id: number
  event: Record<string, unknown>
  person?: Record<string, unknown>
  /** The row's `elements_chain`; '' when missing. */
  elementsChain?: string
}

export interface FilterDb {
  readonly adapter: StorageAdapter
  load(rows: ReadonlyArray<FilterRow>): Promise<void>
  /** Ids of the loaded rows the filters select, ascending. */
  select(filters: unknown): Promise<number[]>
  close(): Promise<void>
}

export async function openFilterDb(target: ConformanceTarget): Promise<FilterDb> {
  const fresh: FreshDatabase = await target.fresh()
  const adapter = fresh.storage()
  const driver = await adapter.open()
  const db = new Kysely<any>({ dialect: driver.dialect })
  const json = sql.raw(adapter.capabilities.jsonColumnType)
  await sql`create table filter_events (id integer, properties ${json}, person_properties ${json}, elements_chain text not null)`.execute(db)
  return {
    adapter,
    async load(rows) {
      await sql`delete from filter_events`.execute(db)
      if (rows.length === 0) return
      await db
        .insertInto('filter_events')
        .values(rows.map((r) => ({ id: r.id, properties: JSON.stringify(r.event), person_properties: JSON.stringify(r.person ?? {}), elements_chain: r.elementsChain ?? '' })))
        .execute()
    },
    async select(filters) {
      const where = compilePropertyFilters(decodePropertyFilters(filters), {
        event: sql.ref('properties'),
        person: sql.ref('person_properties'),
        elementsChain: sql.ref('elements_chain'),
        hooks: adapter.sql,
      })
      const rows = await db.selectFrom('filter_events').select('id').where(where).orderBy('id').execute()
      return rows.map((r) => Number(r.id))
    },
    async close() {
      await db.destroy()
      await driver.close()
      await fresh.dispose()
    },
  }
}
