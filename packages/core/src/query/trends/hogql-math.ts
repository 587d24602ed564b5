import { sql, type Expression } from 'kysely'
import { ValidationError } from '../../errors.js'
import { compileHogql, hogqlToText } from '../hogql/index.js'
import type { HogqlNode } from '../hogql/hogql-node.js'
import { parseHogqlExpression } from '../hogql/parser.js'
import type { QuerySources } from '../scope/query-sources.js'
import { hogqlScope } from '../scope/hogql-scope.js'
import type { QueryEnv } from '../analysis/query-env.js'
import { sqlCast } from '../../db/sql-cast.js'

/** A `math_hogql` aggregate over the rows of a bucket: its SQL aggregate and the per-row column it reads. */
export interface HogqlAggregateSql {
  /** The per-row value (null rows are ignored by every aggregate). */
  readonly column: Expression<unknown>
  /** The aggregate over that column, named `x` in the rows subquery; 0 for no rows. */
  readonly aggregate: (x: Expression<unknown>) => Expression<number>
}

const HELP = 'count(), count(x), count(distinct x), sum(x), avg(x), min(x), max(x), median(x) or quantile(q)(x) of one HogQL expression'
const NUMERIC = new Set(['sum', 'avg', 'min', 'max', 'median', 'quantile'])

/** The code points `node` spans in `source` (the aggregate's argument, compiled on its own). */
function spanText(source: string, node: HogqlNode): string {
  const start = node.start?.offset
  const end = node.end?.offset
  if (start === undefined || end === undefined) throw new Error('HogQL node without a position')
  return [...source].slice(start, end).join('')
}

/**
 * `math: "hogql"`: PostHog evaluates `math_hogql` as the bucket's aggregate.
 * Sightline's HogQL subset has no aggregates, so the outer call is read here
 * (one of `HELP`) and its argument compiled by the subset; anything else is a
 * ValidationError at `path`. Numeric aggregates read the argument as a number
 * (a property's text through `textToDouble`); a bucket with no value shows 0.
 */
export function hogqlAggregate(expression: string, env: QueryEnv, sources: QuerySources, path: ReadonlyArray<string | number>): HogqlAggregateSql {
  const refuse = (why: string): never => {
    throw new ValidationError([{ path, message: `${why}; math_hogql takes ${HELP}` }], { context: 'invalid HogQL' })
  }
  let root: HogqlNode
  try {
    root = parseHogqlExpression(expression)
  } catch (error) {
    return refuse(`cannot read ${JSON.stringify(expression)}: ${error instanceof Error ? error.message : String(error)}`)
  }
  const name = typeof root.name === 'string' ? root.name.toLowerCase() : ''
  const args = Array.isArray(root.args) ? (root.args as HogqlNode[]) : []
  const params = Array.isArray(root.params) ? (root.params as HogqlNode[]) : []
  if (root.node !== 'Call' || !(name === 'count' || NUMERIC.has(name))) return refuse(`${JSON.stringify(expression)} is not an aggregate`)
  const hooks = sources.hooks
  if (name === 'count' && args.length === 0) return { column: sql`1`, aggregate: (x) => sqlCast<number>(sql`count(${x})`, 'float8') }
  if (args.length !== 1) return refuse(`${name}() takes one argument`)
  const compiled = compileHogql(spanText(expression, args[0]!), hogqlScope(sources, env.project.timezone, env.now), path)
  if (name === 'count') {
    const text = hogqlToText(compiled)
    return root.distinct === true
      ? { column: text, aggregate: (x) => sqlCast<number>(sql`count(distinct ${x})`, 'float8') }
      : { column: text, aggregate: (x) => sqlCast<number>(sql`count(${x})`, 'float8') }
  }
  if (root.distinct === true) return refuse(`${name}(distinct ...) is not supported`)
  const number =
    compiled.type === 'number' ? compiled.sql : compiled.type === 'unknown' || compiled.type === 'string' ? hooks.textToDouble(compiled.sql as Expression<string>) : refuse(`${name}() needs a number`)
  let q: number | null = name === 'median' ? 0.5 : null
  if (name === 'quantile') {
    const value = params.length === 1 && params[0]!.node === 'Constant' ? params[0]!.value : undefined
    if (typeof value !== 'number' || !(value >= 0 && value <= 1)) return refuse('quantile(q)(x) needs q between 0 and 1')
    q = value
  }
  const quantile = q
  return {
    column: number,
    aggregate: (x) =>
      quantile !== null
        ? sql<number>`coalesce(${sqlCast(hooks.quantileCont(x as Expression<number>, quantile), 'float8')}, 0)`
        : sql<number>`coalesce(${sqlCast(sql`${sql.raw(name)}(${x})`, 'float8')}, 0)`,
  }
}
