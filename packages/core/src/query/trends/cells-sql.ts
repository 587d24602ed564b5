import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import { aggregateOf, isCountPerActorMath, isPropertyMath, type MathName } from './maths.js'
import { hogqlAggregate } from './hogql-math.js'
import { PERSON_UUID, personlessKey } from '../scope/event-scope.js'
import { personText, type SeriesScope } from './series-scope.js'
import type { QueryEnv } from '../analysis/query-env.js'
import type { TrendSeries } from './trend-request.js'
import { eventPropertyNumber } from '../filters/compile-property-filters.js'
import { sqlCast } from '../../db/sql-cast.js'

/**
 * What one cells query reads: the series' events, each row's bucket and
 * breakdown values, and which rows count.
 */
export interface CellsInput {
  readonly scope: SeriesScope
  /** The bucket index of each row; null for one value over the whole range (bucket 0). */
  readonly bucket: Expression<number> | null
  /** The row's breakdown values, one per dimension. */
  readonly keys: ReadonlyArray<Expression<string>>
  /** Fold all keys into one (the Other row): the rows are grouped by bucket only. */
  readonly fold: boolean
  /** Extra condition on the rows (the Other row's "not one of the top values"). */
  readonly filter?: Expression<SqlBool>
  /** The analysis' environment, for maths that compile HogQL. */
  readonly env?: QueryEnv
}

/** A compiled cells query: rows `{ b, k0..kN, v }` (`k` columns absent when folded). */
export type CellsSql = RawBuilder<Record<string, unknown>>

const col = (name: string) => sql.raw(name)
const keyNames = (input: CellsInput): string[] => (input.fold ? [] : input.keys.map((_, i) => `k${i}`))
const groupNames = (input: CellsInput): string[] => [...(input.bucket ? ['b'] : []), ...keyNames(input)]
const list = (names: ReadonlyArray<string>) => sql.join(names.map(col), sql`, `)
const groupBy = (names: ReadonlyArray<string>) => (names.length === 0 ? sql`` : sql`group by ${list(names)}`)
/** Counts and sums come back as float8 on both databases (Postgres's `avg(bigint)` is numeric, which the driver returns as text). */
const asNumber = (e: Expression<unknown>) => sqlCast<number>(e, 'float8')

/** The scoped rows with their bucket, keys and extra columns. */
export function rowsSql(input: CellsInput, extra: ReadonlyArray<readonly [string, Expression<unknown>]>): RawBuilder<unknown> {
  const columns = [
    ...(input.bucket ? [sql`${input.bucket} as b`] : []),
    ...(input.fold ? [] : input.keys.map((k, i) => sql`${k} as ${col(`k${i}`)}`)),
    ...extra.map(([name, e]) => sql`${e} as ${col(name)}`),
  ]
  const where = input.filter ? sql`(${input.scope.where} and ${input.filter})` : input.scope.where
  return sql`select ${columns.length === 0 ? sql`1 as one` : sql.join(columns, sql`, `)} from ${input.scope.from} where ${where}`
}

/** The actor an actor math counts, as text (actor lists show it): the person, the group key, or the session id. */
export function actorSql(series: TrendSeries, input: CellsInput): Expression<string | null> {
  const s = input.scope.sources
  if (series.math === 'unique_group') return s.groupKeys[series.groupTypeIndex!]!
  if (series.math === 'unique_session') return s.sessionId
  return personText()
}

/**
 * `actorSql` for counting and grouping, null where there is no actor ('' in
 * the text): the person as `PERSON_KEY`, a fixed-size key that hashes and
 * compares far faster than its text (a daily dau at 1M events took half the
 * time), the group key or the session id.
 */
export function actorKeySql(series: TrendSeries, input: CellsInput): Expression<string | null> {
  if (series.math === 'unique_group' || series.math === 'unique_session') return sql<string | null>`nullif(${actorSql(series, input)}, '')`
  return personKeySql()
}

/**
 * The person of a scoped row as `PERSON_KEY`, except that a personless event
 * with a blank distinct id has no actor (null), as its text '' has none.
 */
