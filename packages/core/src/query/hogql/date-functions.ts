import { sql, type Expression } from 'kysely'
import type { HogqlFunction } from './hogql-function.js'
import { HogqlError, type HogqlNode } from './hogql-node.js'
import { fromLocalTime, localTime, make, timeOf, type Ctx, type Temporal, type Value } from './value.js'
import { sqlCast } from '../../db/sql-cast.js'

/**
 * Date functions, in the project's time zone as HogQL runs them (it passes the
 * team's zone to ClickHouse). Calendar truncation happens on the wall-clock
 * time and is turned back into an instant; the hour is truncated by
 * subtracting the wall clock's minutes and seconds, so a repeated autumn hour
 * stays two hours.
 */
const fn = (min: number, max: number, compile: HogqlFunction['compile']): HogqlFunction => ({ min, max, compile })

const timeArg = (args: ReadonlyArray<unknown>, index: number, node: HogqlNode, ctx: Ctx) => timeOf(ctx.compile(args[index]), ctx, node)

const time = (e: Expression<unknown>, weight: number, temporal: Temporal) => make('datetime', e, weight, { temporal })

/** The start of the calendar `unit` holding the instant, as an instant. */
function truncate(unit: 'day' | 'month' | 'quarter' | 'year', temporal: Temporal) {
  return fn(1, 1, (args, node, ctx) => {
    const t = timeArg(args, 0, node, ctx)
    return time(fromLocalTime(sql`date_trunc(${sql.lit(unit)}, ${localTime(t.sql, ctx)})`, ctx), t.weight + 1, temporal)
  })
}

function startOfHour(args: ReadonlyArray<unknown>, node: HogqlNode, ctx: Ctx): Value {
  const t = timeArg(args, 0, node, ctx)
  const local = localTime(t.sql, ctx)
  return time(sql`(${t.sql} - (${local} - date_trunc('hour', ${local})))`, 3 * t.weight + 1, 'datetime')
}

/** ClickHouse's week modes: even modes start weeks on Sunday (mode 0 is the default), odd ones on Monday. */
function startOfWeek(args: ReadonlyArray<unknown>, node: HogqlNode, ctx: Ctx): Value {
  const t = timeArg(args, 0, node, ctx)
  const mode = args.length > 1 ? ctx.compile(args[1]).literal?.value : 0
  if (typeof mode !== 'number' || !Number.isInteger(mode) || mode < 0 || mode > 9) throw new HogqlError('needs a week mode from 0 to 9 as its second argument', node)
  const local = localTime(t.sql, ctx)
  // date_trunc('week') starts on Monday; shifting a day forward and back starts it on Sunday.
  const start = mode % 2 === 1 ? sql`date_trunc('week', ${local})` : sql`(date_trunc('week', ${local} + interval '1 day') - interval '1 day')`
  return time(fromLocalTime(start, ctx), t.weight + 1, 'date')
}

function now(ctx: Ctx, node: HogqlNode): Expression<unknown> {
  const at = ctx.scope.now
  if (!at) throw new HogqlError('reads the clock, which this query does not provide', node)
  return sql`${sqlCast(at.toISOString(), 'timestamptz')}`
}

const DIFF_UNITS = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const
type DiffUnit = (typeof DIFF_UNITS)[number]

/**
 * `dateDiff(unit, a, b)`: how many unit boundaries of the project's wall clock
 * lie between a and b (ClickHouse's count, not elapsed time: 23:59 to 00:01
 * is one day). Weeks start on Monday, as ClickHouse's relative week numbers.
 */
function dateDiff(args: ReadonlyArray<unknown>, node: HogqlNode, ctx: Ctx): Value {
  const unit = ctx.compile(args[0]).literal?.value
  if (typeof unit !== 'string' || !(DIFF_UNITS as ReadonlyArray<string>).includes(unit)) {
    throw new HogqlError(`needs a unit literal as its first argument: ${DIFF_UNITS.join(', ')}`, node)
  }
  const a = timeArg(args, 1, node, ctx)
  const b = timeArg(args, 2, node, ctx)
  const diff = sql`(${unitNumber(b, unit as DiffUnit, ctx)} - ${unitNumber(a, unit as DiffUnit, ctx)})`
  return make('number', diff, 3 * (a.weight + b.weight) + 1, { factorSafe: true })
}

/** The number of the unit holding the instant, counted from the epoch on the wall clock (seconds: on UTC). */
function unitNumber(t: Value, unit: DiffUnit, ctx: Ctx): Expression<unknown> {
  if (unit === 'second') return sql`floor(cast(${ctx.scope.hooks.epochMicros(t.sql)} as double precision) / 1000000)`
  const local = localTime(t.sql, ctx)
  const seconds = sql`cast(extract(epoch from ${local}) as double precision)`
  const year = sql`cast(extract(year from ${local}) as double precision)`
  const month = sql`cast(extract(month from ${local}) as double precision)`
  switch (unit) {
    case 'minute':
      return sql`floor(${seconds} / 60)`
    case 'hour':
      return sql`floor(${seconds} / 3600)`
    case 'day':
      return sql`floor(${seconds} / 86400)`
    case 'week':
      // 1970-01-01 was a Thursday: day 4 is the first Monday.
      return sql`floor((floor(${seconds} / 86400) + 3) / 7)`
    case 'month':
      return sql`(${year} * 12 + ${month})`
    case 'quarter':
      return sql`(${year} * 4 + floor((${month} - 1) / 3))`
    case 'year':
      return year
  }
}

/** The date functions of the subset (merged into `HOGQL_FUNCTIONS`). */
export const DATE_FUNCTIONS: ReadonlyArray<readonly [string, HogqlFunction]> = [
  ['toStartOfHour', fn(1, 1, startOfHour)],
  ['toStartOfDay', truncate('day', 'datetime')],
  ['toStartOfWeek', fn(1, 2, startOfWeek)],
  ['toStartOfMonth', truncate('month', 'date')],
  ['toStartOfQuarter', truncate('quarter', 'date')],
  ['toStartOfYear', truncate('year', 'date')],
  ['toDate', truncate('day', 'date')],
  ['toDateTime', fn(1, 1, (args, node, ctx) => {
    const t = timeArg(args, 0, node, ctx)
    return time(t.sql, t.weight, 'datetime')
  })],
  ['now', fn(0, 0, (_args, node, ctx) => time(now(ctx, node), 1, 'datetime64'))],
  ['today', fn(0, 0, (_args, node, ctx) => time(fromLocalTime(sql`date_trunc('day', ${localTime(now(ctx, node), ctx)})`, ctx), 1, 'date'))],
  ['dateDiff', fn(3, 3, dateDiff)],
]
