import { sql, type Expression } from 'kysely'
import { HogqlError, type HogqlNode } from './hogql-node.js'
import type { HogqlScope } from './scope.js'
import { sqlCast } from '../../db/sql-cast.js'

/**
 * A compiled value's kind. `unknown` is a property: JSON text, read as a
 * number, boolean or time where the other operand asks for one; `null` is the
 * literal `null`, which takes the kind its context asks for.
 */
export type Kind = 'string' | 'unknown' | 'number' | 'boolean' | 'datetime' | 'null'

/** How a `datetime` prints (ClickHouse's types): `DateTime64(6)`, `DateTime` or `Date`. */
export type Temporal = 'datetime64' | 'datetime' | 'date'

export type Literal = string | number | boolean | null

/** An intermediate value of the compiler. */
export interface Value {
  readonly kind: Kind
  /** Text, double precision, boolean or timestamptz (by `kind`); null SQL for `null`. */
  readonly sql: Expression<unknown>
  /** About how many leaves its SQL holds: guards repeat operands, so sizes are bounded (`MAX_SQL_WEIGHT`). */
  readonly weight: number
  readonly temporal?: Temporal
  /** The literal's value, when the node was one. */
  readonly literal?: { readonly value: Literal }
  /** True when the number is known to be 0 or between 1e-150 and 1e150 in magnitude: products need no guard. */
  readonly factorSafe?: boolean
  /** An event property's numeric reading where the scope stores one (`HogqlScope.eventNumber`): what `numberOf` reads. */
  readonly number?: Expression<number | null>
}

/** What compiling needs besides the node: the scope, and the compiler itself for child nodes. */
export interface Ctx {
  readonly scope: HogqlScope
  /** Compiles a child node (anything the parser put in a node's field; non-nodes are refused). */
  compile(node: unknown): Value
}

/** Compiled SQL past this weight is refused: nested guards would otherwise grow it exponentially. */
export const MAX_SQL_WEIGHT = 20_000

export function make(kind: Kind, expression: Expression<unknown>, weight: number, extra: Partial<Value> = {}): Value {
  if (weight > MAX_SQL_WEIGHT) throw new HogqlError('compiles to too large an SQL expression; simplify it')
  return { kind, sql: expression, weight, ...extra }
}

const TEXT_NULL = sql<string | null>`cast(null as text)`
const NUMBER_NULL = sql<number | null>`cast(null as double precision)`
const BOOL_NULL = sql`cast(null as boolean)`
const TIME_NULL = sql`${sqlCast(sql`null`, 'timestamptz')}`

export const nullOf = (kind: Kind): Expression<unknown> =>
  kind === 'number' ? NUMBER_NULL : kind === 'boolean' ? BOOL_NULL : kind === 'datetime' ? TIME_NULL : TEXT_NULL

const describe = (kind: Kind) => (kind === 'datetime' ? 'a date or time' : kind === 'boolean' ? 'a boolean' : kind === 'number' ? 'a number' : 'a string')

const refuse = (v: Value, wanted: string, node: HogqlNode): never => {
  throw new HogqlError(`${describe(v.kind)} cannot be used as ${wanted}`, node)
}

/**
 * Integers below 1e18 print as integers (`3`, not `3.0`) as ClickHouse
 * prints them; others in the database's shortest round-trip spelling, which
 * both databases share except in some exponent forms (`1e-07`, ClickHouse `1e-7`).
 */
export const formatNumber = (x: Expression<unknown>): Expression<string | null> =>
  sql`(case when ${x} = trunc(${x}) and abs(${x}) < 1e18 then cast(cast(${x} as bigint) as text) else cast(${x} as text) end)`

/** The value as text, as `toString` shows it. Booleans print `1`/`0`, as ClickHouse's comparisons (UInt8) do. */
export function textOf(v: Value, ctx: Ctx): Value {
  switch (v.kind) {
    case 'string':
    case 'unknown':
      return v
    case 'null':
      return make('string', TEXT_NULL, 1)
    case 'number':
      return make('string', formatNumber(v.sql), 4 * v.weight + 1)
    case 'boolean':
      return make('string', sql`(case when ${v.sql} then '1' when not ${v.sql} then '0' end)`, 2 * v.weight + 1)
    case 'datetime':
      return formatTime(v, ctx)
  }
}

/** `YYYY-MM-DD hh:mm:ss[.ffffff]` or `YYYY-MM-DD` in the project's zone, as ClickHouse prints its types. */
function formatTime(v: Value, ctx: Ctx): Value {
  const local = localTime(v.sql, ctx)
  if (v.temporal === 'date') return make('string', sql`cast(cast(${local} as date) as text)`, v.weight + 1)
  const seconds = sql`cast(date_trunc('second', ${local}) as text)`
  if (v.temporal !== 'datetime64') return make('string', seconds, v.weight + 1)
  const micros = ctx.scope.hooks.epochMicros(v.sql)
  const fraction = sql`lpad(cast(((${micros} % 1000000) + 1000000) % 1000000 as text), 6, '0')`
  return make('string', sql`(${seconds} || '.' || ${fraction})`, 2 * v.weight + 1)
}

