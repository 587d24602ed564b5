/**
 * A formula over one period's series (reference §8): bucket by bucket, or
 * over `aggregated_value`; with a breakdown, rows are matched by value and a
 * value missing from a series counts as zeros.
 */
import { parseFormula } from './trend-formula.js'
import type { TrendQuery } from './trend-query.js'
import type { Computed, Shape } from './trend-series.js'

export function applyFormula(text: string, perSeries: ReadonlyArray<ReadonlyArray<Computed>>, query: TrendQuery, shape: Shape): Computed[] {
  const formula = parseFormula(text, perSeries.length)
  const evaluate = (rows: ReadonlyArray<Computed | undefined>, template: Computed): Computed => {
    if (shape.totalValue) {
      const aggregated = formula(rows.map((r) => r?.aggregated ?? 0))
      return { ...template, data: [], aggregated, total: aggregated }
    }
    const width = template.data.length
    const data = Array.from({ length: width }, (_, i) => formula(rows.map((r) => r?.data[i] ?? 0)))
    return { ...template, data, aggregated: 0, total: data.reduce((a, b) => a + b, 0) }
  }
  if (query.breakdowns.length === 0) return [evaluate(perSeries.map((rows) => rows[0]), perSeries[0]![0]!)]

  // Values in series A's order, then values the other series add, in theirs.
  const keys: string[] = []
  const templates = new Map<string, Computed>()
  for (const rows of perSeries) {
    for (const r of rows) {
      if (!templates.has(r.group!.key)) {
        keys.push(r.group!.key)
        templates.set(r.group!.key, r)
      }
    }
  }
  const inA = new Set(perSeries[0]!.map((r) => r.group!.key))
  const results = keys.map((key) => {
    const row = evaluate(perSeries.map((rows) => rows.find((r) => r.group!.key === key)), templates.get(key)!)
    // PostHog's quirk (§8): a value series A lacks sorts with total 0.
    return { row, order: inA.has(key) ? row.total : 0 }
  })
  // Array.prototype.sort is stable: equal keys keep the order above.
  return results.sort((a, b) => a.row.group!.bucket - b.row.group!.bucket || b.order - a.order).map((r) => r.row)
}
