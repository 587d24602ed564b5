import { el } from '../dom.js'
import { renderInsight } from '../render-insight.js'
import type { InsightAnswer, InsightFilters } from '../wire.js'
import { insightControls } from './insight-controls.js'
import type { PageContext } from './mount-app.js'
import { showPersons } from './persons-dialog.js'
import { queryRunner } from './query-runner.js'
import { hrefOf } from './route.js'

/** The analysis endpoint that computes filters of this kind. */
export function endpointOf(filters: InsightFilters): string {
  const kind = String(filters.insight ?? 'TRENDS').toUpperCase()
  return kind === 'FUNNELS' ? 'funnel' : kind === 'RETENTION' ? 'retention' : kind === 'PATHS' ? 'path' : 'trend'
}

/**
 * A saved insight: its result drawn, its settings to change (each change
 * runs the analysis with the new settings, unsaved), Refresh (a recompute
 * past the cache) and Cancel while a query runs.
 */
export async function insightPage(main: HTMLElement, ctx: PageContext, projectId: number, insightId: number): Promise<void> {
  const doc = main.ownerDocument
  const title = el(doc, 'h2', { tabindex: -1, text: `Insight ${insightId}` })
  main.append(el(doc, 'p', {}, el(doc, 'a', { href: hrefOf.project(projectId), text: '← Insights and dashboards' })), title)
  const runner = queryRunner(doc, ctx.api, projectId, ctx.signal)
  const chart = el(doc, 'div', { class: 'sightline-insight', 'aria-live': 'off' })
  const base = `api/projects/${projectId}/insights`

  const getSaved = (refresh: boolean) =>
    runner.run((signal, id) => ctx.api.get<InsightAnswer>(`${base}/${insightId}/?client_query_id=${encodeURIComponent(id)}${refresh ? '&refresh=true' : ''}`, signal))
  let saved: InsightFilters | null = null
  let filters: InsightFilters = {}
  const draw = (answer: InsightAnswer) => renderInsight(chart, answer, { filters, projectId, onSelect: (selection) => showPersons(doc, ctx.api, selection) })
  const runChanged = () =>
    runner.run((signal, id) => ctx.api.post<InsightAnswer>(`${base}/${endpointOf(filters)}/`, { ...stripUndefined(filters), client_query_id: id }, signal))
  const show = async (work: Promise<InsightAnswer | null>) => {
    const answer = await work
    if (answer) draw(answer)
  }
  // The first answer brings the insight's name and filters with its result: one request, cancellable like the
  // rest; Refresh before it arrived (after a cancel or an error) asks for it again.
  const load = async (refresh: boolean) => {
    const first = await getSaved(refresh)
    if (!first) return
    title.textContent = first.name || first.derived_name || `Insight ${insightId}`
    saved = first.filters ?? {}
    filters = saved
    main.insertBefore(insightControls(doc, saved, (next) => {
      filters = next
      void show(runChanged())
    }), status)
    draw(first)
  }
  const refresh = el(doc, 'button', { type: 'button', class: 'secondary', text: 'Refresh', onclick: () => void (saved === null ? load(false) : show(filters === saved ? getSaved(true) : runChanged())) })
  const status = el(doc, 'div', { class: 'sightline-controls' }, refresh, runner.element)
  main.append(status, chart)
  await load(false)
}

function stripUndefined(filters: InsightFilters): Record<string, unknown> {
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined && v !== null))
}
