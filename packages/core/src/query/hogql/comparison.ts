import { sql, type Expression } from 'kysely'
import { regexProblem } from '../filters/filter-values.js'
import { HogqlError, isNode, type HogqlNode } from './hogql-node.js'
import { boolOf, make, numberOf, textOf, timeOf, type Ctx, type Kind, type Value } from './value.js'

type Domain = 'number' | 'datetime' | 'boolean' | 'text'

/**
 * What two operands are compared as: times when either is a time, numbers
 * when either is a number, booleans when either is one, else text. So a
 * property compared with a number literal compares numerically (its text read
 * by `textToDouble`, null unless it spells a number).
 */
function domainOf(kinds: ReadonlyArray<Kind>): Domain {
  if (kinds.includes('datetime')) return 'datetime'
  if (kinds.includes('number')) return 'number'
  if (kinds.includes('boolean')) return 'boolean'
  return 'text'
}

function asDomain(v: Value, domain: Domain, ctx: Ctx, node: HogqlNode): Value {
  if (domain === 'number') return numberOf(v, ctx, node)
  if (domain === 'datetime') return timeOf(v, ctx, node)
  if (domain === 'boolean') return boolOf(v, ctx, node)
  return textOf(v, ctx)
}

const isNullLiteral = (v: Value) => v.literal !== undefined && v.literal.value === null
const bool = (e: Expression<unknown>, weight: number) => make('boolean', e, weight)

/** `CompareOperation`: `=`, `!=`, `<`, `<=`, `>`, `>=`, `[not] [i]like`, `[not] in`, `=~`, `!~`, `=~*`, `!~*`. */
export function compileComparison(node: HogqlNode, ctx: Ctx): Value {
  const op = String(node.op)
  const left = ctx.compile(node.left)
  if (op === 'in' || op === 'not in') return compileIn(left, node, ctx, op === 'not in')
  const right = ctx.compile(node.right)
  switch (op) {
    case '==':
    case '!=':
      return equality(left, right, op === '!=', node, ctx)
    case '<':
    case '<=':
    case '>':
    case '>=':
      return ordering(left, right, op, node, ctx)
    case 'like':
    case 'ilike':
    case 'not like':
    case 'not ilike':
      return like(left, right, op, node, ctx)
    case '=~':
    case '!~':
    case '=~*':
    case '!~*':
      return regex(textOf(left, ctx), right, op.startsWith('!'), op.endsWith('*'), node, ctx)
    default:
      throw new HogqlError(`uses the comparison ${op}, which is not supported`, node)
  }
}

/**
 * PostHog's null-safe equality (printer.py): `x = null` is `x is null`; with
 * a literal, a null operand makes `=` false and `!=` true; between two
 * expressions, two nulls are equal.
 */
export function equality(left: Value, right: Value, negated: boolean, node: HogqlNode, ctx: Ctx): Value {
  if (isNullLiteral(left) || isNullLiteral(right)) {
    const other = isNullLiteral(left) ? right : left
    return bool(sql`(${other.sql} ${sql.raw(negated ? 'is not null' : 'is null')})`, other.weight + 1)
  }
  const domain = domainOf([left.kind, right.kind])
  const a = asDomain(left, domain, ctx, node)
  const b = asDomain(right, domain, ctx, node)
  const weight = 2 * (a.weight + b.weight) + 1
  const literal = left.literal !== undefined || right.literal !== undefined
  if (negated) {
    const fallback = literal ? sql`true` : sql`(${a.sql} is not null or ${b.sql} is not null)`
    return bool(sql`coalesce(${a.sql} <> ${b.sql}, ${fallback})`, weight)
  }
  const fallback = literal ? sql`false` : sql`(${a.sql} is null and ${b.sql} is null)`
  return bool(sql`coalesce(${a.sql} = ${b.sql}, ${fallback})`, weight)
}

/** `<`, `<=`, `>`, `>=`: null when either side is null, as in ClickHouse. Text compares by code point. */
export function ordering(left: Value, right: Value, op: '<' | '<=' | '>' | '>=', node: HogqlNode, ctx: Ctx): Value {
  const domain = domainOf([left.kind, right.kind])
  const a = asDomain(left, domain, ctx, node)
  const b = asDomain(right, domain, ctx, node)
  // The database's collation would order text by locale; ClickHouse compares bytes, as "C" does.
  const rhs = domain === 'text' ? sql`(${b.sql} collate "C")` : b.sql
  return bool(sql`(${a.sql} ${sql.raw(op)} ${rhs})`, a.weight + b.weight + 1)
}

