/**
 * An analysis' SQL compiled with no database, per dialect, for the SQL
 * snapshot tests: each storage's own query compiler and SQL hooks over
 * Kysely's DummyDriver, and a QueryEnv of one project in Berlin with no
 * actions, cohorts or promoted properties, at a fixed "now".
 */
import { DummyDriver, Kysely, PostgresIntrospector, type Dialect, type RawBuilder } from 'kysely'
import { DuckDBDialect, duckdbStorage } from '@sightline/storage-duckdb'
import { createPgDialect, postgresStorage } from '@sightline/storage-postgres'
import type { SqlHooks } from '@sightline/core/storage'
import { ValidationError } from '../../../packages/core/src/errors.js'
import type { QueryEnv } from '../../../packages/core/src/query/analysis/query-env.js'
import type { QueryExtensions } from '../../../packages/core/src/query/analysis/query-extensions.js'
import { resolveDateRange } from '../../../packages/core/src/query/dates/resolve-date-range.js'
import { bucketLimitOf, DEFAULT_QUERY_LIMITS } from '../../../packages/core/src/query/execution/query-limits.js'
import type { FunnelEnv } from '../../../packages/core/src/query/funnels/funnel-env.js'
import type { FunnelRequest } from '../../../packages/core/src/query/funnels/funnel-request.js'
import { noNeeds } from '../../../packages/core/src/query/scope/filter-needs.js'
import type { QueryProject } from '../../../packages/core/src/query/scope/query-project.js'
import { trendPeriods, type Period } from '../../../packages/core/src/query/dates/periods.js'
import type { TrendRequest } from '../../../packages/core/src/query/trends/trend-request.js'

/** The clock of every snapshot. */
export const SNAPSHOT_NOW = new Date('2024-03-20T12:00:00Z')

/** A Kysely that compiles as `dialect` does and runs nothing. */
function compilerOf(dialect: Dialect): Kysely<any> {
  return new Kysely<any>({
    dialect: {
      createAdapter: () => dialect.createAdapter(),
      createQueryCompiler: () => dialect.createQueryCompiler(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
    },
  })
}

export interface SnapshotDialect {
  readonly hooks: SqlHooks
  /** The SQL and bound parameters `query` compiles to in this dialect. */
  compile(query: RawBuilder<unknown>): { readonly sql: string; readonly parameters: ReadonlyArray<unknown> }
}

const dialect = (hooks: SqlHooks, kysely: Kysely<any>): SnapshotDialect => ({
  hooks,
  compile(query) {
    const { sql, parameters } = query.compile(kysely)
    return { sql, parameters }
  },
})

// The instance and the URL are never used: only the dialects' compilers are.
const duckdb = compilerOf(new DuckDBDialect({ instance: {} as never }))
const postgres = compilerOf(createPgDialect({ connectionString: 'postgres://unused' }))

/** DuckDB's and Postgres's (the server's and PGlite's) compilers and hooks. */
export const SNAPSHOT_DIALECTS: Readonly<Record<'duckdb' | 'postgres', SnapshotDialect>> = {
  duckdb: dialect(duckdbStorage().sql, duckdb),
  postgres: dialect(postgresStorage({ connectionString: 'postgres://unused' }).sql, postgres),
}

/** The project every snapshot queries. */
export const SNAPSHOT_PROJECT: QueryProject = {
  id: 7,
  timezone: 'Europe/Berlin',
  weekStartDay: 1,
  testAccountFilters: [],
  pathCleaningFilters: [],
}

/** A QueryEnv of `SNAPSHOT_PROJECT` in `hooks`' dialect: no actions or cohorts exist (naming one is a ValidationError). */
export function snapshotEnv(hooks: SqlHooks): QueryEnv {
  const none = (what: string) => () => {
    throw new ValidationError([{ path: [what], message: `no ${what} in SQL snapshots` }], { context: 'snapshot' })
  }
  const extensions: QueryExtensions = {
    actionCondition: none('actions'),
    cohortCondition: none('cohorts'),
    cohortName: () => null,
    actionName: () => null,
    cohorts: { projectId: SNAPSHOT_PROJECT.id, timeZone: SNAPSHOT_PROJECT.timezone, weekStartDay: SNAPSHOT_PROJECT.weekStartDay, cohorts: new Map(), actions: new Map() },
    needs: noNeeds(),
    filterSources: { dates: { timeZone: SNAPSHOT_PROJECT.timezone, now: SNAPSHOT_NOW, weekStartDay: SNAPSHOT_PROJECT.weekStartDay } },
  }
  return { project: SNAPSHOT_PROJECT, hooks, extensions, now: SNAPSHOT_NOW }
}

/** The periods of a trend, stickiness or lifecycle request at `SNAPSHOT_NOW` in `SNAPSHOT_PROJECT`. */
export function snapshotPeriods(request: TrendRequest): Promise<Period[]> {
  return trendPeriods(
    { interval: request.interval, dateFrom: request.dateFrom, dateTo: request.dateTo, explicitDate: request.explicitDate, compare: request.compare, compareTo: request.compareTo },
    { timezone: SNAPSHOT_PROJECT.timezone, weekStartDay: SNAPSHOT_PROJECT.weekStartDay, now: SNAPSHOT_NOW, earliestEvent: async () => null, bucketLimit: bucketLimitOf(DEFAULT_QUERY_LIMITS) },
  )
}

/** A funnel's env in `SNAPSHOT_PROJECT` at `SNAPSHOT_NOW` in `hooks`' dialect: its range resolved, no actions or cohorts. */
export async function snapshotFunnelEnv(hooks: SqlHooks, request: FunnelRequest): Promise<FunnelEnv> {
  const env = snapshotEnv(hooks)
  const range = await resolveDateRange(
    { dateFrom: request.dateFrom, dateTo: request.dateTo, explicitDate: request.explicitDate, interval: request.interval },
    { timezone: SNAPSHOT_PROJECT.timezone, weekStartDay: SNAPSHOT_PROJECT.weekStartDay, now: SNAPSHOT_NOW, earliestEvent: async () => null },
  )
  return { project: SNAPSHOT_PROJECT, extensions: env.extensions, range, actionNames: new Map(), cohorts: null, cohortNames: new Map(), now: SNAPSHOT_NOW }
}