export const personKeySql = (): Expression<string | null> =>
  sql<string | null>`coalesce(${PERSON_UUID}, case when e.distinct_id <> '' then ${personlessKey(sql.ref('e.distinct_id'))} end)`

/**
 * The numeric value of a property math: non-numbers are null and ignored
 * (PostHog's toFloat), read from a double column where one holds it.
 */
export function propertyNumberSql(series: TrendSeries, input: CellsInput): Expression<number | null> {
  return eventPropertyNumber(input.scope.sources, series.mathProperty!)
}

/** The SQL aggregate of a property or count-per-actor math over column `x`; 0 for no values. */
function aggregateSql(math: MathName, x: Expression<number | null>, input: CellsInput): Expression<number> {
  const a = aggregateOf(math as never)
  const hooks = input.scope.sources.hooks
  const inner = a.kind === 'quantile' ? hooks.quantileCont(x, a.q) : sql`${sql.raw(a.kind)}(${x})`
  return sql<number>`coalesce(${asNumber(inner)}, 0)`
}

/**
 * One value per bucket and breakdown value for the per-bucket maths
 * (everything but the active-users windows and `first_time_for_user`), in
 * the shapes that measured fastest: plain counts; distinct actors through
 * `SELECT DISTINCT` then `count(*)` (Postgres's `count(DISTINCT)` always
 * sorts); property aggregates over the parsed number; counts per actor, then
 * their aggregate.
 */
export function cellsSql(series: TrendSeries, input: CellsInput): CellsSql {
  const groups = groupNames(input)
  const m = series.math
  if (m === 'total') {
    return sql`select ${selectGroups(groups)}${asNumber(sql`count(*)`)} as v from (${rowsSql(input, [])}) as t ${groupBy(groups)}`
  }
  if (m === 'dau' || m === 'unique_group' || m === 'unique_session') {
    // Rows without an actor still make their bucket and breakdown value exist (a session-less event is a
    // breakdown row worth 0), except for groups: PostHog drops events without the group (`$group_N != ''`).
    const rows = rowsSql(m === 'unique_group' ? { ...input, filter: and(input.filter, sql<SqlBool>`${actorSql(series, input)} <> ''`) } : input, [['a', actorKeySql(series, input)]])
    const distinct = sql`select distinct ${list([...groups, 'a'])} from (${rows}) as r`
    return sql`select ${selectGroups(groups)}${asNumber(sql`count(a)`)} as v from (${distinct}) as t ${groupBy(groups)}`
  }
  if (isPropertyMath(m)) {
    return sql`select ${selectGroups(groups)}${aggregateSql(m, sql.ref('x'), input)} as v from (${rowsSql(input, [['x', propertyNumberSql(series, input)]])}) as t ${groupBy(groups)}`
  }
  if (isCountPerActorMath(m)) {
    const perActor = sql`select ${selectGroups(groups)}count(*) as c from (${rowsSql(input, [['a', actorKeySql(series, input)]])}) as r ${groupBy([...groups, 'a'])}`
    return sql`select ${selectGroups(groups)}${aggregateSql(m, sql.ref('c'), input)} as v from (${perActor}) as t ${groupBy(groups)}`
  }
  if (m === 'hogql' && input.env) {
    const e = series.entity
    const h = hogqlAggregate(e.mathHogql ?? '', input.env, input.scope.sources, [e.kind, e.index, 'math_hogql'])
    return sql`select ${selectGroups(groups)}${h.aggregate(sql.ref('x'))} as v from (${rowsSql(input, [['x', h.column]])}) as t ${groupBy(groups)}`
  }
  throw new Error(`cellsSql: math ${m} is computed elsewhere`)
}

const and = (a: Expression<SqlBool> | undefined, b: Expression<SqlBool>): Expression<SqlBool> => (a ? sql<SqlBool>`(${a} and ${b})` : b)

/** `b, k0, ..., ` (with the trailing comma) or nothing. */
export function selectGroups(names: ReadonlyArray<string>): RawBuilder<unknown> {
  return names.length === 0 ? sql`` : sql`${list(names)}, `
}
export { groupBy as groupBySql, groupNames, keyNames, asNumber }
