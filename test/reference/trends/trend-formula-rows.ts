/**
 * A formula over one period's series (reference §8): bucket by bucket, or
 * over `aggregated_value`; with a breakdown, rows are matched by value and a
 * value missing from a series counts as zeros.
 *
 * Row order follows PostHog's trends_query_runner.py `apply_formula`: rows
 * are built for the values in `natsorted(..., alg=ns.IGNORECASE)` order, then
 * - with compare: `multisort(rows, (("compare_label", False), ("count", True)))`,
 *   count descending, ties kept in the natural order;
 * - otherwise: `sorted(rows, key=(bucket, aggregated_value or sum(data),
 *   count, data, repr(breakdown_value)), reverse=True)`, where bucket is 0
 *   for a real value, -1 for the null value and -2 for Other (compared with
 *   `==` to the markers, so a multi-breakdown list is always 0). A time
 *   series row built on the filler of a value series A lacks keeps the
 *   filler's `aggregated_value: 0` (§8's quirk); a total-value row's
 *   aggregated_value is the formula's.
 */
import { NULL_VALUE, OTHER_VALUE } from './trend-breakdown.js'
import { parseFormula } from './trend-formula.js'
import { comparePython, compareCodePoints, natsortKey, pythonRepr } from './trend-python-order.js'
import type { TrendQuery } from './trend-query.js'
import type { Computed, Shape } from './trend-series.js'

const sum = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0)

export function applyFormula(text: string, perSeries: ReadonlyArray<ReadonlyArray<Computed>>, query: TrendQuery, shape: Shape, compare: boolean): Computed[] {
  const formula = parseFormula(text, perSeries.length)
  const evaluate = (rows: ReadonlyArray<Computed | undefined>, template: Computed): Computed => {
    if (shape.totalValue) {
      const aggregated = formula(rows.map((r) => r?.aggregated ?? 0))
      return { ...template, data: [], aggregated, total: aggregated }
    }
    const width = template.data.length
    const data = Array.from({ length: width }, (_, i) => formula(rows.map((r) => r?.data[i] ?? 0)))
    return { ...template, data, aggregated: 0, total: sum(data) }
  }
  if (query.breakdowns.length === 0) return [evaluate(perSeries.map((rows) => rows[0]), perSeries[0]![0]!)]

  const templates = new Map<string, Computed>()
  for (const rows of perSeries) for (const r of rows) if (!templates.has(r.group!.key)) templates.set(r.group!.key, r)
  const keys = [...templates.keys()].sort((a, b) => comparePython(natsortKey(templates.get(a)!.group!.value), natsortKey(templates.get(b)!.group!.value)))
  const inA = new Set(perSeries[0]!.map((r) => r.group!.key))
  const rows = keys.map((key) => {
    const row = evaluate(perSeries.map((rs) => rs.find((r) => r.group!.key === key)), templates.get(key)!)
    const value = row.group!.value
    const count = shape.totalValue ? 0 : sum(row.data)
    return {
      row,
      count,
      sortKey: [
        value === OTHER_VALUE ? -2 : value === NULL_VALUE ? -1 : 0,
        shape.totalValue || inA.has(key) ? row.total : 0,
        count,
      ],
      data: shape.totalValue ? null : row.data,
      repr: pythonRepr(value),
    }
  })
  // Array.prototype.sort is stable, as Python's sort is (reverse=True keeps ties in order too).
  if (compare) return rows.sort((a, b) => b.count - a.count).map((r) => r.row)
  return rows
    .sort((a, b) => comparePython(b.sortKey, a.sortKey) || comparePython(b.data, a.data) || compareCodePoints(b.repr, a.repr))
    .map((r) => r.row)
}
