import { el } from '../dom.js'
import { renderInsight } from '../render-insight.js'
import type { InsightAnswer } from '../wire.js'
import { loading } from './load-state.js'
import type { PageContext } from './mount-app.js'
import { showPersons } from './persons-dialog.js'
import { freshness } from './query-runner.js'
import { hrefOf } from './route.js'

interface Dashboard {
  readonly name?: string
  readonly tiles?: ReadonlyArray<{ readonly id: number; readonly insight?: (InsightAnswer & { id: number }) | null; readonly text?: { readonly body?: string } | null; readonly deleted?: boolean }>
}

/** A dashboard: each tile's insight drawn, computed for the dashboard (`from_dashboard`), each with a link to open it. */
export async function dashboardPage(main: HTMLElement, ctx: PageContext, projectId: number, dashboardId: number): Promise<void> {
  const doc = main.ownerDocument
  const title = el(doc, 'h2', { tabindex: -1, text: `Dashboard ${dashboardId}` })
  main.append(el(doc, 'p', {}, el(doc, 'a', { href: hrefOf.project(projectId), text: '← Insights and dashboards' })), title)
  const board = await loading(main, 'the dashboard', ctx.api.get<Dashboard>(`api/projects/${projectId}/dashboards/${dashboardId}/`, ctx.signal), ctx.signal)
  if (!board) return
  title.textContent = board.name || title.textContent
  const tiles = (board.tiles ?? []).filter((t) => !t.deleted)
  if (tiles.length === 0) main.append(el(doc, 'p', { text: 'This dashboard has no tiles yet.' }))
  const grid = el(doc, 'div', { class: 'sightline-tiles' })
  main.append(grid)
  await Promise.all(
    tiles.map(async (tile) => {
      const section = el(doc, 'section', { class: 'sightline-tile' })
      grid.append(section)
      if (!tile.insight) return section.append(el(doc, 'p', { text: tile.text?.body ?? '' }))
      const name = tile.insight.name || tile.insight.derived_name || `Insight ${tile.insight.id}`
      section.append(el(doc, 'h3', {}, el(doc, 'a', { href: hrefOf.insight(projectId, tile.insight.id), text: name })))
      const answer = tile.insight.result
        ? tile.insight
        : await loading(section, name, ctx.api.get<InsightAnswer>(`api/projects/${projectId}/insights/${tile.insight.id}/?from_dashboard=${dashboardId}`, ctx.signal), ctx.signal)
      if (!answer) return
      const chart = el(doc, 'div')
      section.append(chart, el(doc, 'p', { class: 'sightline-status', text: freshness(answer) }))
      renderInsight(chart, answer, { projectId, height: 240, onSelect: (selection) => showPersons(doc, ctx.api, selection) })
    }),
  )
}
