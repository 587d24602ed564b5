import { CompiledQuery } from 'kysely'

/**
 * Run once on every new connection, pg's and PGlite's: the session settings
 * Sightline's reads rely on. `TimeZone` UTC makes `date_trunc`, `::date` and
 * timestamp output the same on every machine; `DateStyle` ISO is the text
 * form the timestamp parsers read (its day-month order is left as it is).
 * With `schema`, the connection's `search_path` is that one schema, so every
 * table, sequence and migration record lives there. `jit` off: an analysis is
 * one statement of many CTEs whose estimated cost passes the JIT thresholds,
 * and compiling it took longer than running it (a strict funnel at 1M events:
 * 4.8 s of JIT in 6.0 s; 0.9 s without; benchmarks/README.md, issue 15).
 */
export function sessionSettings(schema?: string): CompiledQuery {
  // set_config() rather than SETs: one statement, which the extended query
  // protocol (PGlite's query(), pg with parameters) requires.
  const base = "select set_config('TimeZone', 'UTC', false), set_config('DateStyle', 'ISO', false), set_config('jit', 'off', false)"
  if (schema === undefined) return CompiledQuery.raw(base)
  // The schema is a bound parameter, quoted as an identifier by quote_ident.
  return CompiledQuery.raw(`${base}, set_config('search_path', quote_ident($1::text), false)`, [schema])
}

export const sessionSettingsQuery: CompiledQuery = sessionSettings()
