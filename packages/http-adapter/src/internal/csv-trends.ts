import type { CsvTable } from './csv-stream.js'

type Item = Readonly<Record<string, unknown>>

export const isItem = (value: unknown): value is Item => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A breakdown value as a cell: the parts of a multiple breakdown joined by `::`, as PostHog's exporter and labels join them. */
export const breakdownCell = (value: unknown): unknown => (Array.isArray(value) ? value.map((part) => String(part)).join('::') : value)

export interface TrendTableOptions {
  /** The series cell of an element without a `label` (PostHog: `Series #n`). */
  readonly unlabelled: (index: number) => string
  /** A `total` column: the sum of the row's dated values. */
  readonly total: boolean
}

const TRENDS: TrendTableOptions = { unlabelled: (i) => `Series #${i + 1}`, total: true }

const customName = (item: Item): unknown => (isItem(item.action) && item.action.custom_name ? item.action.custom_name : null)
const hasBreakdown = (item: Item) => item.breakdown_value !== undefined && item.breakdown_value !== null
const isTotalValue = (item: Item) => typeof item.aggregated_value === 'number'

/**
 * A trend, stickiness or lifecycle result as PostHog's exporter tabulates it
 * (csv_exporter.py, "TRENDS LIKE"): a record per series, `series` (its label,
 * ` - current`/` - previous` appended when compared), `custom name` and
 * `breakdown` when some series has one, then a column per date label and
 * `total`, their sum; a total-value display (one number per series) has
 * `total count` instead. Compared series share the current period's date
 * labels, the previous period's values in the same positions. Columns are
 * the union over all series, where PostHog's takes the first series' keys.
 */
export function trendTable(result: ReadonlyArray<unknown>, options: TrendTableOptions = TRENDS): CsvTable {
  const items = result.filter(isItem)
  const compared = items.some((item) => typeof item.compare_label === 'string' && item.compare_label !== '')
  const dated = items.filter((item) => !isTotalValue(item) && Array.isArray(item.data))
  const reference = (compared ? items.find((item) => item.compare_label === 'current') : undefined) ?? dated[0]
  const dates = dated.length > 0 && reference !== undefined && Array.isArray(reference.labels) ? reference.labels.map(String) : []
  const named = items.some((item) => customName(item) !== null)
  const brokenDown = items.some(hasBreakdown)
  const totalCount = items.some(isTotalValue)
  const header = [
    'series',
    ...(named ? ['custom name'] : []),
    ...(brokenDown ? ['breakdown'] : []),
    ...dates,
    ...(dated.length > 0 && options.total ? ['total'] : []),
    ...(totalCount ? ['total count'] : []),
  ]
  return {
    header,
    *rows() {
      for (const [index, item] of items.entries()) {
        const label = typeof item.label === 'string' ? item.label : options.unlabelled(index)
        const compareLabel = typeof item.compare_label === 'string' ? item.compare_label : ''
        const row: unknown[] = [compareLabel === '' ? label : `${label} - ${compareLabel}`]
        if (named) row.push(customName(item))
        if (brokenDown) row.push(hasBreakdown(item) ? breakdownCell(item.breakdown_value) : null)
        const data = !isTotalValue(item) && Array.isArray(item.data) ? (item.data as unknown[]) : null
        if (dates.length > 0) for (let i = 0; i < dates.length; i++) row.push(data?.[i] ?? null)
        if (dated.length > 0 && options.total) row.push(data === null ? null : data.reduce<number>((sum, v) => sum + Number(v ?? 0), 0))
        if (totalCount) row.push(isTotalValue(item) ? item.aggregated_value : null)
        yield row
      }
    },
  }
}
