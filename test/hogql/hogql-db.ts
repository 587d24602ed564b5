/**
 * The HogQL tests' database: a plain table `hogql_events` with the columns of
 * a `HogqlScope`, created per target through the adapter's own dialect (the
 * same driver and parameter binding as in Sightline), as test/filters does.
 */
import { Kysely, sql } from 'kysely'
import type { StorageAdapter } from '@sightline/core'
import { compileHogql, compileHogqlCondition, hogqlToText, loadHogqlParser, type HogqlScope } from '../../packages/core/src/query/hogql/index.js'
import type { ConformanceTarget, FreshDatabase } from '../conformance/target.js'

export { targets, serverSkipReason } from '../filters/filter-db.js'

export interface HogqlRow {
  id: number
  event?: string
  properties?: Record<string, unknown>
  person?: Record<string, unknown>
  distinctId?: string
  personId?: string
  /** ISO 8601 with zone; default 2024-01-15T12:00:00Z. */
  timestamp?: string
  elementsChain?: string
  sessionId?: string | null
  group0?: Record<string, unknown>
  groupKey0?: string
}

export interface ScopeOptions {
  timezone?: string
  now?: Date
  /** Leave the optional columns out of the scope. */
  bare?: boolean
}

export interface HogqlDb {
  readonly adapter: StorageAdapter
  load(rows: ReadonlyArray<HogqlRow>): Promise<void>
  /** The compiled value of each loaded row, by ascending id (numbers, strings, booleans, Dates or null). */
  values(expression: string, options?: ScopeOptions): Promise<unknown[]>
  /** `hogqlToText` of each row's value. */
  texts(expression: string, options?: ScopeOptions): Promise<Array<string | null>>
  /** Ids of the rows `compileHogqlCondition` selects. */
  where(expression: string, options?: ScopeOptions): Promise<number[]>
  /** The SQL and parameters of the value's select, for assertions on binding. */
  compile(expression: string, options?: ScopeOptions): { sql: string; parameters: ReadonlyArray<unknown> }
  close(): Promise<void>
}

export function scopeFor(adapter: StorageAdapter, options: ScopeOptions = {}): HogqlScope {
  const base = {
    hooks: adapter.sql,
    event: sql.ref('properties'),
    eventName: sql.ref<string>('event'),
    timestamp: sql.ref('timestamp'),
    distinctId: sql.ref<string>('distinct_id'),
    timezone: options.timezone ?? 'UTC',
    now: options.now,
  }
  if (options.bare) return base
  return {
    ...base,
    personId: sql.ref<string>('person_id'),
    person: sql.ref('person_properties'),
    elementsChain: sql.ref<string>('elements_chain'),
    sessionId: sql.ref<string | null>('session_id'),
    groups: { 0: sql.ref('group0') },
    groupKeys: { 0: sql.ref<string>('group_key0') },
  }
}

const normalise = (v: unknown) => (typeof v === 'bigint' ? Number(v) : v)

export async function openHogqlDb(target: ConformanceTarget): Promise<HogqlDb> {
  await loadHogqlParser()
  const fresh: FreshDatabase = await target.fresh()
  const adapter = fresh.storage()
  const driver = await adapter.open()
  const db = new Kysely<any>({ dialect: driver.dialect })
  const json = sql.raw(adapter.capabilities.jsonColumnType)
  await sql`create table hogql_events (id integer, event text, properties ${json}, person_properties ${json}, distinct_id text, person_id text,
    timestamp timestamptz, elements_chain text, session_id text, group0 ${json}, group_key0 text)`.execute(db)
  const select = (expression: string, options?: ScopeOptions) =>
    db.selectFrom('hogql_events').select(sql`${compileHogql(expression, scopeFor(adapter, options), ['hogql']).sql}`.as('v')).orderBy('id')
  return {
    adapter,
    async load(rows) {
      await sql`delete from hogql_events`.execute(db)
      if (rows.length === 0) return
      await db
        .insertInto('hogql_events')
        .values(
          rows.map((r) => ({
            id: r.id,
            event: r.event ?? '$pageview',
            properties: JSON.stringify(r.properties ?? {}),
            person_properties: JSON.stringify(r.person ?? {}),
            distinct_id: r.distinctId ?? `d${r.id}`,
            person_id: r.personId ?? `p${r.id}`,
            timestamp: new Date(r.timestamp ?? '2024-01-15T12:00:00Z'),
            elements_chain: r.elementsChain ?? '',
            session_id: r.sessionId ?? null,
            group0: JSON.stringify(r.group0 ?? {}),
            group_key0: r.groupKey0 ?? null,
          })),
        )
        .execute()
    },
    async values(expression, options) {
      const rows = await select(expression, options).execute()
      return rows.map((r) => normalise(r.v))
    },
    async texts(expression, options) {
      const compiled = compileHogql(expression, scopeFor(adapter, options), ['hogql'])
      const rows = await db.selectFrom('hogql_events').select(sql`${hogqlToText(compiled)}`.as('v')).orderBy('id').execute()
      return rows.map((r) => r.v as string | null)
    },
    async where(expression, options) {
      const condition = compileHogqlCondition(expression, scopeFor(adapter, options), ['hogql'])
      const rows = await db.selectFrom('hogql_events').select('id').where(condition).orderBy('id').execute()
      return rows.map((r) => Number(r.id))
    },
    compile(expression, options) {
      const compiled = select(expression, options).compile()
      return { sql: compiled.sql, parameters: compiled.parameters }
    },
    async close() {
      await db.destroy()
      await driver.close()
      await fresh.dispose()
    },
  }
}
