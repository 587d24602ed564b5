import { sql } from 'kysely'
import { regex, foldCase } from './comparison.js'
import { DATE_FUNCTIONS } from './date-functions.js'
import type { HogqlFunction } from './hogql-function.js'
import { HogqlError, type HogqlNode } from './hogql-node.js'
import { boolOf, commonKind, commonTemporal, convert, make, numberOf, textOf, type Ctx, type Value } from './value.js'


const fn = (min: number, max: number, compile: HogqlFunction['compile']): HogqlFunction => ({ min, max, compile })
const one = (args: ReadonlyArray<unknown>, ctx: Ctx) => ctx.compile(args[0])

const ASCII_UPPER = sql.lit('ABCDEFGHIJKLMNOPQRSTUVWXYZ')
const ASCII_LOWER = sql.lit('abcdefghijklmnopqrstuvwxyz')

/** Largest magnitude `toInt` keeps (Int64's range, as doubles); beyond it the value is null. */
const INT64_LIMIT = sql.lit(9.2e18)
const INTEGER_TEXT = '^-?[0-9]+$'

/** ClickHouse rounds doubles half to even (banker's rounding); `d` is exact below 2^52. */
function roundHalfEven(y: Value): Value {
  const f = sql`floor(${y.sql})`
  const d = sql`(${y.sql} - ${f})`
  return make('number', sql`(case when ${d} < 0.5 then ${f} when ${d} > 0.5 then ${f} + 1 else 2 * floor((${y.sql} + 0.5) / 2) end)`, 6 * y.weight + 1)
}

function round(args: ReadonlyArray<unknown>, node: HogqlNode, ctx: Ctx): Value {
  const x = numberOf(one(args, ctx), ctx, node)
  const digitsValue = args.length > 1 ? ctx.compile(args[1]).literal?.value : 0
  if (typeof digitsValue !== 'number' || !Number.isInteger(digitsValue) || digitsValue < 0 || digitsValue > 10) {
    throw new HogqlError('needs a whole number of digits from 0 to 10 as its second argument', node)
  }
  if (digitsValue === 0) return roundHalfEven(x)
  // Past 2^52 every double is whole: returned as is, which also keeps x * 10^n finite.
  const scale = sql.lit(10 ** digitsValue)
  const scaled = roundHalfEven(make('number', sql`(${x.sql} * ${scale})`, x.weight + 1))
  return make('number', sql`(case when abs(${x.sql}) >= 4503599627370496 then ${x.sql} else ${scaled.sql} / ${scale} end)`, 2 * x.weight + scaled.weight + 1)
}

function toInt(args: ReadonlyArray<unknown>, node: HogqlNode, ctx: Ctx): Value {
  const v = one(args, ctx)
  // Text must spell an integer ('1.5' is null, as ClickHouse's toInt64OrNull('1.5')).
  const x =
    v.kind === 'string' || v.kind === 'unknown'
      ? make('number', sql`(case when ${ctx.scope.hooks.regexMatch(v.sql as never, INTEGER_TEXT)} then ${numberOf(v, ctx, node).sql} end)`, 7 * v.weight + 1)
      : numberOf(v, ctx, node)
  return make('number', sql`(case when abs(${x.sql}) < ${INT64_LIMIT} then trunc(${x.sql}) end)`, 2 * x.weight + 1)
}

const numeric = (name: 'floor' | 'ceil' | 'abs') =>
  fn(1, 1, (args, node, ctx) => {
    const x = numberOf(one(args, ctx), ctx, node)
    return make('number', sql`${sql.raw(name)}(${x.sql})`, x.weight + 1)
  })

/** Branches joined to their common kind (`value.ts`); a time keeps the type the branches share. */
function branches(values: ReadonlyArray<Value>, node: HogqlNode, ctx: Ctx): Value[] {
  const kind = commonKind(values, node)
  return values.map((v) => convert(v, kind, ctx, node))
}

const result = (values: ReadonlyArray<Value>, expression: ReturnType<typeof sql>, weight: number): Value => {
  const kind = values[0]!.kind
  return make(kind, expression, weight, kind === 'datetime' ? { temporal: commonTemporal(values) } : {})
}

function multiIf(args: ReadonlyArray<unknown>, node: HogqlNode, ctx: Ctx): Value {
  if (args.length % 2 === 0) throw new HogqlError('needs condition/value pairs and a final else value', node)
  const conditions: Value[] = []
  const values: Value[] = []
  for (let i = 0; i + 1 < args.length; i += 2) {
    conditions.push(boolOf(ctx.compile(args[i]), ctx, node))
    values.push(ctx.compile(args[i + 1]))
  }
  values.push(ctx.compile(args[args.length - 1]))
  const joined = branches(values, node, ctx)
  const whens = conditions.map((c, i) => sql`when ${c.sql} then ${joined[i]!.sql}`)
  const weight = [...conditions, ...joined].reduce((sum, v) => sum + v.weight, 1)
  return result(joined, sql`(case ${sql.join(whens, sql` `)} else ${joined[joined.length - 1]!.sql} end)`, weight)
}

