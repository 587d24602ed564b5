import { SQL_TIMESTAMP_PATTERN } from '../../storage.js'
import type { PropertyFilterValue } from './property-filters.js'

/** A scalar as PostHog compares it: text, with booleans spelled `true`/`false` (JSON true matches "true"). */
export const valueText = (value: string | number | boolean): string => String(value)

/** The values of a filter as a list: a scalar is a list of one. */
export const valueList = (value: PropertyFilterValue | null | undefined): ReadonlyArray<string | number | boolean> =>
  value === undefined || value === null ? [] : Array.isArray(value) ? value : [value as string | number | boolean]

const NUMBER_TEXT = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/

/** A filter's number: a finite number, or a string spelling one; undefined otherwise. */
export function filterNumber(value: string | number | boolean): number | undefined {
  if (typeof value === 'number') return value
  if (typeof value !== 'string' || !NUMBER_TEXT.test(value.trim())) return undefined
  const n = Number(value.trim())
  return Number.isFinite(n) ? n : undefined
}

const TIMESTAMP = new RegExp(SQL_TIMESTAMP_PATTERN)

/** True when a filter's date is one the dialect hooks read: an ISO date or date-time in UTC naming a real day. */
export function isFilterTimestamp(value: string | number | boolean): value is string {
  if (typeof value !== 'string' || !TIMESTAMP.test(value)) return false
  const [y, m, d] = [Number(value.slice(0, 4)), Number(value.slice(5, 7)), Number(value.slice(8, 10))]
  return new Date(Date.UTC(y, m - 1, d)).getUTCDate() === d
}

// What RE2 (DuckDB, PostHog's ClickHouse) refuses although JavaScript accepts it:
// look-around, back-references and named back-references.
const NON_RE2 = /\(\?<?[=!]|\\[1-9]|\\k</

/** Why `pattern` is not a regular expression every database reads alike, or undefined when it is. */
export function regexProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u')
  } catch (error) {
    return `invalid regular expression: ${(error as Error).message}`
  }
  if (NON_RE2.test(pattern)) return 'look-around and back-references are not supported in regular expressions'
  return undefined
}
