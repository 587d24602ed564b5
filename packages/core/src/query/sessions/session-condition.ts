import { sql, type Expression, type SqlBool } from 'kysely'
import { ValidationError } from '../../errors.js'
import type { SqlHooks } from '../../storage.js'
import { filterNumber, valueList } from '../filters/filter-values.js'
import type { PropertyCondition } from '../filters/property-filters.js'

/** What a session filter reads: the event's session and the project whose events make up sessions. */
export interface SessionScope {
  readonly projectId: number
  readonly sessionId: Expression<string | null>
  readonly hooks: SqlHooks
}

/** The session properties Sightline computes from events. */
export const SESSION_PROPERTIES = ['$session_duration'] as const

const NUMERIC: Readonly<Record<string, string>> = { gt: '>', gte: '>=', min: '>=', lt: '<', lte: '<=', max: '<=', exact: '=', is_not: '<>' }

/**
 * PostHog's `session` filters on `$session_duration`: seconds from the first
 * to the last event of the event's session (`$session_id`), over all the
 * project's events, as PostHog's sessions table computes it. Numeric
 * operators, `between`/`not_between`, `is_set`/`is_not_set` and lists (any of;
 * all of for negations). An event without a session has no duration: only
 * `is_not_set` and the negations match it, as for a missing property.
 */
export function sessionCondition(f: PropertyCondition, scope: SessionScope, path: ReadonlyArray<string | number>): Expression<SqlBool> {
  if (f.key !== '$session_duration') fail([...path, 'key'], `session filters support ${SESSION_PROPERTIES.join(', ')}, not ${JSON.stringify(f.key)}`)
  const operator = f.operator ?? 'exact'
  const hasSession = sql<SqlBool>`(${scope.sessionId} is not null and ${scope.sessionId} <> '')`
  if (operator === 'is_set') return hasSession
  if (operator === 'is_not_set') return sql<SqlBool>`(not ${hasSession})`
  const values = valueList(f.value).map((v, i) => {
    const n = filterNumber(v)
    return n === undefined ? fail(Array.isArray(f.value) ? [...path, 'value', i] : [...path, 'value'], `a session duration is a number of seconds, got ${JSON.stringify(v)}`) : n
  })
  if (values.length === 0) fail([...path, 'value'], `operator ${operator} needs a value`)
  const duration = sql<number>`(cast(max(${scope.hooks.epochMicros(sql.ref('s.timestamp'))}) - min(${scope.hooks.epochMicros(sql.ref('s.timestamp'))}) as double precision) / 1000000)`
  let having: Expression<SqlBool>
  let negated = false
  if (operator === 'between' || operator === 'not_between') {
    const [low, high] = values
    if (values.length !== 2 || low! > high!) fail([...path, 'value'], `${operator} needs two numbers [min, max] with min <= max`)
    having = sql<SqlBool>`(${duration} >= ${double(low!)} and ${duration} <= ${double(high!)})`
    negated = operator === 'not_between'
  } else if (operator in NUMERIC) {
    // is_not of several values means "none of them": the negation of "any of them".
    negated = operator === 'is_not'
    const op = sql.raw(negated ? '=' : NUMERIC[operator]!)
    having = sql<SqlBool>`(${sql.join(values.map((v) => sql`${duration} ${op} ${double(v)}`), sql` or `)})`
  } else {
    return fail([...path, 'operator'], `session duration filters do not support operator ${operator}`)
  }
  const matching = sql<SqlBool>`(${scope.sessionId} in (select s.session_id from events as s where s.project_id = ${scope.projectId} and s.session_id is not null and s.session_id <> '' group by s.session_id having ${having}))`
  return negated ? sql<SqlBool>`(not coalesce(${matching}, false))` : sql<SqlBool>`coalesce(${matching}, false)`
}

const double = (n: number) => sql<number>`cast(${n} as double precision)`

const fail = (path: ReadonlyArray<string | number>, message: string): never => {
  throw new ValidationError([{ path, message }], { context: 'invalid property filters' })
}
