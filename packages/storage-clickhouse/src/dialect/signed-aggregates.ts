import { closingParenthesis, skipOpaque } from './sql-text.js'

const COUNTING = /^(row_number|rank|dense_rank|count|sum)\s*\(/i
const OVER = /^\s*over\s*/i

/**
 * Compiled SQL with every call of `count`, `sum`, `row_number`, `rank` and
 * `dense_rank` (and its `over (...)` or `over name`, if any) made signed by
 * adding `toInt8(0)`. SQL's counts and integer sums are signed bigints;
 * ClickHouse's are UInt64, which has no common type with a negative or
 * signed number, so a UNION or `coalesce` of one with `cast(null as bigint)`
 * or `-2` (unordered funnel trends) is a Variant there, and `min`, `greatest`
 * or a comparison that reads it fails. `UInt64 + Int8` is Int64, while a
 * floating-point or decimal sum keeps its type. Literals, quoted identifiers
 * and placeholders are never looked into (`sql-text.ts`).
 */
export function signedAggregates(sql: string): string {
  if (!/\b(row_number|rank|dense_rank|count|sum)\s*\(/i.test(sql)) return sql
  let out = ''
  let i = 0
  while (i < sql.length) {
    const skipped = skipOpaque(sql, i)
    if (skipped > i) {
      out += sql.slice(i, skipped)
      i = skipped
      continue
    }
    const call = COUNTING.exec(sql.slice(i, i + 16))
    if (call && !/[A-Za-z0-9_$.]/.test(sql[i - 1] ?? '')) {
      const open = i + call[0].length - 1
      let end = closingParenthesis(sql, open) + 1
      const over = OVER.exec(sql.slice(end, end + 16))
      if (over) {
        const at = end + over[0].length
        // The window: a parenthesised definition, or a name from the WINDOW clause.
        end = sql[at] === '(' ? closingParenthesis(sql, at) + 1 : at + (/^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(at))?.[0].length ?? 0)
      }
      out += `(${sql.slice(i, open + 1)}${signedAggregates(sql.slice(open + 1, end))} + toInt8(0))`
      i = end
      continue
    }
    out += sql[i]
    i++
  }
  return out
}
