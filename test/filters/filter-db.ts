/**
 * The filter tests' database: a plain table `filter_events(id, properties,
 * person_properties)` created per target through the adapter's own dialect
 * (so the SQL runs through the same driver and parameter binding as in
 * Sightline), not core's events table: filters are compiled over any JSON
 * column, and a plain table keeps each case to one insert and one select.
 */
import { describe, it } from 'vitest'
import { Kysely, sql, type Expression, type SqlBool } from 'kysely'
import type { StorageAdapter } from '@sightline/core'
import { normalizeStep, type ActionStepInput } from '../../packages/core/src/model/action.js'
import { compileActionCondition, type ActionSources } from '../../packages/core/src/query/actions/compile-action.js'
import { compilePropertyFilters } from '../../packages/core/src/query/filters/compile-property-filters.js'
import { decodePropertyFilters } from '../../packages/core/src/query/filters/property-filters.js'
import { duckdbMemory } from '../targets/duckdb.js'
import { pgliteTarget, pgServerTarget } from '../targets/postgres.js'
import { clickhouseTarget } from '../targets/clickhouse.js'
import type { ConformanceTarget, FreshDatabase } from '../conformance/target.js'

export const PG_URL = process.env.SIGHTLINE_PG_URL
const server = PG_URL ? pgServerTarget(PG_URL) : undefined
export const targets: ReadonlyArray<ConformanceTarget> = [duckdbMemory, pgliteTarget, ...(server ? [server] : [])]
export const serverSkipReason = PG_URL ? undefined : 'SIGHTLINE_PG_URL is not set: the Postgres server target is skipped'

/**
 * The targets of the random properties and of the analyses' worked examples:
 * DuckDB and one Postgres, the server when SIGHTLINE_PG_URL names one, else
 * PGlite. The two run the same SQL through the same adapter (one dialect, one
 * set of hooks), so the same requests on both reached no code the other does
 * not, while PGlite
 * (Postgres in WebAssembly, in the test process) costs the suite's CPU: the
 * 22 files of the properties and their neighbours took 126 s of CPU with both
 * and 98 s with one (2026-11-28). PGlite keeps the storage conformance suite,
 * the HTTP suites and its driver's own tests.
 */
export const propertyTargets: ReadonlyArray<ConformanceTarget> = [duckdbMemory, server ?? pgliteTarget]
/** The Postgres target a property skips, and why (a file states it with `it.skip`). */
export const propertySkip: { readonly name: string; readonly reason: string } = server
  ? { name: pgliteTarget.name, reason: 'the Postgres server runs this suite (SIGHTLINE_PG_URL): the same SQL on PGlite too reached nothing new; PGlite keeps the storage conformance suite' }
  : { name: 'postgres (server)', reason: serverSkipReason! }

/**
 * `propertyTargets` and ClickHouse (chDB, its companion DuckDB in memory):
 * for the analyses' worked examples and the suites that pass on every
 * storage. One Postgres for the reason `propertyTargets` gives: with the
 * server and PGlite both, the worked examples ran the same SQL twice (about
 * 40 s of the suite's CPU, 2026-11-29). ClickHouse runs a share of each
 * reference property's runs (`runsOn`, `propertyShare`), for the suite's
 * CPU, and only with SIGHTLINE_CLICKHOUSE_SUITES=1 (`.ci/run` sets it; chDB
 * is prebuilt for linux-x64 only); the conformance suite runs on chDB
 * always. Suites still on `targets` alone: see
 * packages/storage-clickhouse/README.md.
 */
export const analysisTargets: ReadonlyArray<ConformanceTarget> = process.env.SIGHTLINE_CLICKHOUSE_SUITES === '1' ? [...propertyTargets, clickhouseTarget] : propertyTargets

/** States, as a skipped test of its own, the Postgres target a file on `analysisTargets` or `propertyTargets` leaves out and why. */
export function describePropertySkip(): void {
  describe(propertySkip.name, () => it.skip(propertySkip.reason, () => {}))
}

export interface FilterRow {
  id: number
  event: Record<string, unknown>
  person?: Record<string, unknown>
  /** The row's `elements_chain`; '' when missing. */
  elementsChain?: string
  /** The row's event name; '' when missing. */
  eventName?: string
  /** The cohorts the row's person is in (a stand-in for cohort membership). */
  cohorts?: ReadonlyArray<number>
}

export interface FilterDb {
  readonly adapter: StorageAdapter
  load(rows: ReadonlyArray<FilterRow>): Promise<void>
  /** Ids of the loaded rows the filters select, ascending. */
  select(filters: unknown): Promise<number[]>
  /** Ids of the loaded rows an action with these steps matches, ascending. */
  selectAction(steps: ReadonlyArray<ActionStepInput>): Promise<number[]>
  close(): Promise<void>
}

export async function openFilterDb(target: ConformanceTarget): Promise<FilterDb> {
  const fresh: FreshDatabase = await target.fresh()
  const adapter = fresh.storage()
  // ClickHouse: the table on ClickHouse itself, where the analyses' filters run (the adapter would create it on its companion).
  const direct = await fresh.analysisDatabase?.()
  const driver = direct === undefined ? await adapter.open() : undefined
  const db = new Kysely<any>({ dialect: direct?.dialect ?? driver!.dialect })
  const hooks = direct?.sql ?? adapter.sql
  const json = sql.raw(direct?.jsonColumnType ?? adapter.capabilities.jsonColumnType)
  await sql`create table filter_events (id integer, properties ${json}, person_properties ${json}, elements_chain text not null, event text not null, cohorts text not null) ${sql.raw(direct?.tableOptions ?? '')}`.execute(db)
  const sources: ActionSources = {
    event: sql.ref('properties'),
    person: sql.ref('person_properties'),
    elementsChain: sql.ref('elements_chain'),
    eventName: sql.ref('event'),
    // Membership stands in as a list `,1,3,` in a column: what is tested here is the compiler's use of the hook.
    cohort: (id) => sql<SqlBool>`(cohorts like ${`%,${id},%`})`,
    hooks,
  }
  const ids = async (where: Expression<SqlBool>) =>
    (await db.selectFrom('filter_events').select('id').where(where).orderBy('id').execute()).map((r) => Number(r.id))
  return {
    adapter,
    async load(rows) {
      await sql`truncate table filter_events`.execute(db)
      if (rows.length === 0) return
      await db
        .insertInto('filter_events')
        .values(
          rows.map((r) => ({
            id: r.id,
            properties: JSON.stringify(r.event),
            person_properties: JSON.stringify(r.person ?? {}),
            elements_chain: r.elementsChain ?? '',
            event: r.eventName ?? '',
            cohorts: `,${(r.cohorts ?? []).join(',')},`,
          })),
        )
        .execute()
    },
    select: async (filters) => ids(compilePropertyFilters(decodePropertyFilters(filters), sources)),
    selectAction: async (steps) => ids(compileActionCondition({ id: 1, name: null, steps: steps.map(normalizeStep) }, sources)),
    async close() {
      await db.destroy()
      await driver?.close()
      await fresh.dispose()
    },
  }
}
