import { ValidationError } from '../../errors.js'
import type { QueryLimits } from './query-limits.js'

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u)

/** Keys a GET query string carries as JSON text (as the analyses' parameter readers parse them). */
const JSON_TEXT_KEYS = new Set(['events', 'actions', 'exclusions', 'properties', 'breakdowns', 'breakdown', 'funnel_filter'])

const refuse = (path: ReadonlyArray<string | number>, message: string): never => {
  throw new ValidationError([{ path, message }], { context: 'query over its budget' })
}

/**
 * The checks every analysis request passes before any work, whatever the
 * analysis: at most `maxSeries` events and actions together, a
 * `breakdown_limit` of at most `maxBreakdownLimit`, and no list anywhere in
 * the request (a filter's values, a group's filters, a breakdown's cohorts)
 * longer than `maxListItems`. Lists are found by walking the request
 * iteratively, so a deeply nested body costs its size and no stack.
 * ValidationError names the parameter; anything else wrong with the request
 * is left to the analysis' own reader.
 */
export function checkRequestBudget(limits: QueryLimits, params: unknown): void {
  if (!isObject(params)) return
  const read = (key: string): unknown => {
    const v = params[key]
    if (typeof v !== 'string' || !JSON_TEXT_KEYS.has(key) || !/^\s*[[{]/.test(v)) return v
    try {
      return JSON.parse(v) as unknown
    } catch {
      return undefined
    }
  }
  const series = ['events', 'actions'].map((key) => [key, read(key)] as const).filter(([, v]) => Array.isArray(v)) as Array<[string, unknown[]]>
  const seriesCount = series.reduce((n, [, v]) => n + v.length, 0)
  if (seriesCount > limits.maxSeries) {
    const [key] = series.reduce((a, b) => (b[1].length > a[1].length ? b : a))
    refuse([key], `the request has ${seriesCount} series (events and actions); at most ${limits.maxSeries} are allowed (option queries.limits.maxSeries)`)
  }
  const limit = params.breakdown_limit
  const limitNumber = typeof limit === 'string' && /^\s*\d{1,15}\s*$/.test(limit) ? Number(limit) : limit
  if (typeof limitNumber === 'number' && limitNumber > limits.maxBreakdownLimit) {
    refuse(['breakdown_limit'], `breakdown_limit is at most ${limits.maxBreakdownLimit} (option queries.limits.maxBreakdownLimit)`)
  }
  // Each item points at its parent, so a deep request costs no path copies; the path is built only for an error.
  interface Item {
    readonly value: unknown
    readonly key: string | number
    readonly parent: Item | null
  }
  const pathOf = (item: Item): Array<string | number> => {
    const out: Array<string | number> = []
    for (let at: Item | null = item; at; at = at.parent) out.unshift(at.key)
    return out
  }
  const stack: Item[] = Object.keys(params).map((key) => ({ value: read(key), key, parent: null }))
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { value } = item
    if (Array.isArray(value)) {
      if (value.length > limits.maxListItems) {
        refuse(pathOf(item), `this list has ${value.length} items; at most ${limits.maxListItems} are allowed in one list (option queries.limits.maxListItems)`)
      }
      for (let i = 0; i < value.length; i++) stack.push({ value: value[i], key: i, parent: item })
    } else if (isObject(value)) {
      for (const key of Object.keys(value)) stack.push({ value: value[key], key, parent: item })
    }
  }
}

/** The size of an answer, known before it is computed. */
export interface AnswerShape {
  /** Rows of values: series x breakdown values (Other included) x compared periods, or steps x breakdown values. */
  readonly rows: number
  /** Values per row: the buckets of a time series, 1 for a total value. */
  readonly columns: number
  /** Bytes each value carries besides its number: its label and date, and its persons URL when it has one. */
  readonly bytesPerCell: number
  /** The parameter that grows the rows most (`breakdown_limit`, `events`, ...), for the error. */
  readonly rowsAttr: string
  /** The parameter that grows the columns (`interval`, `total_intervals`, ...). */
  readonly columnsAttr: string
}

/**
 * Refuses an answer that would hold more than `maxCells` values or about
 * `maxResponseBytes` of JSON, before any query runs: a ValidationError
 * naming the parameter that grew it most.
 */
export function checkAnswerBudget(limits: QueryLimits, shape: AnswerShape): void {
  const cells = shape.rows * shape.columns
  const attr = shape.columns >= shape.rows ? shape.columnsAttr : shape.rowsAttr
  if (cells > limits.maxCells) {
    refuse([attr], `the answer would hold ${cells} values (${shape.rows} rows of ${shape.columns}); at most ${limits.maxCells} are allowed (option queries.limits.maxCells): narrow the date range, choose a longer interval, or lower breakdown_limit`)
  }
  const bytes = cells * (shape.bytesPerCell + 24)
  if (bytes > limits.maxResponseBytes) {
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`
    refuse([attr], `the answer would be about ${mb(bytes)} (${cells} values of about ${shape.bytesPerCell + 24} bytes each, persons URLs included); at most ${mb(limits.maxResponseBytes)} are allowed (option queries.limits.maxResponseBytes): fewer values or a shorter request`)
  }
}