const ASCII_UPPER = sql.lit('ABCDEFGHIJKLMNOPQRSTUVWXYZ')
const ASCII_LOWER = sql.lit('abcdefghijklmnopqrstuvwxyz')
/** ASCII-only case folding, the same on both databases whatever their locale. */
export const foldCase = (e: Expression<unknown>) => sql<string>`translate(${e}, ${ASCII_UPPER}, ${ASCII_LOWER})`
const foldText = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase())

function stringLiteral(v: Value, what: string, node: HogqlNode): string {
  const value = v.literal?.value
  if (typeof value !== 'string') throw new HogqlError(`needs a string literal as its ${what}`, node)
  return value
}

/** `like` with `%`, `_` and `\` escapes; `ilike` folds ASCII letters on both sides. Null when the text is null. */
function like(left: Value, right: Value, op: string, node: HogqlNode, ctx: Ctx): Value {
  let pattern = stringLiteral(right, 'pattern', node)
  if (/(^|[^\\])(\\\\)*\\$/.test(pattern)) throw new HogqlError('has a pattern that ends with an escape character (\\)', node)
  let text: Expression<unknown> = textOf(left, ctx).sql
  if (op.includes('ilike')) {
    text = foldCase(text)
    pattern = foldText(pattern)
  }
  const match = sql`(${text} like ${pattern} escape '\\')`
  return bool(op.startsWith('not') ? sql`(not ${match})` : match, textOf(left, ctx).weight + 1)
}

/** Regular-expression match (RE2 syntax, anywhere in the text); `*` forms ignore case. */
export function regex(text: Value, right: Value, negated: boolean, ignoreCase: boolean, node: HogqlNode, ctx: Ctx): Value {
  const pattern = stringLiteral(right, 'regular expression', node)
  const problem = regexProblem(pattern)
  if (problem) throw new HogqlError(`has a pattern the databases cannot run: ${problem}`, node)
  const match = ctx.scope.hooks.regexMatch(text.sql as Expression<string | null>, ignoreCase ? `(?i)${pattern}` : pattern)
  return bool(negated ? sql`(not ${match})` : match, text.weight + 1)
}

/**
 * `x in (a, b)`, `x in [a, b]` or `x in a`: true when `x` equals an element
 * (compared as `=` compares them), false otherwise, also when `x` is null;
 * `not in` is its negation.
 */
function compileIn(left: Value, node: HogqlNode, ctx: Ctx, negated: boolean): Value {
  const right = node.right
  const elements = isNode(right) && (right.node === 'Tuple' || right.node === 'Array') && Array.isArray(right.exprs) ? right.exprs : [right]
  if (elements.length === 0) return bool(sql`${sql.lit(negated)}`, 1)
  const values = elements.map((e) => ctx.compile(e))
  const domain = domainOf([left.kind, ...values.map((v) => v.kind)])
  const a = asDomain(left, domain, ctx, node)
  const parts = values.map((v) => asDomain(v, domain, ctx, node))
  const any = sql`coalesce(${sql.join(parts.map((p) => sql`${a.sql} = ${p.sql}`), sql` or `)}, false)`
  const weight = parts.reduce((sum, p) => sum + a.weight + p.weight, 1)
  return bool(negated ? sql`(not ${any})` : any, weight)
}

/** `BetweenExpr`: `x [not] between low and high`, as `x >= low and x <= high`. */
export function compileBetween(node: HogqlNode, ctx: Ctx): Value {
  const x = ctx.compile(node.expr)
  const low = ordering(x, ctx.compile(node.low), '>=', node, ctx)
  const high = ordering(x, ctx.compile(node.high), '<=', node, ctx)
  const both = sql`(${low.sql} and ${high.sql})`
  return bool(node.negated === true ? sql`(not ${both})` : both, low.weight + high.weight + 1)
}

/** `IsDistinctFrom`: `x is [not] distinct from y`, compared as `=` compares them; two nulls are not distinct. */
export function compileIsDistinctFrom(node: HogqlNode, ctx: Ctx): Value {
  const left = ctx.compile(node.left)
  const right = ctx.compile(node.right)
  const domain = domainOf([left.kind, right.kind])
  const a = asDomain(left, domain, ctx, node)
  const b = asDomain(right, domain, ctx, node)
  const op = node.negated === true ? 'is not distinct from' : 'is distinct from'
  return bool(sql`(${a.sql} ${sql.raw(op)} ${b.sql})`, a.weight + b.weight + 1)
}
