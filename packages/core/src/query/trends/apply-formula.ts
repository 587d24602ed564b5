import { NULL_MARKER, OTHER_MARKER } from '../breakdowns/breakdown-markers.js'
import { evaluateFormulaSeries } from './formula/formula-eval.js'
import type { FormulaNode } from './formula/formula-parse.js'
import { compareCodePoints, compareNumberLists, naturalCompare, pythonRepr } from './python-order.js'
import type { TrendSeriesObject } from './series-object.js'

export interface FormulaOptions {
  readonly node: FormulaNode
  /** The formula as typed, for the label `Formula (<text>)`. */
  readonly text: string
  readonly breakdown: boolean
  readonly compare: boolean
  readonly totalValue: boolean
}

type BreakdownValue = string | number | ReadonlyArray<string>
const sameValue = (a: BreakdownValue | undefined | null, b: BreakdownValue | undefined | null) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)

/**
 * PostHog's `apply_formula` over the series objects of one period (one list
 * per series, in series order), reference §8:
 *
 * - without breakdown and compare: one row, from the first object of each series;
 * - otherwise rows are matched by breakdown value (by `compare_label` without
 *   a breakdown); a series missing a value contributes zeros;
 * - rows are ordered as PostHog orders them: with compare by `count`
 *   descending; otherwise real values, then null, then Other, each by the
 *   row's total descending (a filler-based row's total reads as 0, PostHog's
 *   quirk), then `count`, `data` and the value's repr, all descending.
 *
 * Time series get `data` per bucket and `count` = its sum; total-value
 * displays get `aggregated_value`, `data: null` and `count: 0`. Rows carry
 * `label: "Formula (<formula>)"` and `action: null`.
 */
export function applyFormula(results: ReadonlyArray<ReadonlyArray<TrendSeriesObject>>, options: FormulaOptions): TrendSeriesObject[] {
  if (results.length === 0) return []
  if (!options.breakdown && !options.compare) {
    const group = results.map((r) => r[0] ?? null)
    const first = group[0]
    return first ? [computeRow(first, group, options)] : []
  }
  const keyOf = (o: TrendSeriesObject): BreakdownValue | null | undefined => (options.breakdown ? o.breakdown_value : o.compare_label)
  const values: BreakdownValue[] = []
  for (const list of results) {
    for (const o of list) {
      const v = keyOf(o)
      if (v !== undefined && v !== null && !values.some((x) => sameValue(x, v))) values.push(v)
    }
  }
  values.sort(naturalCompare)
  const computed: Array<{ row: TrendSeriesObject; filler: boolean }> = []
  for (const value of values) {
    let any: TrendSeriesObject | undefined
    for (const list of results) {
      any = list.find((o) => sameValue(keyOf(o), value))
      if (any) break
    }
    if (!any) continue
    // A series lacking the value contributes zeros. The row takes the shape of the first series
    // object that has the value (PostHog builds it on a bare filler when series A lacks it, which
    // leaves out labels and filter); such a row sorts with total 0, as in PostHog (§8's quirk).
    const group = results.map((list) => list.find((o) => sameValue(keyOf(o), value)) ?? null)
    computed.push({ row: computeRow(any, group, options), filler: group[0] === null })
  }
  if (options.compare) {
    // PostHog's multisort by (compare_label, count desc): within a period, count descending, stable.
    return computed.map((c) => c.row).sort((a, b) => b.count - a.count)
  }
  const bucket = (o: TrendSeriesObject) => (o.breakdown_value === OTHER_MARKER ? -2 : o.breakdown_value === NULL_MARKER ? -1 : 0)
  const total = (c: { row: TrendSeriesObject; filler: boolean }) =>
    options.totalValue ? (c.row.aggregated_value ?? 0) : c.filler ? 0 : (c.row.data ?? []).reduce((x, y) => x + y, 0)
  return computed
    .sort(
      (a, b) =>
        bucket(b.row) - bucket(a.row) ||
        total(b) - total(a) ||
        b.row.count - a.row.count ||
        compareNumberLists(b.row.data, a.row.data) ||
        compareCodePoints(pythonRepr(b.row.breakdown_value ?? ''), pythonRepr(a.row.breakdown_value ?? '')),
    )
    .map((c) => c.row)
}

/**
 * The formula over a group of objects (one per series; null contributes
 * zeros), on a copy of `template` (PostHog's `apply_formula_to_results_group`).
 */
function computeRow(template: TrendSeriesObject, group: ReadonlyArray<TrendSeriesObject | null>, options: FormulaOptions): TrendSeriesObject {
  const base: TrendSeriesObject = { ...template, label: `Formula (${options.text})`, action: null }
  delete base.persons_urls
  delete base.persons
  if (options.totalValue) {
    const data = evaluateFormulaSeries(options.node, group.map((o) => [o?.aggregated_value ?? 0]))
    base.aggregated_value = data.reduce((x, y) => x + y, 0)
    base.data = null
    base.count = 0
  } else {
    const width = (template.data ?? []).length
    const data = evaluateFormulaSeries(options.node, group.map((o) => o?.data ?? new Array<number>(width).fill(0)))
    base.data = data
    base.count = data.reduce((x, y) => x + y, 0)
  }
  return base
}
