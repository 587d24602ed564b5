import { isoInZone } from '../dates/bucket-labels.js'
import { OTHER_MARKER } from '../breakdowns/breakdown-markers.js'
import type { RetentionRequest } from './retention-request.js'
import { retentionPeopleUrl } from './retention-url.js'
import type { RetentionWindow } from './retention-window.js'

/** One cell of a row: the actors of the cohort active `label` periods later. */
export interface RetentionValue {
  count: number
  /** `"Day 3"`: the period offset k. */
  label: string
  people_url: string
}

/** One cohort row, as PostHog's retention answers it. */
export interface RetentionRow {
  /** One per k = 0 .. total_intervals - 1, zero-padded past the window. */
  values: RetentionValue[]
  /** `"Day 0"`, `"Week 3"`: the row index. */
  label: string
  /** The cohort period's start, an ISO date-time in the project's zone (`2020-06-10T00:00:00-07:00`, `Z` for UTC). */
  date: string
  people_url: string
  /** Present with a breakdown: the value (PostHog's Other marker for the merged rest). */
  breakdown_value?: string
}

export type CountRow = { readonly v: string; readonly i: number; readonly k: number; readonly n: number }

/** Python's default string order (by code point), which PostHog ranks ties by. */
export const byCodePoint = (a: string, b: string): number => {
  const x = [...a].map((c) => c.codePointAt(0)!)
  const y = [...b].map((c) => c.codePointAt(0)!)
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!
  return x.length - y.length
}

/**
 * The breakdown values a result shows, in order (reference §13.6): ranked by
 * total cohort size (the sum of values[0] over rows) descending, then by
 * value; the first `limit` kept, the rest merged into Other (returned
 * separately). Empty without rows. With `cumulative`, a count row's k is
 * its actors' furthest return (retentionCountsSql), and every one of them
 * is also in values[0]: each row counts towards its value's total, not
 * only the k = 0 rows (an actor who returned has none).
 */
export function rankValues(counts: ReadonlyArray<CountRow>, limit: number, cumulative: boolean): { kept: string[]; other: Set<string> } {
  const totals = new Map<string, number>()
  for (const c of counts) totals.set(c.v, (totals.get(c.v) ?? 0) + (cumulative || c.k === 0 ? c.n : 0))
  const ranked = [...totals].sort((a, b) => b[1] - a[1] || byCodePoint(a[0], b[0])).map(([v]) => v)
  return { kept: ranked.slice(0, limit), other: new Set(ranked.slice(limit)) }
}

const title = (period: string) => period[0]!.toUpperCase() + period.slice(1)

/**
 * The result rows: one per period of the window, or with a breakdown one
 * block of such rows per shown value (Other last, its counts the sums of
 * its values'). With `cumulative`, each actor's furthest return counts at
 * every k up to it. `k` beyond the window stays 0.
 */
export function retentionRows(counts: ReadonlyArray<CountRow>, request: RetentionRequest, window: RetentionWindow, projectId: number): RetentionRow[] {
  const n = window.starts.length
  const name = title(window.period)
  const grid = () => Array.from({ length: n }, () => new Array<number>(window.lookahead).fill(0))
  const block = (value: string | undefined, cells: number[][]): RetentionRow[] =>
    cells.map((row, i) => {
      const cell = { selectedInterval: i, ...(value === undefined ? {} : { breakdownValue: value }) }
      return {
        values: row.map((count, k) => ({ count, label: `${name} ${k}`, people_url: retentionPeopleUrl(projectId, request.params, { ...cell, returnInterval: k }) })),
        label: `${name} ${i}`,
        date: isoInZone(window.timeZone, window.starts[i]! * 1000),
        people_url: retentionPeopleUrl(projectId, request.params, cell),
        ...(value === undefined ? {} : { breakdown_value: value }),
      }
    })
  const add = (cells: number[][], c: CountRow) => {
    if (c.i < 0 || c.i >= n || c.k < 0 || c.k >= window.lookahead) return
    if (!request.cumulative) cells[c.i]![c.k]! += c.n
    else for (let k = 0; k <= c.k; k++) cells[c.i]![k]! += c.n
  }
  if (!request.breakdown) {
    const cells = grid()
    for (const c of counts) add(cells, c)
    return block(undefined, cells)
  }
  const { kept, other } = rankValues(counts, request.breakdownLimit, request.cumulative)
  const byValue = new Map<string, number[][]>(kept.map((v) => [v, grid()]))
  if (other.size > 0) byValue.set(OTHER_MARKER, grid())
  for (const c of counts) add(byValue.get(other.has(c.v) ? OTHER_MARKER : c.v)!, c)
  return [...byValue].flatMap(([value, cells]) => block(value, cells))
}
