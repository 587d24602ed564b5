import type { ChdbSession } from './clickhouse-dialect-config.js'
import type { ClickHouseExecutor, CompactResult } from './clickhouse-executor.js'

/**
 * Session settings the dialect relies on: 64-bit integers as JSON strings (a
 * JSON number would lose digits past 2^53 before `normalizeRows` sees it),
 * UTC for times without a zone, ISO 8601 texts (`2026-01-01T10:00:00.5Z`,
 * as Sightline binds instants) read wherever a string meets a time, and
 * aggregates over no rows null, as SQL has them (ClickHouse's default is the
 * type's zero: min() of no times would be 1970), and casts of null to null
 * (`cast(null as text)`, which ClickHouse otherwise refuses), and outer
 * joins that fill a missing side with nulls, as SQL does (ClickHouse's
 * default fills the type's zero), and a name that is both a column of the
 * FROM and an alias of the select list read as the column, as SQL reads it
 * (`select b + 1 as b ... where next > b + 1` compares with the column b;
 * ClickHouse's default takes the alias).
 */
export const SESSION_SETTINGS: Readonly<Record<string, string | number>> = Object.freeze({
  output_format_json_quote_64bit_integers: 1,
  session_timezone: 'UTC',
  cast_string_to_date_time_mode: 'best_effort',
  aggregate_functions_null_for_empty: 1,
  cast_keep_nullable: 1,
  join_use_nulls: 1,
  prefer_column_name_to_alias: 1,
})

/**
 * ClickHouse in this process through a chDB `Session`. chDB keeps settings
 * per session, so they are SET once, on the first statement; the session
 * (one data directory a process, chDB's rule) is the host's to close.
 */
export function chdbExecutor(session: ChdbSession): ClickHouseExecutor {
  let ready: Promise<void> | undefined
  const prepare = () =>
    (ready ??= (async () => {
      for (const [name, value] of Object.entries(SESSION_SETTINGS)) {
        await session.queryAsync(`SET ${name} = ${typeof value === 'number' ? value : `'${value}'`}`)
      }
    })())
  return {
    sessionTables: true,
    async query(sql, params) {
      await prepare()
      const text = (await session.queryBindAsync(sql, params, { format: 'JSONCompact' })).text()
      // A statement that returns no block (DDL) prints nothing at all.
      return text === '' ? { meta: [], data: [] } : (JSON.parse(text) as CompactResult)
    },
    async command(sql, params) {
      await prepare()
      await session.queryBindAsync(sql, params, { format: 'Null' })
    },
    async insertRows(table, columns, rows) {
      await prepare()
      if (rows.length === 0) return 0
      // JSONEachRow text handed over as bytes: ClickHouse's own parser reads it, no INSERT text is built here.
      const body = Buffer.from(rows.map((row) => JSON.stringify(row)).join('\n'))
      await session.insert({ table, values: body, format: 'JSONEachRow', columns })
      return rows.length
    },
    async close() {},
  }
}
