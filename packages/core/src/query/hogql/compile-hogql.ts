import { sql, type Expression, type SqlBool } from 'kysely'
import { ValidationError } from '../../errors.js'
import { isTimeZone } from '../../model/timezone.js'
import { compileArithmetic, numberLiteral } from './arithmetic.js'
import { compileBetween, compileComparison, compileIsDistinctFrom } from './comparison.js'
import { compileArrayAccess, compileField } from './fields.js'
import { compileCall, logical } from './functions.js'
import { HogqlError, isNode, nodeText, type HogqlNode } from './hogql-node.js'
import { parseHogqlExpression } from './parser.js'
import type { CompiledHogql, HogqlScope, HogqlType } from './scope.js'
import { boolOf, formatNumber, make, textOf, type Ctx, type Value } from './value.js'

/** Deeper ASTs are refused (the parser's own limits come first; this bounds the compiler's recursion). */
export const MAX_HOGQL_DEPTH = 64

/** Largest number literal magnitude (and smallest non-zero): the bound that keeps sums finite. */
const LITERAL_MAX = 1e300
const LITERAL_MIN = 1e-300

type Path = ReadonlyArray<string | number>

// What hogqlToText needs of a compiled value beyond its public type: the scope and the exact kind.
const compiledValues = new WeakMap<CompiledHogql, { value: Value; ctx: Ctx }>()

/**
 * Parses `expression` and compiles it to SQL over `scope` (see "HogQL
 * expressions" in packages/core/README.md for the subset and its semantics).
 * Every literal and property key is a bound parameter. Throws
 * `ValidationError` at `path` naming the refused node.
 */
export function compileHogql(expression: string, scope: HogqlScope, path: Path): CompiledHogql {
  const { value, ctx } = compileValue(expression, scope, path)
  const compiled: CompiledHogql = Object.freeze({ sql: value.sql, type: publicType(value) })
  compiledValues.set(compiled, { value, ctx })
  return compiled
}

/** For `type: 'hogql'` filters: the expression as a condition, read as `if` reads it; null is false. */
export function compileHogqlCondition(expression: string, scope: HogqlScope, path: Path): Expression<SqlBool> {
  const { value, ctx, root } = compileValue(expression, scope, path)
  const condition = guard(path, expression, () => boolOf(value, ctx, root))
  return sql<SqlBool>`coalesce(${condition.sql}, false)`
}

/**
 * The text of a compiled value as PostHog's `toString` shows it (breakdown
 * values): numbers without a trailing `.0`, booleans `1`/`0`, times as
 * `YYYY-MM-DD hh:mm:ss[.ffffff]` or `YYYY-MM-DD` in the project's zone.
 */
export function hogqlToText(compiled: CompiledHogql): Expression<string | null> {
  const known = compiledValues.get(compiled)
  if (known) return textOf(known.value, known.ctx).sql as Expression<string | null>
  // A value not made by compileHogql: its public type is all there is.
  switch (compiled.type) {
    case 'number':
      return formatNumber(compiled.sql)
    case 'boolean':
      return sql`(case when ${compiled.sql} then '1' when not ${compiled.sql} then '0' end)`
    case 'timestamp':
      return sql`cast(${compiled.sql} as text)`
    default:
      return compiled.sql as Expression<string | null>
  }
}

const publicType = (v: Value): HogqlType =>
  v.kind === 'datetime' ? 'timestamp' : v.kind === 'null' ? 'unknown' : v.kind

function compileValue(expression: string, scope: HogqlScope, path: Path): { value: Value; ctx: Ctx; root: HogqlNode } {
  if (typeof expression !== 'string') throw invalid(path, 'HogQL expression must be a string')
  if (!isTimeZone(scope.timezone)) throw new RangeError(`unknown time zone ${JSON.stringify(scope.timezone)}`)
  let root: HogqlNode | undefined
  let depth = 0
  const ctx: Ctx = {
    scope,
    compile(node) {
      if (!isNode(node)) throw new HogqlError('has a part the compiler cannot read')
      if (++depth > MAX_HOGQL_DEPTH) throw new HogqlError(`nests deeper than ${MAX_HOGQL_DEPTH} levels`, node)
      try {
        return visit(node, ctx)
      } finally {
        depth--
      }
    },
  }
  const value = guard(path, expression, () => {
    root = parseHogqlExpression(expression)
    return ctx.compile(root)
  })
  return { value, ctx, root: root! }
}

/** Runs a compile step, turning `HogqlError` into the caller's `ValidationError`. */
function guard<T>(path: Path, expression: string, run: () => T): T {
  try {
    return run()
  } catch (error) {
    if (!(error instanceof HogqlError)) throw error
    const text = nodeText(expression, error.node)
    const subject = error.node ? `HogQL ${error.node.node}${text ? ` \`${text}\`` : ''}` : 'HogQL expression'
    throw invalid(path, `${subject} ${error.message}`, error)
  }
}

const invalid = (path: Path, message: string, cause?: unknown) =>
  new ValidationError([{ path, message }], { context: 'invalid HogQL expression', cause })

function visit(node: HogqlNode, ctx: Ctx): Value {
  switch (node.node) {
    case 'Constant':
      return constant(node)
    case 'Field':
      return compileField(node, ctx)
    case 'ArrayAccess':
      return compileArrayAccess(node, ctx)
    case 'ArithmeticOperation':
      return compileArithmetic(node, ctx)
    case 'CompareOperation':
      return compileComparison(node, ctx)
    case 'BetweenExpr':
      return compileBetween(node, ctx)
    case 'And':
    case 'Or':
      if (!Array.isArray(node.exprs) || node.exprs.length === 0) throw new HogqlError('has no operands', node)
      return logical(node.exprs, node.node === 'And' ? 'and' : 'or', node, ctx)
    case 'Not': {
      const v = boolOf(ctx.compile(node.expr), ctx, node)
      return make('boolean', sql`(not ${v.sql})`, v.weight + 1)
    }
    case 'IsDistinctFrom':
      return compileIsDistinctFrom(node, ctx)
    case 'Call':
      return compileCall(node, ctx)
    default:
      throw new HogqlError('is not supported in an expression', node)
  }
}

function constant(node: HogqlNode): Value {
  const value = node.value
  if (value === null) return make('null', sql`cast(null as text)`, 1, { literal: { value: null } })
  if (typeof value === 'boolean') return make('boolean', sql`cast(${value} as boolean)`, 1, { literal: { value } })
  if (typeof value === 'string' && node.value_type !== 'number') {
    if (value.includes('\u0000') || !value.isWellFormed()) throw new HogqlError('contains U+0000 or an unpaired UTF-16 surrogate', node)
    return make('string', sql`cast(${value} as text)`, 1, { literal: { value } })
  }
  // Integers beyond 2^53 come as text (value_type 'number'); they are read as the nearest double.
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN
  if (!Number.isFinite(n)) throw new HogqlError('is not a finite number', node)
  if (n !== 0 && (Math.abs(n) > LITERAL_MAX || Math.abs(n) < LITERAL_MIN)) throw new HogqlError('is a number beyond 1e300 or below 1e-300 in magnitude', node)
  return numberLiteral(n === 0 ? 0 : n)
}
