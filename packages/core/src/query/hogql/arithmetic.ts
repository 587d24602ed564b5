import { sql, type Expression, type SqlBool } from 'kysely'
import { HogqlError, type HogqlNode } from './hogql-node.js'
import { make, nullOf, numberOf, type Ctx, type Value } from './value.js'

/**
 * Products and quotients are computed only from factors that are 0 or between
 * 1e-150 and 1e150 in magnitude (divisors: not 0), and are null otherwise, so
 * no result overflows or underflows: Postgres raises an error on both, which
 * hostile or odd data must never cause. Sums cannot overflow: every leaf is at
 * most 1e300 (literals are refused beyond, properties read as null) and the
 * expression's length bounds the number of terms.
 */
export const FACTOR_MAX = 1e150
export const FACTOR_MIN = 1e-150

/** True when `n` may be a factor of a product; the reference evaluator in the tests states the same rule. */
export const isFactor = (n: number): boolean => n === 0 || (Math.abs(n) >= FACTOR_MIN && Math.abs(n) <= FACTOR_MAX)

const MAX = sql.lit(FACTOR_MAX)
const MIN = sql.lit(FACTOR_MIN)

/** `ArithmeticOperation`: `+`, `-`, `*`, `/` on numbers (text operands read as numbers). */
export function compileArithmetic(node: HogqlNode, ctx: Ctx): Value {
  const op = node.op
  const a = numberOf(ctx.compile(node.left), ctx, node)
  const b = numberOf(ctx.compile(node.right), ctx, node)
  const weight = a.weight + b.weight + 1
  if (a.literal?.value === null || b.literal?.value === null) return make('number', nullOf('number'), 1)
  switch (op) {
    case '+':
    case '-':
      return make('number', sql`(${a.sql} ${sql.raw(op === '+' ? '+' : '-')} ${b.sql})`, weight)
    case '*':
      return guarded(sql`(${a.sql} * ${b.sql})`, [factor(a), factor(b)], 4 * weight)
    case '/':
      return guarded(sql`(${a.sql} / ${b.sql})`, [factor(a), divisor(b)], 4 * weight)
    default:
      throw new HogqlError(`uses the operator ${String(op)}, which is not supported (+, -, * and / are)`, node)
  }
}

type Check = Expression<SqlBool> | boolean

function factor(v: Value): Check {
  if (v.factorSafe) return true
  const n = v.literal?.value
  if (typeof n === 'number') return isFactor(n)
  return sql<SqlBool>`(abs(${v.sql}) <= ${MAX} and (${v.sql} = 0 or abs(${v.sql}) >= ${MIN}))`
}

function divisor(v: Value): Check {
  const n = v.literal?.value
  if (typeof n === 'number') return n !== 0 && isFactor(n)
  return sql<SqlBool>`(abs(${v.sql}) <= ${MAX} and abs(${v.sql}) >= ${MIN})`
}

function guarded(result: Expression<unknown>, checks: ReadonlyArray<Check>, weight: number): Value {
  if (checks.includes(false)) return make('number', nullOf('number'), 1)
  const conditions = checks.filter((c): c is Expression<SqlBool> => c !== true)
  if (conditions.length === 0) return make('number', result, weight)
  return make('number', sql`(case when ${sql.join(conditions, sql` and `)} then ${result} end)`, weight)
}

/** A number literal as SQL: bound, cast so both databases compute in double precision. */
export const numberLiteral = (n: number): Value =>
  make('number', sql`cast(${n} as double precision)`, 1, { literal: { value: n }, factorSafe: isFactor(n) })
