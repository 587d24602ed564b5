import { parsePgArray } from './pg-text-array.js'
import { isoFromPgDate, isoFromPgTimestamp } from './pg-text-timestamp.js'

/** Converts one value from Postgres's text output to its JS form. Never called for NULL. */
export type TypeParser = (text: string) => unknown

/** The type OIDs whose values Sightline normalises, with their array types. */
export const PgTypeOid = Object.freeze({
  bool: 16,
  int8: 20,
  int2: 21,
  int4: 23,
  text: 25,
  json: 114,
  float4: 700,
  float8: 701,
  varchar: 1043,
  date: 1082,
  timestamp: 1114,
  timestamptz: 1184,
  numeric: 1700,
  uuid: 2950,
  jsonb: 3802,
  _json: 199,
  _bool: 1000,
  _int2: 1005,
  _int4: 1007,
  _text: 1009,
  _varchar: 1015,
  _int8: 1016,
  _float4: 1021,
  _float8: 1022,
  _timestamp: 1115,
  _date: 1182,
  _timestamptz: 1185,
  _numeric: 1231,
  _uuid: 2951,
  _jsonb: 3807,
})

const identity: TypeParser = (text) => text

function int8(text: string): number {
  const value = Number(text)
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(
      `int8 ${text} is beyond Number.MAX_SAFE_INTEGER and would lose precision as a number; cast it to text or numeric in SQL`,
    )
  }
  return value
}

// Exact when the shortest decimal that reads back as the same double is the
// stored numeric: 0.1 and 2.50 pass, 3.3333333333333333 (avg's sixteen
// digits) does not, as DuckDB's DECIMAL check decides.
function numeric(text: string): number {
  const value = Number(text)
  if (Number.isFinite(value) && canonicalDecimal(String(value)) !== canonicalDecimal(text)) {
    throw new RangeError(
      `numeric ${text} has more digits than a number holds; cast it to double precision to accept rounding, or to text`,
    )
  }
  return value // NaN and ±Infinity are numerics too, and exact as numbers
}

// `-1.50e3` and `-1500` both become `-15e2`: sign, significant digits, exponent.
function canonicalDecimal(text: string): string {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text)
  if (!match) return text
  const [, sign, whole = '', fraction = '', exponent = '0'] = match
  const digits = `${whole}${fraction}`.replace(/^0+/, '')
  const significant = digits.replace(/0+$/, '')
  if (significant === '') return '0'
  const scale = Number(exponent) - fraction.length + (digits.length - significant.length)
  return `${sign === '-' ? '-' : ''}${significant}e${scale}`
}

const toNumber: TypeParser = Number
const bool: TypeParser = (text) => text === 't'
const json: TypeParser = (text) => JSON.parse(text)

const arrayOf =
  (parseElement: TypeParser): TypeParser =>
  (text) =>
    parsePgArray(text, parseElement)

const o = PgTypeOid

/**
 * Sightline's row contract, by type OID, the same on every storage adapter:
 *
 * - int8, numeric: `number`; a RangeError when the value has no exact
 *   `number` (an int8 beyond `Number.MAX_SAFE_INTEGER`, a numeric with more
 *   digits than a double holds): precision is never lost silently
 * - int2, int4, float4, float8: `number`; bool: `boolean`
 * - text, varchar, uuid: `string`
 * - timestamptz, timestamp: ISO 8601 UTC with six fractional digits,
 *   `2026-01-01T10:00:00.123456Z` (a `timestamp` is read as UTC);
 *   `'infinity'` / `'-infinity'` for Postgres's infinite values
 * - date: `YYYY-MM-DD` (or `'infinity'` / `'-infinity'`)
 * - json, jsonb: the parsed value
 * - arrays of these: JS arrays (nested for several dimensions) of converted
 *   elements, `null` for NULL elements
 *
 * Other types keep the driver's own form. The timestamp and date parsers read
 * the ISO DateStyle, which every connection is given (see
 * `sessionSettingsQuery`).
 */
export const typeParsers: Readonly<Record<number, TypeParser>> = Object.freeze({
  [o.bool]: bool,
  [o.int8]: int8,
  [o.int2]: toNumber,
  [o.int4]: toNumber,
  [o.text]: identity,
  [o.json]: json,
  [o.float4]: toNumber,
  [o.float8]: toNumber,
  [o.varchar]: identity,
  [o.date]: isoFromPgDate,
  [o.timestamp]: isoFromPgTimestamp,
  [o.timestamptz]: isoFromPgTimestamp,
  [o.numeric]: numeric,
  [o.uuid]: identity,
  [o.jsonb]: json,
  [o._json]: arrayOf(json),
  [o._bool]: arrayOf(bool),
  [o._int2]: arrayOf(toNumber),
  [o._int4]: arrayOf(toNumber),
  [o._text]: arrayOf(identity),
  [o._varchar]: arrayOf(identity),
  [o._int8]: arrayOf(int8),
  [o._float4]: arrayOf(toNumber),
  [o._float8]: arrayOf(toNumber),
  [o._timestamp]: arrayOf(isoFromPgTimestamp),
  [o._date]: arrayOf(isoFromPgDate),
  [o._timestamptz]: arrayOf(isoFromPgTimestamp),
  [o._numeric]: arrayOf(numeric),
  [o._uuid]: arrayOf(identity),
  [o._jsonb]: arrayOf(json),
})
