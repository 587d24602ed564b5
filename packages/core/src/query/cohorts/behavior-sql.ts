import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import { ValidationError } from '../../errors.js'
import { dateToMicros, formatTimestamp } from '../../time/timestamp.js'
import { compileActionCondition } from '../actions/compile-action.js'
import { dateProblem, relativeDateParse } from '../dates/relative-date-parse.js'
import { instantOf, zonedFromInstant } from '../dates/wall-clock.js'
import { compilePropertyFilters } from '../filters/compile-property-filters.js'
import type { PropertyCondition, PropertyFilters, PropertyGroup } from '../filters/property-filters.js'
import type { BehavioralNode, Behavior, CohortEntity, CountComparison, ExplicitRange, RelativeSpan } from './behavioral-criterion.js'
import { windowStart } from './behavioral-window.js'
import { monthPeriodsSql } from './month-periods-sql.js'
import type { CohortScope } from './cohort-scope.js'
import type { CohortCatalog } from './load-cohorts.js'
import { personOverrideJoin, personUuidOf } from '../scope/event-scope.js'
import { sqlCast } from '../../db/sql-cast.js'

type Bool = Expression<SqlBool>
type Path = ReadonlyArray<string | number>
type Ts = RawBuilder<unknown>

/** What compiling a behavioral criterion needs of the cohort compiler. */
export interface BehaviorCompiling {
  readonly catalog: CohortCatalog
  readonly scope: CohortScope
  /** A number no other alias of the query uses. */
  alias(): number
  /** `uuid IN (members of cohortId)`, never null: `cohort` filters among the event filters. */
  inCohort(uuid: Expression<unknown>, cohortId: number): Bool
}

const FALSE: Bool = sql<SqlBool>`false`
const MICROS: Readonly<Record<'minute' | 'hour' | 'day' | 'week', number>> = { minute: 60e6, hour: 3600e6, day: 86_400e6, week: 604_800e6 }
const and = (parts: ReadonlyArray<Bool>): Bool => (parts.length === 1 ? parts[0]! : sql<SqlBool>`(${sql.join(parts, sql` and `)})`)
/** An instant as a bound timestamptz parameter. */
const atMicros = (micros: number): Ts => sql`${sqlCast(formatTimestamp(micros), 'timestamptz')}`
const at = (d: Date): Ts => atMicros(dateToMicros(d))
/** `sum(case when cond then 1 else 0 end)`: PostHog's `countIf`. */
const countIf = (cond: Bool): RawBuilder<number> => sql<number>`sum(case when ${cond} then 1 else 0 end)`

/**
 * A query of one column, `person_uuid`: the persons whose events meet the
 * criterion's behavior (see `Behavior`), `now` being `scope.now`. Persons
 * without a matching event in the span the behavior reads never meet it, as
 * in PostHog's query, which holds only persons with events.
 */
