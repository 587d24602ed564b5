/**
 * PostHog's CSV export (`format=csv`): djangorestframework-csv's
 * PaginatedCSVRenderer. A list envelope renders its `results`; nested objects
 * and arrays flatten into dotted headers (`filters.events.0.id`); the header
 * row is the sorted union of every row's keys; values are written as Python's
 * `str()` would (`True`, `False`, empty for null) with Python's csv quoting
 * (minimal) and `\r\n` line ends.
 */
export function toCsv(data: unknown): string {
  const rows = rowsOf(data).map((row) => flatten(row))
  if (rows.length === 0) return ''
  const header = [...new Set(rows.flatMap((row) => [...row.keys()]))].sort()
  const lines = [header.map(quote)]
  for (const row of rows) lines.push(header.map((key) => quote(text(row.get(key)))))
  return lines.map((cells) => `${cells.join(',')}\r\n`).join('')
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

function text(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (value === true) return 'True'
  if (value === false) return 'False'
  return String(value)
}

function quote(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell
}

export function csvResponse(data: unknown, status = 200): Response {
  return new Response(toCsv(data), { status, headers: { 'content-type': 'text/csv; charset=utf-8' } })
}
