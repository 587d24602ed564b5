import {
  DuckDBArrayValue,
  DuckDBBlobValue,
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBListValue,
  DuckDBMapValue,
  DuckDBStructValue,
  DuckDBTimestampMillisecondsValue,
  DuckDBTimestampNanosecondsValue,
  DuckDBTimestampSecondsValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  DuckDBTypeId,
} from '@duckdb/node-api'
import type { DuckDBType, DuckDBValue } from '@duckdb/node-api'

/**
 * Converts DuckDB rows to plain objects keyed by column name, under the row
 * contract every Sightline storage meets:
 *
 * - integers of any width and DECIMAL: `number`; a RangeError naming the
 *   column when the value has no exact `number` (a BIGINT beyond
 *   `Number.MAX_SAFE_INTEGER`, a DECIMAL with more digits than a double holds)
 * - FLOAT, DOUBLE: `number`; BOOLEAN: `boolean`; VARCHAR, ENUM: `string`
 * - UUID: lower-case canonical `string`
 * - TIMESTAMP, TIMESTAMPTZ (and _S, _MS, _NS): ISO 8601 UTC with six
 *   fractional digits, `2026-01-01T10:00:00.123456Z`; `'infinity'` or
 *   `'-infinity'` for DuckDB's infinite timestamps
 * - DATE: `YYYY-MM-DD` (or `'infinity'` / `'-infinity'`)
 * - JSON: the parsed value
 * - LIST, ARRAY: arrays; STRUCT: objects; MAP with VARCHAR keys: objects, other
 *   MAPs: `{ key, value }[]` (their keys cannot be object keys without loss)
 * - BLOB: `Uint8Array`; NULL: `null`
 *
 * Any other type (INTERVAL, TIME, UNION, ...) throws a TypeError naming the
 * column, so that a new type is a decision rather than a silent shape.
 *
 * A column name that occurs twice keeps its last value, as with pg.
 */
export function normalizeRows(
  names: readonly string[],
  types: readonly DuckDBType[],
  rows: readonly (readonly DuckDBValue[])[],
): Record<string, unknown>[] {
  return rows.map((row) => {
    const object: Record<string, unknown> = {}

    for (let i = 0; i < names.length; i++) {
      const name = names[i]!
      object[name] = normalizeValue(row[i] ?? null, types[i]!, name)
    }

    return object
  })
}

function normalizeValue(value: DuckDBValue, type: DuckDBType, column: string): unknown {
  if (value === null) {
    return null
  }

  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
    case DuckDBTypeId.ENUM:
      return value

    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
    case DuckDBTypeId.BIGNUM:
      return numberFromBigInt(value as bigint, column)

    case DuckDBTypeId.DECIMAL:
      return numberFromDecimal(asInstanceOf(value, DuckDBDecimalValue, type, column), column)

    case DuckDBTypeId.VARCHAR:
      // JSON is VARCHAR with a type alias; the alias survives nesting in LIST and STRUCT.
      return type.alias === 'JSON' ? JSON.parse(value as string) : value

    case DuckDBTypeId.UUID:
      return String(value)

    case DuckDBTypeId.TIMESTAMP:
      return isoFromMicros(asInstanceOf(value, DuckDBTimestampValue, type, column), column)

    case DuckDBTypeId.TIMESTAMP_TZ:
      return isoFromMicros(asInstanceOf(value, DuckDBTimestampTZValue, type, column), column)

    case DuckDBTypeId.TIMESTAMP_S: {
      const { seconds } = asInstanceOf(value, DuckDBTimestampSecondsValue, type, column)
      return isoFromMicros(new DuckDBTimestampValue(seconds * 1_000_000n), column)
    }

    case DuckDBTypeId.TIMESTAMP_MS: {
      const { millis } = asInstanceOf(value, DuckDBTimestampMillisecondsValue, type, column)
      return isoFromMicros(new DuckDBTimestampValue(millis * 1000n), column)
    }

    case DuckDBTypeId.TIMESTAMP_NS: {
      const { nanos } = asInstanceOf(value, DuckDBTimestampNanosecondsValue, type, column)

      if (nanos % 1000n !== 0n) {
        throw new RangeError(
          `column "${column}": TIMESTAMP_NS ${nanos} has sub-microsecond digits that the row contract cannot carry; cast it to TIMESTAMP`,
        )
      }

      return isoFromMicros(new DuckDBTimestampValue(nanos / 1000n), column)
    }

    case DuckDBTypeId.DATE:
      return dateString(asInstanceOf(value, DuckDBDateValue, type, column), column)

    case DuckDBTypeId.LIST:
      return asInstanceOf(value, DuckDBListValue, type, column).items.map((item) =>
        normalizeValue(item, type.valueType, column),
      )

    case DuckDBTypeId.ARRAY:
      return asInstanceOf(value, DuckDBArrayValue, type, column).items.map((item) =>
        normalizeValue(item, type.valueType, column),
      )

    case DuckDBTypeId.STRUCT: {
      const { entries } = asInstanceOf(value, DuckDBStructValue, type, column)

      // fromEntries defines own properties, so a field named "__proto__" stays data.
      return Object.fromEntries(
        type.entryNames.map((name, i) => [
          name,
          normalizeValue(entries[name] ?? null, type.entryTypes[i]!, column),
        ]),
      )
    }

    case DuckDBTypeId.MAP: {
      const entries = asInstanceOf(value, DuckDBMapValue, type, column).entries.map((entry) => ({
        key: normalizeValue(entry.key, type.keyType, column),
        value: normalizeValue(entry.value, type.valueType, column),
      }))

      return type.keyType.typeId === DuckDBTypeId.VARCHAR
        ? Object.fromEntries(entries.map((entry) => [entry.key, entry.value]))
        : entries
    }

    case DuckDBTypeId.BLOB:
      return asInstanceOf(value, DuckDBBlobValue, type, column).bytes

    case DuckDBTypeId.SQLNULL:
      return null

    default:
      throw new TypeError(
        `column "${column}" has type ${String(type)}, which the row contract does not cover; cast it in SQL (e.g. to VARCHAR)`,
      )
  }
}