/** The wall-clock time (timestamp without time zone) of an instant in the project's zone. */
export const localTime = (instant: Expression<unknown>, ctx: Ctx): Expression<unknown> =>
  sql`(${instant} at time zone ${ctx.scope.timezone})`

/** The instant at which the project's clock shows `local`. */
export const fromLocalTime = (local: Expression<unknown>, ctx: Ctx): Expression<unknown> =>
  sql`(${local} at time zone ${ctx.scope.timezone})`

/**
 * The value as a double. Text (a property) is read by `SqlHooks.textToDouble`:
 * null unless it spells a number. Booleans are 1 and 0.
 */
export function numberOf(v: Value, ctx: Ctx, node: HogqlNode): Value {
  switch (v.kind) {
    case 'number':
      return v
    case 'null':
      return make('number', NUMBER_NULL, 1, { literal: { value: null } })
    case 'string':
    case 'unknown':
      return make('number', v.number ?? ctx.scope.hooks.textToDouble(v.sql as Expression<string | null>), v.number ? v.weight : 6 * v.weight + 1)
    case 'boolean':
      return make('number', sql`(case when ${v.sql} then 1.0 when not ${v.sql} then 0.0 end)`, 2 * v.weight + 1, { factorSafe: true })
    case 'datetime':
      return refuse(v, 'a number', node)
  }
}

/**
 * The value as a boolean: text `true`/`false` (JSON booleans) as themselves,
 * other text and numbers true when a non-zero number, null otherwise.
 */
export function boolOf(v: Value, ctx: Ctx, node: HogqlNode): Value {
  switch (v.kind) {
    case 'boolean':
      return v
    case 'null':
      return make('boolean', BOOL_NULL, 1)
    case 'number':
      return make('boolean', sql`(${v.sql} <> 0)`, v.weight + 1)
    case 'string':
    case 'unknown': {
      const n = v.number ?? ctx.scope.hooks.textToDouble(v.sql as Expression<string | null>)
      return make('boolean', sql`(case when ${v.sql} = 'true' then true when ${v.sql} = 'false' then false else ${n} <> 0 end)`, 8 * v.weight + 1)
    }
    case 'datetime':
      return refuse(v, 'a boolean', node)
  }
}

/**
 * The value as an instant. Text is read by `SqlHooks.textToTimestamp` as the
 * project's wall-clock time, or as UTC when it ends in `Z`; null otherwise.
 */
export function timeOf(v: Value, ctx: Ctx, node: HogqlNode): Value {
  switch (v.kind) {
    case 'datetime':
      return v
    case 'null':
      return make('datetime', TIME_NULL, 1, { temporal: 'datetime' })
    case 'string':
    case 'unknown': {
      const local = ctx.scope.hooks.textToTimestamp(v.sql as Expression<string | null>)
      const zone = sql`(case when ${v.sql} like '%Z' then 'UTC' else ${ctx.scope.timezone} end)`
      return make('datetime', sql`(${local} at time zone ${zone})`, 4 * v.weight + 1, { temporal: 'datetime' })
    }
    case 'number':
    case 'boolean':
      return refuse(v, 'a date or time', node)
  }
}

/**
 * The kind several values (branches of `if`, arguments of `coalesce`) share:
 * `null` takes any kind; a property joins strings as text, and numbers,
 * booleans and times as that kind; anything else has no common kind.
 */
export function commonKind(values: ReadonlyArray<Value>, node: HogqlNode): Kind {
  const kinds = new Set(values.map((v) => v.kind).filter((k) => k !== 'null'))
  if (kinds.size === 0) return 'null'
  if (kinds.size === 1) return [...kinds][0]!
  kinds.delete('unknown')
  if (kinds.size === 1) return [...kinds][0]!
  if (kinds.size === 2 && kinds.has('number') && kinds.has('boolean')) return 'number'
  throw new HogqlError(`has no common type for ${[...kinds].join(' and ')} values`, node)
}

/** `v` converted to `kind` (one `commonKind` returned). */
export function convert(v: Value, kind: Kind, ctx: Ctx, node: HogqlNode): Value {
  if (v.kind === kind) return v
  switch (kind) {
    case 'number':
      return numberOf(v, ctx, node)
    case 'boolean':
      return boolOf(v, ctx, node)
    case 'datetime':
      return timeOf(v, ctx, node)
    case 'string':
    case 'unknown':
      return v.kind === 'null' ? make(kind, TEXT_NULL, 1) : textOf(v, ctx)
    case 'null':
      return v
  }
}

/** The temporal type values share: theirs when they agree, else `DateTime64`. */
export const commonTemporal = (values: ReadonlyArray<Value>): Temporal => {
  const kinds = new Set(values.filter((v) => v.kind === 'datetime').map((v) => v.temporal ?? 'datetime64'))
  return kinds.size === 1 ? [...kinds][0]! : 'datetime64'
}
