import type { InsightFilters } from './wire.js'

/** Every drawing the package knows; one view module draws each (see `render-insight.ts`). */
export type ViewKind =
  | 'trends-line'
  | 'trends-cumulative'
  | 'trends-bar'
  | 'trends-bar-value'
  | 'trends-table'
  | 'trends-pie'
  | 'trends-number'
  | 'trends-world-map'
  | 'stickiness'
  | 'lifecycle'
  | 'funnel-steps'
  | 'funnel-trends'
  | 'funnel-time-to-convert'
  | 'retention'
  | 'paths'

const DISPLAYS: Readonly<Record<string, ViewKind>> = {
  ActionsLineGraph: 'trends-line',
  ActionsLineGraphCumulative: 'trends-cumulative',
  ActionsBar: 'trends-bar',
  ActionsStackedBar: 'trends-bar',
  ActionsAreaGraph: 'trends-line',
  ActionsBarValue: 'trends-bar-value',
  ActionsTable: 'trends-table',
  ActionsPie: 'trends-pie',
  BoldNumber: 'trends-number',
  WorldMap: 'trends-world-map',
}

/**
 * The view for an answer: from the filters when they are known (a saved
 * insight, or what the host passes), else from the shape of `result`, so
 * `renderInsight(element, await response.json())` draws a bare analysis answer.
 */
export function viewKindOf(result: unknown, filters: InsightFilters = {}): ViewKind {
  const insight = String(filters.insight ?? '').toUpperCase()
  if (insight === 'FUNNELS') {
    if (filters.funnel_viz_type === 'trends') return 'funnel-trends'
    if (filters.funnel_viz_type === 'time_to_convert') return 'funnel-time-to-convert'
    return 'funnel-steps'
  }
  if (insight === 'RETENTION') return 'retention'
  if (insight === 'PATHS') return 'paths'
  if (insight === 'STICKINESS' || filters.shown_as === 'Stickiness') return 'stickiness'
  if (insight === 'LIFECYCLE' || filters.shown_as === 'Lifecycle') return 'lifecycle'
  if (insight === 'TRENDS' || filters.display !== undefined) return DISPLAYS[String(filters.display)] ?? 'trends-line'
  return kindFromShape(result)
}

function kindFromShape(result: unknown): ViewKind {
  if (result !== null && typeof result === 'object' && !Array.isArray(result) && 'bins' in result) return 'funnel-time-to-convert'
  if (!Array.isArray(result) || result.length === 0) return 'trends-line'
  const first: unknown = Array.isArray(result[0]) ? result[0][0] : result[0]
  if (first === null || typeof first !== 'object') return 'trends-line'
  if ('source' in first && 'target' in first) return 'paths'
  if ('values' in first && Array.isArray((first as { values: unknown }).values)) return 'retention'
  if ('converted_people_url' in first || ('order' in first && 'count' in first && !('data' in first))) return 'funnel-steps'
  if ('status' in first && 'data' in first) return 'lifecycle'
  if ('aggregated_value' in first) return 'trends-bar-value'
  if ('data' in first && !('label' in first) && !('action' in first)) return 'funnel-trends'
  return 'trends-line'
}