export function performers(node: BehavioralNode, c: BehaviorCompiling): RawBuilder<unknown> {
  const b = node.behavior
  const now = c.scope.now
  const W = (span: RelativeSpan, times = 1): Date => windowStart(now, span.value * times, span.unit)
  const rows = (bounds: (ts: Ts) => Bool[], entity: CohortEntity = node.entity, filters = node.eventFilters) => eventRows(entity, filters, node.path, c, bounds)
  const n = c.alias()
  const r = sql.raw(`cb${n}`)
  const ts = sql`${r}.ts`
  const grouped = (from: RawBuilder<unknown>, having: Bool) => sql`select ${r}.person_uuid from (${from}) as ${r} group by ${r}.person_uuid having ${having}`
  /** The range's start, W(span) or the explicit datetime, and its end (explicit_datetime_to, else null: now). */
  const range = (since: RelativeSpan | ExplicitRange): { from: Ts; until: Ts | null; fromDate: Date; untilDate: Date | null } => {
    if (!('explicit' in since)) return { from: at(W(since)), until: null, fromDate: W(since), untilDate: null }
    const micros = (text: string, field: string) => explicitInstant(text, [...node.path, field], c)
    const from = micros(since.explicit, 'explicit_datetime')
    const until = since.until === undefined ? null : micros(since.until, 'explicit_datetime_to')
    return { from: atMicros(from), until: until === null ? null : atMicros(until), fromDate: new Date(Math.floor(from / 1000)), untilDate: until === null ? null : new Date(Math.floor(until / 1000)) }
  }
  switch (b.type) {
    case 'count': {
      const { from, until } = range(b.since)
      // explicit_datetime_to: PostHog's HogQL cohort query reads it as EventsQuery's `before`, `timestamp < before`.
      return grouped(rows((t) => [sql<SqlBool>`${t} > ${from}`, sql<SqlBool>`${t} < ${until ?? at(now)}`]), compare(sql`count(*)`, b.comparison, b.count))
    }
    case 'first_time': {
      // Every matching event ever: the first of them is in [W, now), or [explicit_datetime, explicit_datetime_to).
      const { from, until } = range(b.since)
      const to = until ?? at(now)
      if (node.eventFilters === null) return grouped(rows(() => []), sql<SqlBool>`min(${ts}) >= ${from} and min(${ts}) < ${to}`)
      // PostHog's first_time_for_user: the earliest event of the entity (the smaller uuid at a tie), which must pass the filters.
      const f = sql.raw(`cf${n}`)
      const first = sql`select ${r}.person_uuid, ${r}.ts, ${r}.ok, row_number() over (partition by ${r}.person_uuid order by ${r}.ts, ${r}.u) as rn
        from (${eventRows(node.entity, node.eventFilters, node.path, c, () => [], true)}) as ${r}`
      return sql`select ${f}.person_uuid from (${first}) as ${f} where ${f}.rn = 1 and ${f}.ok = 1 and ${f}.ts >= ${from} and ${f}.ts < ${to}`
    }
    case 'stopped': {
      const [from, recent] = [at(W(b.span)), at(W(b.recent))]
      return grouped(
        rows((t) => [sql<SqlBool>`${t} > ${from}`, sql<SqlBool>`${t} <= ${at(now)}`]),
        sql<SqlBool>`${countIf(sql`${ts} <= ${recent}`)} > 0 and ${countIf(sql`${ts} > ${recent}`)} = 0`,
      )
    }
    case 'restarted': {
      const [from, recent] = [at(W(b.span)), at(W(b.recent))]
      return grouped(
        rows((t) => [sql<SqlBool>`${t} <= ${at(now)}`]),
        sql<SqlBool>`${countIf(sql`${ts} <= ${from}`)} > 0 and ${countIf(sql`${ts} > ${from} and ${ts} <= ${recent}`)} = 0 and ${countIf(sql`${ts} > ${recent}`)} > 0`,
      )
    }
    case 'regularly': {
      const inRange = rows((t) => [sql<SqlBool>`${t} > ${at(W(b.span, b.totalPeriods))}`, sql<SqlBool>`${t} <= ${at(now)}`])
      const { unit, value } = b.span
      // Calendar months and years have no fixed length: each event's whole months back from now, by its UTC date.
      const periods =
        unit === 'month' || unit === 'year'
          ? monthPeriodsSql(inRange, now, unit === 'year' ? value * 12 : value, c.scope.hooks, n)
          : fixedPeriods(inRange, value * MICROS[unit], c, n, now)
      return regularly(b, periods, n)
    }
    case 'sequence':
      return sequence(b, rows, c, n, range(b.since), now)
  }
}

/**
 * `select person_uuid, p` from `rows` (`ts <= now`): an event at `ts` is in
 * period `p = floor((now - ts) / length)`, which is exactly
 * `(W(length (p + 1)), W(length p)]`.
 */
function fixedPeriods(rows: RawBuilder<unknown>, length: number, c: BehaviorCompiling, n: number, now: Date): RawBuilder<unknown> {
  const { epochMicros, intDiv } = c.scope.hooks
  const r = sql.raw(`cr${n}`)
  const period = intDiv(sql<number>`(cast(${dateToMicros(now)} as bigint) - ${epochMicros(sql`${r}.ts`)})`, sql<number>`cast(${length} as bigint)`)
  // The period is a column before it is grouped by: its bound parameters would make two spellings of it differ.
  return sql`select ${r}.person_uuid, ${period} as p from (${rows}) as ${r}`
}