function numberFromBigInt(value: bigint, column: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(
      `column "${column}": integer ${value} is beyond Number.MAX_SAFE_INTEGER and would lose precision as a number`,
    )
  }

  return Number(value)
}

function numberFromDecimal(value: DuckDBDecimalValue, column: string): number {
  const number = value.toDouble()

  // Exact when the double, rounded back to the column's scale, is the stored decimal.
  if (DuckDBDecimalValue.fromDouble(number, value.width, value.scale).value !== value.value) {
    throw new RangeError(
      `column "${column}": DECIMAL ${value.toString()} has more digits than a number holds; cast it to DOUBLE to accept rounding, or to VARCHAR`,
    )
  }

  return number
}

const MICROS_PER_MILLI = 1000n
// The range of a JS Date, which formats the date-time part.
const MAX_MILLIS = 8_640_000_000_000_000n

function isoFromMicros(value: DuckDBTimestampValue | DuckDBTimestampTZValue, column: string): string {
  if (!value.isFinite) {
    return value.micros > 0n ? 'infinity' : '-infinity'
  }

  // BigInt division truncates toward zero; the remainder must be a positive
  // offset into the millisecond, so step down for timestamps before 1970.
  let millis = value.micros / MICROS_PER_MILLI
  let micros = value.micros % MICROS_PER_MILLI

  if (micros < 0n) {
    millis -= 1n
    micros += MICROS_PER_MILLI
  }

  if (millis > MAX_MILLIS || millis < -MAX_MILLIS) {
    throw new RangeError(`column "${column}": timestamp ${value.toString()} is outside the range of an ISO 8601 string`)
  }

  const iso = new Date(Number(millis)).toISOString()
  return `${iso.slice(0, -1)}${String(micros).padStart(3, '0')}Z`
}

const MILLIS_PER_DAY = 86_400_000
const MAX_DAYS = 100_000_000

function dateString(value: DuckDBDateValue, column: string): string {
  if (!value.isFinite) {
    return value.days > 0 ? 'infinity' : '-infinity'
  }

  if (value.days > MAX_DAYS || value.days < -MAX_DAYS) {
    throw new RangeError(`column "${column}": date ${value.toString()} is outside the range of an ISO 8601 string`)
  }

  const iso = new Date(value.days * MILLIS_PER_DAY).toISOString()
  return iso.slice(0, iso.indexOf('T'))
}

function asInstanceOf<T>(
  value: DuckDBValue,
  kind: abstract new (...args: never[]) => T,
  type: DuckDBType,
  column: string,
): T {
  if (value instanceof kind) {
    return value
  }

  // node-api pairs each type id with one value class; a mismatch means an
  // unsupported node-api version, not bad data.
  throw new TypeError(`column "${column}": expected a ${kind.name} for type ${String(type)}`)
}
