import { disposeCharts } from './charts/draw-chart.js'
import { el } from './dom.js'
import type { RenderOptions, ViewContext } from './view-context.js'
import { viewKindOf, type ViewKind } from './view-kind.js'
import { funnelSteps } from './views/funnel-steps.js'
import { pathsFlow } from './views/paths-flow.js'
import { retentionTable } from './views/retention-table.js'
import { timeToConvert } from './views/time-to-convert.js'
import { trendChart } from './views/trend-chart.js'
import { trendBarValue, trendNumber, trendPie, trendTableView } from './views/trend-totals.js'
import { trendWorldMap } from './views/world-map.js'
import type { InsightAnswer } from './wire.js'

type View = (element: HTMLElement, result: unknown, ctx: ViewContext) => void

const VIEWS: Readonly<Record<ViewKind, View>> = {
  'trends-line': (e, r, c) => trendChart(e, r, c, { type: 'line' }, 'Line chart'),
  'trends-cumulative': (e, r, c) => trendChart(e, r, c, { type: 'line', cumulative: true }, 'Cumulative line chart'),
  'trends-bar': (e, r, c) => trendChart(e, r, c, { type: 'bar' }, 'Bar chart'),
  'trends-bar-value': trendBarValue,
  'trends-table': trendTableView,
  'trends-pie': trendPie,
  'trends-number': trendNumber,
  'trends-world-map': trendWorldMap,
  stickiness: (e, r, c) => trendChart(e, r, c, { type: 'bar' }, 'Stickiness'),
  lifecycle: (e, r, c) => trendChart(e, r, c, { type: 'bar', stacked: true }, 'Lifecycle'),
  'funnel-steps': funnelSteps,
  'funnel-trends': (e, r, c) => trendChart(e, r, c, { type: 'line', unnamed: 'Conversion rate (%)' }, 'Conversion rate over time'),
  'funnel-time-to-convert': timeToConvert,
  retention: retentionTable,
  paths: pathsFlow,
}

/**
 * Draws an analysis answer (`{result, ...}` as the server sends it, or a
 * saved insight with its `filters`) into `element`, replacing what was
 * there. Which drawing is taken from the filters (`insight`, `display`,
 * `funnel_viz_type`), else from the shape of `result`. Returns the view it drew.
 *
 * ```ts
 * const answer = await (await fetch('/api/projects/1/insights/trend/', { method: 'POST', headers, body })).json()
 * renderInsight(document.querySelector('#chart'), answer, { filters: { insight: 'TRENDS', display: 'ActionsBar' } })
 * ```
 */
export function renderInsight(element: HTMLElement, answer: InsightAnswer, options: RenderOptions = {}): ViewKind {
  const filters = options.filters ?? answer.filters ?? {}
  const kind = viewKindOf(answer.result, filters)
  const ctx: ViewContext = {
    filters,
    projectId: options.projectId,
    onSelect: options.onSelect,
    height: options.height ?? 320,
    width: options.width ?? (element.clientWidth > 0 ? element.clientWidth : 640),
    followWidth: options.width === undefined,
  }
  disposeCharts(element)
  element.replaceChildren()
  const box = el(element.ownerDocument, 'div', { class: `sightline-view sightline-view-${kind}`, 'data-view': kind })
  element.append(box)
  if (isEmpty(answer.result)) box.append(el(element.ownerDocument, 'p', { class: 'sightline-empty', text: 'No data for this range and these filters.' }))
  else VIEWS[kind](box, answer.result, ctx)
  return kind
}

function isEmpty(result: unknown): boolean {
  if (result === null || result === undefined) return true
  if (Array.isArray(result)) return result.length === 0
  if (typeof result === 'object' && 'bins' in result) return ((result as { bins: unknown[] }).bins ?? []).length === 0
  return false
}