/**
 * `regularly` from each event's period `p` (`periods`: `person_uuid, p`,
 * `p < total_periods`, fixedPeriods or monthPeriodsSql): the periods with
 * events are counted per person and compared; the periods without any
 * (`total` minus those) meet the comparison when zero does (`lt`, `lte` of
 * any count). So the SQL is the same size whatever `total_periods`. A
 * window clamped at the year 1000 (`windowStart`) holds no event, as its
 * periods in PostHog hold none.
 */
function regularly(b: Extract<Behavior, { type: 'regularly' }>, periods: RawBuilder<unknown>, n: number): RawBuilder<unknown> {
  const [q, g] = [sql.raw(`cq${n}`), sql.raw(`cg${n}`)]
  const zeroMeets = { '>=': 0 >= b.count, '>': 0 > b.count, '<=': 0 <= b.count, '<': 0 < b.count, '=': 0 === b.count }[b.comparison]
  const met = sql`sum(case when ${compare(sql`${g}.n`, b.comparison, b.count)} then 1 else 0 end)`
  const empty = zeroMeets ? sql` + (cast(${b.totalPeriods} as bigint) - count(*))` : sql``
  return sql`select ${g}.person_uuid from (
      select ${q}.person_uuid, ${q}.p, count(*) as n from (${periods}) as ${q} group by ${q}.person_uuid, ${q}.p
    ) as ${g} group by ${g}.person_uuid having ${met}${empty} >= ${b.minPeriods}`
}

/**
 * An event of the criterion at `a` and one of `then` at `b`, `a < b <=
 * within`, both in `(from, now]` (or `(from, until)` with
 * explicit_datetime_to): PostHog's window over the person's events ordered
 * by time (the earliest later `then` event within reach of each event),
 * events at one instant never in sequence.
 */
function sequence(
  b: Extract<Behavior, { type: 'sequence' }>,
  rows: (bounds: (ts: Ts) => Bool[], entity?: CohortEntity, filters?: PropertyFilters | null) => RawBuilder<unknown>,
  c: BehaviorCompiling,
  n: number,
  { from, until, fromDate, untilDate }: { from: Ts; until: Ts | null; fromDate: Date; untilDate: Date | null },
  now: Date,
): RawBuilder<unknown> {
  const end = (t: Ts): Bool => (until === null ? sql<SqlBool>`${t} <= ${at(now)}` : sql<SqlBool>`${t} < ${until}`)
  const bounds = (t: Ts): Bool[] => [sql<SqlBool>`${t} > ${from}`, end(t)]
  const [x, y] = [sql.raw(`cx${n}`), sql.raw(`cy${n}`)]
  return sql`select ${x}.person_uuid from (${rows(bounds)}) as ${x}
    inner join (${rows(bounds, b.then, null)}) as ${y} on ${y}.person_uuid = ${x}.person_uuid and ${y}.ts > ${x}.ts
      and ${withinReach(sql`${x}.ts`, sql`${y}.ts`, b.within, fromDate, untilDate ?? now, c.scope.hooks)}
    group by ${x}.person_uuid`
}

/**
 * `later <= earlier + within`: fixed microseconds for minutes to weeks; for
 * months and years PostHog's `+ INTERVAL n MONTH`, calendar months after
 * each event (`addMonths`). Both events lie in `(from, to]`: a window that
 * carries `from` to `to` or past holds every pair, and is left out, so the
 * database never adds a span that outruns its timestamps.
 */