function coalesce(args: ReadonlyArray<unknown>, node: HogqlNode, ctx: Ctx): Value {
  const joined = branches(args.map((a) => ctx.compile(a)), node, ctx)
  const weight = joined.reduce((sum, v) => sum + v.weight, 1)
  return result(joined, sql`coalesce(${sql.join(joined.map((v) => v.sql))})`, weight)
}

/** `and`/`or` of booleans (other kinds read as `boolOf` reads them), three-valued as SQL and ClickHouse. */
export function logical(args: ReadonlyArray<unknown>, op: 'and' | 'or', node: HogqlNode, ctx: Ctx): Value {
  const parts = args.map((a) => boolOf(ctx.compile(a), ctx, node))
  const weight = parts.reduce((sum, p) => sum + p.weight, 1)
  return make('boolean', sql`(${sql.join(parts.map((p) => p.sql), sql.raw(` ${op} `))})`, weight)
}

/**
 * The functions of the subset, by HogQL name (case-sensitive, as HogQL's
 * own table). Anything else is refused by name.
 */
export const HOGQL_FUNCTIONS: ReadonlyMap<string, HogqlFunction> = new Map<string, HogqlFunction>([
  // ClickHouse's lower/upper change ASCII letters only; so does translate, on every database and locale.
  ['lower', fn(1, 1, (args, _node, ctx) => {
    const s = textOf(one(args, ctx), ctx)
    return make('string', foldCase(s.sql), s.weight + 1)
  })],
  ['upper', fn(1, 1, (args, _node, ctx) => {
    const s = textOf(one(args, ctx), ctx)
    return make('string', sql`translate(${s.sql}, ${ASCII_LOWER}, ${ASCII_UPPER})`, s.weight + 1)
  })],
  // HogQL prints concat's arguments as ifNull(toString(x), ''): null parts are empty, the result never null.
  ['concat', fn(1, 64, (args, _node, ctx) => {
    const parts = args.map((a) => textOf(ctx.compile(a), ctx))
    const weight = parts.reduce((sum, p) => sum + p.weight, 1)
    return make('string', sql`(${sql.join(parts.map((p) => sql`coalesce(${p.sql}, '')`), sql` || `)})`, weight)
  })],
  ['toString', fn(1, 1, (args, _node, ctx) => {
    const s = textOf(one(args, ctx), ctx)
    return make('string', s.sql, s.weight)
  })],
  ['length', fn(1, 1, (args, _node, ctx) => {
    const s = textOf(one(args, ctx), ctx)
    return make('number', sql`cast(length(${s.sql}) as double precision)`, s.weight + 1, { factorSafe: true })
  })],
  ['toInt', fn(1, 1, toInt)],
  ['toFloat', fn(1, 1, (args, node, ctx) => numberOf(one(args, ctx), ctx, node))],
  ['round', fn(1, 2, round)],
  ['floor', numeric('floor')],
  ['ceil', numeric('ceil')],
  ['abs', numeric('abs')],
  ['if', fn(3, 3, multiIf)],
  ['multiIf', fn(3, 63, multiIf)],
  ['coalesce', fn(1, 64, coalesce)],
  ['ifNull', fn(2, 2, coalesce)],
  ['isNull', fn(1, 1, (args, _node, ctx) => {
    const v = one(args, ctx)
    return make('boolean', sql`(${v.sql} is null)`, v.weight + 1)
  })],
  ['isNotNull', fn(1, 1, (args, _node, ctx) => {
    const v = one(args, ctx)
    return make('boolean', sql`(${v.sql} is not null)`, v.weight + 1)
  })],
  // The function forms of not, and, or (`not(x)` parses as a call).
  ['not', fn(1, 1, (args, node, ctx) => {
    const v = boolOf(one(args, ctx), ctx, node)
    return make('boolean', sql`(not ${v.sql})`, v.weight + 1)
  })],
  ['and', fn(2, 64, (args, node, ctx) => logical(args, 'and', node, ctx))],
  ['or', fn(2, 64, (args, node, ctx) => logical(args, 'or', node, ctx))],
  ['match', fn(2, 2, (args, node, ctx) => regex(textOf(one(args, ctx), ctx), ctx.compile(args[1]), false, false, node, ctx))],
  ...DATE_FUNCTIONS,
])

/** `Call`: a function of `HOGQL_FUNCTIONS` with plain arguments (no DISTINCT, parameters or window). */
export function compileCall(node: HogqlNode, ctx: Ctx): Value {
  const name = node.name
  const args = node.args
  if (typeof name !== 'string' || !Array.isArray(args)) throw new HogqlError('is not a supported function call', node)
  const spec = HOGQL_FUNCTIONS.get(name)
  if (!spec) throw new HogqlError(`calls ${name}(), which is not a supported function`, node)
  if (node.distinct === true || (node.params !== undefined && node.params !== null) || node.filter_expr || node.order_by) {
    throw new HogqlError(`calls ${name}() with DISTINCT, parameters or a window, which are not supported`, node)
  }
  if (args.length < spec.min || args.length > spec.max) {
    const arity = spec.min === spec.max ? `${spec.min}` : `${spec.min} to ${spec.max}`
    throw new HogqlError(`calls ${name}() with ${args.length} arguments; it takes ${arity}`, node)
  }
  return spec.compile(args, node, ctx)
}
