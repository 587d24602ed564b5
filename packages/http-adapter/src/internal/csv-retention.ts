import type { CsvTable } from './csv-stream.js'
import { breakdownCell, isItem } from './csv-trends.js'

/**
 * A retention result as PostHog's exporter tabulates it ("RETENTION LIKE"):
 * a record per cohort, `cohort` (the cohort period's start), `cohort size`
 * (its count at period 0), then a column per period label (`Day 0`,
 * `Day 1` ...) with the cohort's actors active that period. With a breakdown
 * (which PostHog's exporter leaves out), a leading `breakdown` column; each
 * value's block of cohorts follows the last.
 */
export function retentionTable(result: unknown): CsvTable {
  const rows = Array.isArray(result) ? result.filter(isItem) : []
  const valuesOf = (row: Readonly<Record<string, unknown>>) => (Array.isArray(row.values) ? row.values.filter(isItem) : [])
  const periods = [...new Set(rows.flatMap((row) => valuesOf(row).map((value) => String(value.label))))]
  const brokenDown = rows.some((row) => row.breakdown_value !== undefined)
  return {
    header: [...(brokenDown ? ['breakdown'] : []), 'cohort', 'cohort size', ...periods],
    *rows() {
      for (const row of rows) {
        const values = valuesOf(row)
        const counts = new Map(values.map((value) => [String(value.label), value.count]))
        yield [...(brokenDown ? [breakdownCell(row.breakdown_value)] : []), row.date ?? row.label, values[0]?.count ?? null, ...periods.map((period) => counts.get(period) ?? null)]
      }
    },
  }
}
