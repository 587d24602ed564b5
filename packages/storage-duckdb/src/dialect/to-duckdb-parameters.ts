import {
  BIGINT,
  BLOB,
  BOOLEAN,
  DOUBLE,
  HUGEINT,
  INTEGER,
  LIST,
  SQLNULL,
  TIMESTAMPTZ,
  VARCHAR,
  blobValue,
  listValue,
  timestampTZValue,
} from '@duckdb/node-api'
import type { DuckDBType, DuckDBValue } from '@duckdb/node-api'

/**
 * Parameters ready for `run(sql, values, types)`.
 */
export interface DuckDBParameters {
  readonly values: DuckDBValue[]
  readonly types: DuckDBType[]
}

/**
 * Converts Kysely's JS parameters to DuckDB values with an explicit type each:
 *
 * - `null`, `undefined`: NULL
 * - `boolean`: BOOLEAN; `string`: VARCHAR
 * - `number`: INTEGER, BIGINT for a larger safe integer, else DOUBLE
 * - `bigint`: BIGINT, or HUGEINT beyond 64 bits
 * - `Date`: TIMESTAMPTZ (an instant, whatever the session time zone)
 * - `Uint8Array` (and `Buffer`): BLOB
 * - arrays: a LIST of the converted items (`VARCHAR[]` for strings, numbers
 *   widened to one type, `NULL[]` when empty, which DuckDB casts to any list)
 * - plain objects: their `JSON.stringify` text as VARCHAR, for JSON columns
 *
 * Anything else throws a TypeError naming the parameter. Types are explicit
 * because node-api's inference cannot type an empty list and has no rule for
 * `Date`.
 */
export function toDuckDBParameters(parameters: readonly unknown[]): DuckDBParameters {
  const values: DuckDBValue[] = []
  const types: DuckDBType[] = []

  parameters.forEach((parameter, i) => {
    const { value, type } = toDuckDBParameter(parameter, `$${i + 1}`)
    values.push(value)
    types.push(type)
  })

  return { values, types }
}

interface TypedValue {
  readonly value: DuckDBValue
  readonly type: DuckDBType
}

const INT64_MAX = 2n ** 63n - 1n
const INT128_MAX = 2n ** 127n - 1n

function toDuckDBParameter(parameter: unknown, name: string): TypedValue {
  switch (typeof parameter) {
    case 'undefined':
      return { value: null, type: SQLNULL }

    case 'boolean':
      return { value: parameter, type: BOOLEAN }

    case 'string':
      return { value: parameter, type: VARCHAR }

    case 'number':
      return { value: parameter, type: numberType(parameter) }

    case 'bigint':
      if (parameter >= -INT64_MAX - 1n && parameter <= INT64_MAX) {
        return { value: parameter, type: BIGINT }
      }

      if (parameter >= -INT128_MAX - 1n && parameter <= INT128_MAX) {
        return { value: parameter, type: HUGEINT }
      }

      throw new RangeError(`parameter ${name}: ${parameter} does not fit in a HUGEINT`)

    case 'object':
      if (parameter === null) {
        return { value: null, type: SQLNULL }
      }

      if (parameter instanceof Date) {
        const millis = parameter.getTime()

        if (Number.isNaN(millis)) {
          throw new RangeError(`parameter ${name}: invalid Date`)
        }

        return { value: timestampTZValue(BigInt(millis) * 1000n), type: TIMESTAMPTZ }
      }

      if (parameter instanceof Uint8Array) {
        return { value: blobValue(parameter), type: BLOB }
      }

      if (Array.isArray(parameter)) {
        return toList(parameter, name)
      }

      if (isPlainObject(parameter)) {
        return { value: JSON.stringify(parameter), type: VARCHAR }
      }
  }

  throw new TypeError(`parameter ${name}: cannot bind a ${describe(parameter)} to DuckDB`)
}

function numberType(value: number): DuckDBType {
  if (Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31) {
    return INTEGER
  }

  return Number.isSafeInteger(value) ? BIGINT : DOUBLE
}

function toList(items: readonly unknown[], name: string): TypedValue {
  const converted = items.map((item, i) => toDuckDBParameter(item, `${name}[${i}]`))
  let itemType: DuckDBType = SQLNULL

  for (const { type } of converted) {
    const common = commonType(itemType, type)

    if (!common) {
      throw new TypeError(`parameter ${name}: cannot bind a list mixing ${String(itemType)} and ${String(type)}`)
    }

    itemType = common
  }

  return { value: listValue(converted.map(({ value }) => value)), type: LIST(itemType) }
}

// Numbers in one list may get different types (1 and 1.5); the widest holds them all.
const NUMBER_WIDTH = new Map<DuckDBType, number>([
  [INTEGER, 0],
  [BIGINT, 1],
  [DOUBLE, 2],
])

function commonType(a: DuckDBType, b: DuckDBType): DuckDBType | undefined {
  if (a === SQLNULL) {
    return b
  }

  if (b === SQLNULL || String(a) === String(b)) {
    return a
  }

  const widthA = NUMBER_WIDTH.get(a)
  const widthB = NUMBER_WIDTH.get(b)

  if (widthA === undefined || widthB === undefined) {
    return undefined
  }

  return widthA >= widthB ? a : b
}

function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

function describe(value: unknown): string {
  if (typeof value === 'object' && value !== null) {
    return value.constructor?.name ?? 'object'
  }

  return typeof value
}
