import type { CompactResult } from './clickhouse-executor.js'

/**
 * Turns a `JSONCompact` result into plain objects under the row contract
 * every Sightline storage meets (see storage-duckdb's normalize-rows.ts):
 * integers of any width and decimals as `number` (a RangeError naming the
 * column when one has no exact `number`), `Bool` as boolean, times as ISO
 * 8601 UTC with six fractional digits, `Date` as `YYYY-MM-DD`, UUIDs and
 * strings as strings, arrays and tuples as arrays, maps as objects, `Nothing`
 * as null. A column name that occurs twice keeps its last value.
 *
 * ClickHouse keeps JSON documents in `String` columns; `jsonColumns` names
 * the result columns read as parsed JSON, as other storages' JSON columns
 * are (`events.properties` selected under its own name).
 */
export function normalizeRows(result: CompactResult, jsonColumns: ReadonlySet<string> = NO_COLUMNS): Record<string, unknown>[] {
  const readers = result.meta.map((column) => (jsonColumns.has(column.name) && /^(Nullable\()?String\)?$/.test(column.type) ? readJson : reader(column.type, column.name)))
  return result.data.map((row) => {
    const object: Record<string, unknown> = {}
    result.meta.forEach((column, i) => {
      object[column.name] = readers[i]!(row[i] ?? null)
    })
    return object
  })
}

type Reader = (value: unknown) => unknown

const NO_COLUMNS: ReadonlySet<string> = new Set()
const readJson: Reader = (v) => (v === null ? null : JSON.parse(v as string))

/** A reader for one ClickHouse type, built once per column. */
function reader(type: string, column: string): Reader {
  const wrapped = /^(Nullable|LowCardinality)\((.*)\)$/.exec(type)
  if (wrapped) {
    const inner = reader(wrapped[2]!, column)
    return (v) => (v === null ? null : inner(v))
  }
  const array = /^Array\((.*)\)$/.exec(type)
  if (array) {
    const inner = reader(array[1]!, column)
    return (v) => (v as unknown[]).map(inner)
  }
  if (/^(U?Int(8|16|32|64|128|256)|Decimal.*)$/.test(type)) return (v) => exactNumber(v, column)
  if (/^(Float(32|64)|BFloat16)$/.test(type)) return (v) => (typeof v === 'string' ? Number(v) : v)
  if (type === 'Bool') return (v) => v === true || v === 1
  if (/^DateTime(64)?\b/.test(type)) return (v) => isoUtc(v as string)
  if (type === 'Nothing') return () => null
  // String, FixedString, UUID, Date, Enum, JSON text, tuples and maps: ClickHouse's JSON form is already the value.
  return (v) => v
}

function exactNumber(value: unknown, column: string): number {
  const n = typeof value === 'number' ? value : Number(value)
  if (typeof value === 'string' && Number.isInteger(n) && !Number.isSafeInteger(n)) {
    throw new RangeError(`column ${column}: ${value} has no exact number`)
  }
  return n
}

/** `2026-01-01 10:00:00.123` (any precision, UTC) as `2026-01-01T10:00:00.123000Z`. */
function isoUtc(text: string): string {
  const [date, time = '00:00:00'] = text.split(' ')
  const [whole, fraction = ''] = time.split('.')
  return `${date}T${whole}.${fraction.padEnd(6, '0').slice(0, 6)}Z`
}
