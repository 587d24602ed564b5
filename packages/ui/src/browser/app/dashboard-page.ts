import { el } from '../dom.js'
import { renderInsight } from '../render-insight.js'
import type { InsightAnswer } from '../wire.js'
import { loading } from './load-state.js'
import type { PageContext } from './mount-app.js'
import { showPersons } from './persons-dialog.js'
import { freshness } from './query-runner.js'
import { hrefOf } from './route.js'
import { chartHeightOf, inReadingOrder, placeTile, tileColor, tilePlace, type TileLook } from './tile-layout.js'

/** A tile: an insight, or PostHog's text card (`text.body`, Markdown, shown as plain text). */
interface Tile extends TileLook {
  readonly id: number
  readonly insight?: (InsightAnswer & { id: number }) | null
  readonly text?: { readonly body?: string | null } | null
  readonly deleted?: boolean
}

interface Dashboard {
  readonly name?: string
  readonly tiles?: ReadonlyArray<Tile>
}

/**
 * A dashboard: each tile at its saved place (`layouts.sm` on PostHog's 12
 * columns; the tiles flow in a grid when none has one), ribbon-coloured by
 * its `color`; an insight tile drawn, computed for the dashboard
 * (`from_dashboard`), with a link to open it; a text tile as its text.
 */
export async function dashboardPage(main: HTMLElement, ctx: PageContext, projectId: number, dashboardId: number): Promise<void> {
  const doc = main.ownerDocument
  const title = el(doc, 'h2', { tabindex: -1, text: `Dashboard ${dashboardId}` })
  main.append(el(doc, 'p', {}, el(doc, 'a', { href: hrefOf.project(projectId), text: '← Insights and dashboards' })), title)
  const board = await loading(main, 'the dashboard', ctx.api.get<Dashboard>(`api/projects/${projectId}/dashboards/${dashboardId}/`, ctx.signal), ctx.signal)
  if (!board) return
  title.textContent = board.name || title.textContent
  const tiles = inReadingOrder((board.tiles ?? []).filter((t) => !t.deleted))
  if (tiles.length === 0) main.append(el(doc, 'p', { text: 'This dashboard has no tiles yet.' }))
  const placed = tiles.some((t) => tilePlace(t) !== null)
  const grid = el(doc, 'div', { class: placed ? 'sightline-tiles sightline-tiles-placed' : 'sightline-tiles' })
  main.append(grid)
  await Promise.all(tiles.map((tile) => drawTile(grid, ctx, projectId, dashboardId, tile, placed)))
}

async function drawTile(grid: HTMLElement, ctx: PageContext, projectId: number, dashboardId: number, tile: Tile, placed: boolean): Promise<void> {
  const doc = grid.ownerDocument
  const section = el(doc, 'section', { class: 'sightline-tile', 'data-tile': tile.id })
  grid.append(section)
  const place = tilePlace(tile)
  if (placed) placeTile(section, place)
  const color = tileColor(tile)
  if (color !== null) {
    section.classList.add('sightline-tile-colored')
    section.style.setProperty('--tile-color', color)
  }
  if (!tile.insight) {
    // Text only (textContent): a text card's Markdown is the user's words, never markup for this page.
    section.classList.add('sightline-text-tile')
    section.append(el(doc, 'div', { class: 'sightline-text', text: tile.text?.body ?? '' }))
    return
  }
  const name = tile.insight.name || tile.insight.derived_name || `Insight ${tile.insight.id}`
  section.append(el(doc, 'h3', {}, el(doc, 'a', { href: hrefOf.insight(projectId, tile.insight.id), text: name })))
  const answer = tile.insight.result
    ? tile.insight
    : await loading(section, name, ctx.api.get<InsightAnswer>(`api/projects/${projectId}/insights/${tile.insight.id}/?from_dashboard=${dashboardId}`, ctx.signal), ctx.signal)
  if (!answer) return
  const chart = el(doc, 'div')
  section.append(chart, el(doc, 'p', { class: 'sightline-status', text: freshness(answer) }))
  renderInsight(chart, answer, { projectId, height: chartHeightOf(placed ? place : null), onSelect: (selection) => showPersons(doc, ctx.api, selection) })
}