function withinReach(earlier: Ts, later: Ts, within: RelativeSpan, from: Date, to: Date, hooks: CohortScope['hooks']): Bool {
  if (within.unit !== 'month' && within.unit !== 'year') {
    const reach = within.value * MICROS[within.unit]
    return sql<SqlBool>`${hooks.epochMicros(later)} <= ${hooks.epochMicros(earlier)} + cast(${reach} as bigint)`
  }
  const months = within.unit === 'year' ? within.value * 12 : within.value
  const spanned = (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth() + 1
  if (months >= spanned) return sql<SqlBool>`true`
  return sql<SqlBool>`${later} <= ${hooks.addMonths(earlier, months)}`
}

/** `value comparison count`, the count a bound parameter. */
const compare = (value: Expression<unknown>, comparison: CountComparison, count: number): Bool => sql<SqlBool>`${value} ${sql.raw(comparison)} ${count}`

/** PostHog's `relative_date_parse(text, team zone)`: an instant in epoch microseconds, resolved against `scope.now`; `path` is the field's. */
function explicitInstant(text: string, path: Path, c: BehaviorCompiling): number {
  const { timeZone, weekStartDay } = c.catalog
  const parsed = relativeDateParse(text, { timeZone, now: zonedFromInstant(timeZone, c.scope.now.getTime()), weekStartDay, alwaysTruncate: false })
  if (!parsed) {
    throw new ValidationError([{ path, message: dateProblem(text, 'an ISO 8601 date such as 2024-01-31, or a relative date such as -30d') }], { context: 'invalid cohort filters' })
  }
  return instantOf(timeZone, parsed.time)
}

/**
 * `select person_uuid, ts` of the project's events matching `entity` and
 * `eventFilters`, within `bounds` of their timestamp; events of no person
 * left out. `mark`: every event of the entity, with `ok` (1 when it passes
 * `eventFilters`, else 0) and its uuid as text `u`.
 */
function eventRows(entity: CohortEntity, eventFilters: PropertyFilters | null, path: Path, c: BehaviorCompiling, bounds: (ts: Ts) => Bool[], mark = false): RawBuilder<unknown> {
  const n = c.alias()
  const [e, pp] = [sql.raw(`ce${n}`), sql.raw(`cpp${n}`)]
  const person = personUuidOf(`ce${n}`, `cov${n}`)
  const action = entity.type === 'actions' ? c.catalog.actions.get(entity.actionId) : undefined
  const filters = [...(action?.steps ?? []).map((s) => s.properties), eventFilters]
  const withPerson = filters.some((f) => f !== null && readsPerson(f))
  const sources = {
    event: sql`${e}.properties`,
    eventName: sql<string>`${e}.event`,
    elementsChain: sql<string>`${e}.elements_chain`,
    ...(withPerson ? { person: sql`${pp}.properties` } : {}),
    cohort: (id: number) => c.inCohort(person, id),
    hooks: c.scope.hooks,
  }
  const parts: Bool[] = [sql<SqlBool>`${e}.project_id = ${c.scope.projectId}`, ...bounds(sql`${e}.timestamp`)]
  if (entity.type === 'events') parts.push(sql<SqlBool>`${e}.event = ${entity.event}`)
  else parts.push(action ? below([...path, 'key'], 0, () => compileActionCondition(action, sources)) : FALSE)
  const passes = eventFilters ? below([...path, 'event_filters'], 1, () => compilePropertyFilters(eventFilters, sources)) : null
  if (passes && !mark) parts.push(passes)
  parts.push(sql<SqlBool>`${person} is not null`)
  const personJoin = withPerson ? sql`left join persons as ${pp} on ${pp}.project_id = ${e}.project_id and ${pp}.uuid = ${person}` : sql``
  const marks = mark ? sql`, case when ${passes ?? sql`true`} then 1 else 0 end as ok, cast(${e}.uuid as text) as u` : sql``
  return sql`select ${person} as person_uuid, ${e}.timestamp as ts${marks} from events as ${e}
    ${personOverrideJoin(`ce${n}`, `cov${n}`)} ${personJoin}
    where ${and(parts)}`
}

/** Runs `compile`, reporting a `ValidationError`'s paths below `prefix`, without their first `drop` segments. */
export function below<T>(prefix: Path, drop: number, compile: () => T): T {
  try {
    return compile()
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error
    throw new ValidationError(
      error.issues.map((i) => ({ path: [...prefix, ...i.path.slice(drop)], message: i.message })),
      { cause: error, context: 'invalid cohort filters' },
    )
  }
}

function readsPerson(filters: PropertyFilters): boolean {
  const visit = (f: PropertyGroup | PropertyCondition): boolean => ('values' in f ? f.values.some(visit) : f.type === 'person')
  return Array.isArray(filters) ? filters.some(visit) : visit(filters as PropertyGroup)
}
