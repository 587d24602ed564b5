import type { AnalysisName } from '@sightline/core'
import { csvTableResponse, type CsvTable } from './csv-stream.js'
import { funnelTable } from './csv-funnels.js'
import { retentionTable } from './csv-retention.js'
import { isItem, trendTable } from './csv-trends.js'

/** An analysis of core's registry: each has a CSV table here (a new one fails to compile until it has). */
export type AnalysisKind = AnalysisName

const TABLES: Record<AnalysisKind, (result: unknown) => CsvTable> = {
  trend: (result) => trendTable(Array.isArray(result) ? result : []),
  funnel: funnelTable,
  retention: retentionTable,
  paths: pathsTable,
  funnelCorrelation: correlationTable,
}

/** The endpoint's name in the file name: `export-trend-2026-01-15-120000.csv`. */
const FILE: Record<AnalysisKind, string> = { trend: 'trend', funnel: 'funnel', retention: 'retention', paths: 'path', funnelCorrelation: 'funnel-correlation' }

/**
 * An analysis answer as the CSV a spreadsheet user exports from PostHog
 * (posthog/tasks/exports/csv_exporter.py): its `result` as a table of the
 * analysis' own columns, named like PostHog's exported assets
 * (`export-<name>-<computed at>.csv`, the time from `last_refresh`).
 */
export function analysisCsvResponse(kind: AnalysisKind, answer: { readonly result: unknown; readonly last_refresh?: unknown }): Response {
  const stamp = typeof answer.last_refresh === 'string' ? /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(answer.last_refresh) : null
  const filename = `export-${FILE[kind]}${stamp ? `-${stamp[1]}-${stamp[2]}${stamp[3]}${stamp[4]}` : ''}.csv`
  return csvTableResponse(TABLES[kind](answer.result), filename)
}

/** Paths: PostHog's exporter writes the edges as they are, `source`, `target`, `value` and `average_conversion_time` (milliseconds). */
function pathsTable(result: unknown): CsvTable {
  const edges = Array.isArray(result) ? result.filter(isItem) : []
  return {
    header: ['source', 'target', 'value', 'average_conversion_time'],
    *rows() {
      for (const e of edges) yield [e.source, e.target, e.value, e.average_conversion_time]
    },
  }
}

/**
 * Correlation (PostHog's exporter has no table for it): a record per row,
 * `event` (the event, `event::property::value` or `property::value`),
 * `correlation type`, `odds ratio`, `success count`, `failure count`, in the
 * result's order.
 */
function correlationTable(result: unknown): CsvTable {
  const rows = isItem(result) && Array.isArray(result.events) ? result.events.filter(isItem) : []
  return {
    header: ['event', 'correlation type', 'odds ratio', 'success count', 'failure count'],
    *rows() {
      for (const r of rows) yield [isItem(r.event) ? r.event.event : r.event, r.correlation_type, r.odds_ratio, r.success_count, r.failure_count]
    },
  }
}
