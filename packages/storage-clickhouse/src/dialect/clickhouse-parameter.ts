/**
 * A bound value as ClickHouse's query parameters take it: the type named in
 * the placeholder (`{p1:String}`) and the value, which the driver sends apart
 * from the SQL text. User text is never spliced into SQL.
 */
export interface ClickHouseParameter {
  readonly type: string
  readonly value: unknown
}

/**
 * The ClickHouse type of a JavaScript value bound by Kysely: strings
 * `String`, safe integers and bigints `Int64`, other numbers `Float64`,
 * booleans `Bool`, dates `DateTime64(6, 'UTC')` (sent as UTC text with
 * microseconds), arrays `Array(T)` of their first non-null element's type
 * (`Array(String)` when empty), null `Nullable(String)`. Objects are sent as
 * their JSON text (Sightline writes JSON columns as text).
 */
export function toClickHouseParameter(value: unknown): ClickHouseParameter {
  if (value === null || value === undefined) return { type: 'Nullable(String)', value: null }
  if (typeof value === 'string') return { type: 'String', value }
  if (typeof value === 'bigint') return { type: 'Int64', value: value.toString() }
  if (typeof value === 'number') return Number.isSafeInteger(value) ? { type: 'Int64', value } : { type: 'Float64', value: String(value) }
  if (typeof value === 'boolean') return { type: 'Bool', value }
  if (value instanceof Date) return { type: "DateTime64(6, 'UTC')", value: utcText(value) }
  if (Array.isArray(value)) {
    const items = value.map(toClickHouseParameter)
    const element = items.find((item) => item.value !== null)?.type ?? 'String'
    const nullable = items.some((item) => item.value === null) && !element.startsWith('Nullable(')
    return { type: `Array(${nullable ? `Nullable(${element})` : element})`, value: items.map((item) => item.value) }
  }
  return { type: 'String', value: JSON.stringify(value) }
}

/** `2026-01-01 10:00:00.123000`: the text a `DateTime64(6, 'UTC')` parameter reads. */
function utcText(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new RangeError('cannot bind an invalid Date')
  return date.toISOString().replace('T', ' ').replace('Z', '000')
}

/**
 * An ISO 8601 text as a `DateTime64(6, 'UTC')` parameter: UTC texts
 * (`...Z`) keep their microseconds, texts with an offset are read by `Date`
 * (milliseconds). A text that is no time is bound as it is, for ClickHouse to refuse.
 */
export function toTimeParameter(text: string): ClickHouseParameter {
  const type = "DateTime64(6, 'UTC')"
  const utc = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?)Z$/.exec(text)
  if (utc) return { type, value: `${utc[1]} ${utc[2]!.length === 5 ? `${utc[2]}:00` : utc[2]}` }
  const date = new Date(text)
  return Number.isNaN(date.getTime()) ? { type, value: text } : toClickHouseParameter(date)
}
