import { invalidInput } from '../errors.js'

/**
 * PostHog's CSV export (`format=csv`) of records: djangorestframework-csv's
 * PaginatedCSVRenderer. A list envelope renders its `results`; nested objects
 * and arrays flatten into dotted headers (`filters.events.0.id`); the header
 * row is the sorted union of every row's keys; values are written as Python's
 * `str()` would (`True`, `False`, empty for null). Cells are escaped by
 * `csvCell` and lines end in `\r\n`. Analyses have tables of their own
 * (csv-analyses.ts).
 */
export function toCsv(data: unknown): string {
  const rows = rowsOf(data).map((row) => flatten(row))
  if (rows.length === 0) return ''
  const header = [...new Set(rows.flatMap((row) => [...row.keys()]))].sort()
  const lines = [csvLine(header)]
  for (const row of rows) lines.push(csvLine(header.map((key) => row.get(key))))
  return lines.join('')
}

function rowsOf(data: unknown): unknown[] {
  if (Array.isArray(data)) return data
  if (typeof data === 'object' && data !== null) {
    const results = (data as { results?: unknown }).results
    if (Array.isArray(results)) return results
    return [data]
  }
  return data === null || data === undefined ? [] : [data]
}

/** `flatten_item`: scalars sit under the empty key, containers nest with `.`. */
function flatten(item: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>()
  const stack: Array<[string, unknown]> = [['', item]]
  while (stack.length > 0) {
    const [prefix, value] = stack.pop()!
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : typeof value === 'object' && value !== null
        ? Object.entries(value)
        : null
    if (entries === null) {
      out.set(prefix, value)
      continue
    }
    for (const [key, child] of entries) stack.push([prefix === '' ? key : `${prefix}.${key}`, child])
  }
  return out
}

/**
 * Text a spreadsheet would run as a formula (OWASP's CSV injection list, and
 * what PostHog's exporter neutralises since posthog#54162): a leading `=`,
 * `+`, `-`, `@`, tab or carriage return.
 */
const FORMULA_START = /^[=+\-@\t\r]/

/**
 * One cell: null and undefined empty, booleans as Python writes them (`True`),
 * numbers as they are (a negative count stays a number), text that starts
 * like a formula prefixed with `'` (spreadsheets show the text, not a result),
 * then RFC 4180 quoting: a cell holding `"`, `,`, CR or LF is quoted, its
 * quotes doubled.
 */
export function csvCell(value: unknown): string {
  let text: string
  if (value === null || value === undefined) text = ''
  else if (value === true) text = 'True'
  else if (value === false) text = 'False'
  else if (typeof value === 'string') text = FORMULA_START.test(value) ? `'${value}` : value
  else text = String(value)
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** One record: its cells escaped, comma-separated, ending in CRLF. */
export const csvLine = (cells: ReadonlyArray<unknown>): string => `${cells.map(csvCell).join(',')}\r\n`

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8'

export function csvResponse(data: unknown, status = 200): Response {
  return new Response(toCsv(data), { status, headers: { 'content-type': CSV_CONTENT_TYPE } })
}

/**
 * What an endpoint with nothing tabular to answer (`/insights/cancel/`,
 * `/insights/timing/`) does with `format=csv`: the interface lets every
 * insight endpoint take `format`, so the parameter is known, but this answer
 * is an acknowledgement, not a table. Refused before anything is done.
 */
export function refuseCsv(query: URLSearchParams, what: string): void {
  if (query.get('format') === 'csv') {
    throw invalidInput(`CSV is not offered here: ${what} answers an acknowledgement, not a table. Send format=json or leave format out.`, 'format')
  }
}

/** The 400 of `refuseCsv`, for the OpenAPI document (a route declaring it answers JSON only). */
export const CSV_REFUSED = 'Invalid input (`validation_error`, `attr` names the field) or a malformed body; `format=csv` (`attr` `format`): this answer is not a table.'
