import { closingParenthesis, skipOpaque } from './sql-text.js'

const NAME = /^(?:"((?:[^"\\]|\\.)+)"|([A-Za-z_][A-Za-z0-9_]*))\s*as\s*\(/i
// What may follow a table in FROM or JOIN when it has no alias.
const AFTER_TABLE = /^\s*(?:$|[),;]|(?:where|left|right|inner|full|cross|join|on|using|group|order|union|limit|having|window|settings|array|prewhere|final|sample)\b)/i

/** A statement's common table expressions as tables: each created in turn (`createTable`), then the query that reads them, then dropped. */
export interface CteTables {
  readonly tables: ReadonlyArray<{ readonly table: string; readonly query: string }>
  readonly query: string
  /** The tables to drop. */
  readonly drops: ReadonlyArray<string>
}

/**
 * The first WITH list of `sql` as Memory tables named `prefix` + name, when
 * one of its CTEs is read more than once; null otherwise. ClickHouse's
 * analyzer resolves a CTE again at every reference (materialized or not),
 * so a chain of CTEs that each read the previous ones several times is
 * analysed exponentially often: an ordered funnel with one exclusion, on a
 * handful of events, spent 13 to 37 s planning on chDB. As tables, each is
 * analysed and computed once, as DuckDB and Postgres compute a CTE named more
 * than once. Reads of a CTE (`from name`, `join name`, quoted or not) are
 * renamed to its table, keeping the CTE's name as the alias; literals,
 * quoted identifiers and placeholders are never looked into (`sql-text.ts`).
 */
export function cteTables(sql: string, prefix: string): CteTables | null {
  const list = firstWithList(sql)
  if (list === null || !list.ctes.some((c) => reads(sql, c.name).length > 1)) return null
  const names = list.ctes.map((c) => c.name)
  const table = (name: string) => `${prefix}${name}`
  return {
    tables: list.ctes.map((c) => ({ table: table(c.name), query: renameReads(sql.slice(c.open + 1, c.close), names, table) })),
    query: renameReads(sql.slice(0, list.start) + sql.slice(list.end), names, table),
    drops: list.ctes.map((c) => table(c.name)),
  }
}

/**
 * The statement creating `table` from `query`, whose result columns are
 * `columns` (as DESCRIBE names them). A qualified star over several joins
 * names its columns `r.tgt` in ClickHouse (a CTE read inline still resolves
 * `g.tgt` against them, a table does not): such a column is named `tgt`
 * when no other column of the result has that name, as DuckDB and Postgres
 * name it.
 */
export function createTable(table: string, query: string, columns: ReadonlyArray<string> | null, temporary: boolean): string {
  const create = `create ${temporary ? 'temporary ' : ''}table ${table} engine = Memory as`
  const bare = columns?.map((c) => c.slice(c.lastIndexOf('.') + 1)) ?? []
  if (columns === null || bare.every((b, i) => b === columns[i])) return `${create} ${query}`
  const select = columns.map((c, i) => {
    const name = bare.filter((b) => b === bare[i]).length === 1 ? bare[i]! : c
    return `${quote(c)} as ${quote(name)}`
  })
  return `${create} select ${select.join(', ')} from (${query})`
}

/**
 * Whether `query` may name columns `alias.column`: a qualified star where
 * the query joins twice or more (with one join ClickHouse names them bare).
 * When not, `createTable` needs no DESCRIBE of it.
 */
export const mayQualifyColumns = (query: string): boolean => /[A-Za-z0-9_"]\.\*/.test(query) && (query.match(/\bjoin\b/gi)?.length ?? 0) >= 2

const quote = (name: string) => `\`${name.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\``

interface Cte {
  readonly name: string
  /** The parentheses around its query. */
  readonly open: number
  readonly close: number
}

/** The first `with name as (...), ...` of `sql`: where it starts and ends, and its CTEs. */
function firstWithList(sql: string): { start: number; end: number; ctes: Cte[] } | null {
  let i = 0
  while (i < sql.length) {
    const skipped = skipOpaque(sql, i)
    if (skipped > i) {
      i = skipped
      continue
    }
    if (/^with\s/i.test(sql.slice(i, i + 5)) && !/[A-Za-z0-9_$.]/.test(sql[i - 1] ?? '')) {
      const ctes: Cte[] = []
      let at = i + 4
      let end = at
      for (;;) {
        at += /^\s*/.exec(sql.slice(at))![0].length
        const cte = NAME.exec(sql.slice(at, at + 300))
        if (!cte) break
        const open = at + cte[0].length - 1
        const close = closingParenthesis(sql, open)
        ctes.push({ name: cte[1] ?? cte[2]!, open, close })
        end = close + 1
        at = end + /^\s*/.exec(sql.slice(end))![0].length
        if (sql[at] !== ',') break
        at++
      }
      if (ctes.length > 0) return { start: i, end, ctes }
    }
    i++
  }
  return null
}

/** Where `sql` reads `name` as a table (`from name`, `join name`, quoted or not): the name's start and end. */
function reads(sql: string, name: string): Array<readonly [number, number]> {
  const found: Array<readonly [number, number]> = []
  const reader = /^(?:from|join)\s+/i
  let i = 0
  while (i < sql.length) {
    const skipped = skipOpaque(sql, i)
    if (skipped > i) {
      i = skipped
      continue
    }
    const read = /[A-Za-z0-9_$.]/.test(sql[i - 1] ?? '') ? null : reader.exec(sql.slice(i, i + 20))
    if (read) {
      const at = i + read[0].length
      const quoted = sql[at] === '"' ? skipOpaque(sql, at) : at
      const end = quoted > at ? quoted : at + (/^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(at))?.[0].length ?? 0)
      const word = quoted > at ? sql.slice(at + 1, end - 1) : sql.slice(at, end)
      if (word === name) found.push([at, end])
      i = Math.max(end, i + 1)
      continue
    }
    i++
  }
  return found
}

/** `sql` with every read of one of `names` renamed to `table(name)`, aliased as the name when it had no alias. */
function renameReads(sql: string, names: ReadonlyArray<string>, table: (name: string) => string): string {
  const edits = names.flatMap((name) => reads(sql, name).map(([start, end]) => ({ start, end, name })))
  edits.sort((a, b) => a.start - b.start)
  let out = ''
  let from = 0
  for (const { start, end, name } of edits) {
    const alias = AFTER_TABLE.test(sql.slice(end, end + 20)) ? ` as "${name}"` : ''
    out += `${sql.slice(from, start)}${table(name)}${alias}`
    from = end
  }
  return out + sql.slice(from)
}
