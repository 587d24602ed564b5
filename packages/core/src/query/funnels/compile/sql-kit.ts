import { sql, type RawBuilder } from 'kysely'

/**
 * Small builders for the funnel's SQL. Identifiers and integers here are the
 * compiler's own (column names it chose, step numbers, bit masks), never user
 * text; every user value goes through a bound parameter elsewhere.
 */
export type Sql = RawBuilder<unknown>

/** A name the compiler chose (`t3`, `p0`). */
export const id = (name: string): Sql => {
  if (!/^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/.test(name)) throw new Error(`funnel compiler: bad identifier ${name}`)
  return sql.raw(name)
}

/** An integer the compiler computed, inlined so both databases see a 64-bit literal. */
export const int = (n: number): Sql => {
  if (!Number.isSafeInteger(n)) throw new RangeError(`funnel compiler: not a safe integer: ${n}`)
  return sql.raw(n < 0 ? `(${n})` : String(n))
}

export const join = (parts: ReadonlyArray<Sql>, separator = ', '): Sql => sql.join(parts as Sql[], sql.raw(separator))

/** `prefix0, prefix1, ...` (`count` columns), optionally qualified by a table alias. */
export const cols = (prefix: string, count: number, alias?: string): Sql[] =>
  Array.from({ length: count }, (_, i) => id(alias ? `${alias}.${prefix}${i}` : `${prefix}${i}`))

/** `(a.x0 = b.x0 and a.x1 = b.x1 ...)`; true for no columns. */
export function sameCols(names: ReadonlyArray<string>, a: string, b: string): Sql {
  if (names.length === 0) return sql`true`
  return sql`(${join(names.map((n) => sql`${id(`${a}.${n}`)} = ${id(`${b}.${n}`)}`), ' and ')})`
}

/**
 * A common table expression: its name, its body, and `true` third when the
 * database should compute it at each reference rather than once (spelled
 * `as not materialized`; only where `SqlHooks.inlinesCtes` says the dialect
 * accepts it).
 */
export type Cte = readonly [name: string, body: Sql, inline?: true]

/** A `Cte`, computed at each reference when `inline`. */
export const cte = (name: string, body: Sql, inline: boolean): Cte => (inline ? [name, body, true] : [name, body])

/** `with a as (...), b as (...) <final>`. */
export function withCtes(ctes: ReadonlyArray<Cte>, final: Sql): Sql {
  if (ctes.length === 0) return final
  return sql`with ${join(ctes.map(([name, body, inline]) => sql`${id(name)} as ${inline ? sql`not materialized ` : sql``}(${body})`), ',\n')}\n${final}`
}

/** The value of bit `i` (0-based) of a step or gap mask. */
export const bit = (i: number): number => 2 ** i

/**
 * Bit `i` of a mask (0 <= mask < 2^62) is set: `mask % 2^(i+1) >= 2^i`,
 * portable where `&` is not (ClickHouse spells it `bitAnd`) and as fast on
 * DuckDB and Postgres (benchmarks/README.md, issue 16).
 */
export const hasBit = (mask: Sql, i: number): Sql => sql`((${mask} % ${int(2 * bit(i))}) >= ${int(bit(i))})`

/** `hasBit` for a bit value `bv` (a power of two, 1..2^30) held in a column. */
export const hasBitValue = (mask: Sql, bv: Sql): Sql => sql`((${mask} % (2 * cast(${bv} as bigint))) >= ${bv})`

/** A typed NULL, so UNION ALL branches agree on both databases. */
export const nullOf = (type: 'bigint' | 'text' | 'int'): Sql =>
  type === 'bigint' ? sql`cast(null as bigint)` : type === 'int' ? sql`cast(null as integer)` : sql`cast(null as varchar)`
