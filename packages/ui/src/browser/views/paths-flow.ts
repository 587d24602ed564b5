import { drawChart, PALETTE } from '../charts/draw-chart.js'
import { el } from '../dom.js'
import { formatDuration, formatNumber } from '../format.js'
import type { ViewContext } from '../view-context.js'
import type { PathEdge } from '../wire.js'
import { personsButton } from './persons-button.js'

/**
 * Paths as a flow (Sankey): a node per `<step>_<name>` of the answer, the
 * width of each link its sessions. Clicking a node lists the persons whose
 * path reached it, a link those who took it (`persons/path/` with
 * `path_end_key`, or `path_start_key` and `path_end_key`), when the project
 * and filters are known. Below, the edges as a table.
 */
export function pathsFlow(element: HTMLElement, result: unknown, ctx: ViewContext): void {
  const edges = (Array.isArray(result) ? result : []) as PathEdge[]
  const names = [...new Set(edges.flatMap((e) => [e.source, e.target]))]
  const label = (node: string) => node.replace(/^\d+_/, '')
  drawChart(
    element,
    `Paths: ${names.length} steps joined by ${edges.length} links`,
    {
      tooltip: { trigger: 'item' },
      series: [
        {
          type: 'sankey',
          left: 8,
          right: 96,
          top: 8,
          bottom: 8,
          nodeGap: 10,
          emphasis: { focus: 'adjacency' },
          label: { formatter: (p: { name: string }) => truncate(short(label(p.name))) },
          data: names.map((name, i) => ({ name, itemStyle: { color: PALETTE[i % PALETTE.length] } })),
          links: edges.map((e) => ({ source: e.source, target: e.target, value: e.value })),
          lineStyle: { color: 'gradient', opacity: 0.4 },
        },
      ],
    },
    ctx,
    ctx.onSelect
      ? (click) => {
          const data = click.data as { name?: string; source?: string; target?: string } | undefined
          if (click.dataType === 'edge' && data?.source && data.target) {
            const url = pathPersonsUrl(ctx, { path_start_key: data.source, path_end_key: data.target })
            if (url) ctx.onSelect?.({ title: `${label(data.source)} → ${label(data.target)}`, url })
          } else if (data?.name) {
            const url = pathPersonsUrl(ctx, { path_end_key: data.name })
            if (url) ctx.onSelect?.({ title: `Reached ${label(data.name)} (step ${data.name.split('_')[0]})`, url })
          }
        }
      : undefined,
  )
  const doc = element.ownerDocument
  const rows = edges.map((e) =>
    el(
      doc,
      'tr',
      {},
      el(doc, 'td', { text: `${label(e.source)} (step ${e.source.split('_')[0]})` }),
      el(doc, 'td', { text: label(e.target) }),
      el(doc, 'td', {}, personsButton(doc, formatNumber(e.value), ctx, pathPersonsUrl(ctx, { path_start_key: e.source, path_end_key: e.target }), `${label(e.source)} → ${label(e.target)}`)),
      el(doc, 'td', { text: formatDuration(e.average_conversion_time === null || e.average_conversion_time === undefined ? null : e.average_conversion_time / 1000) }),
    ),
  )
  const head = el(doc, 'tr', {}, ...['From', 'To', 'Sessions', 'Average time'].map((h) => el(doc, 'th', { scope: 'col', text: h })))
  const table = el(doc, 'table', { class: 'sightline-table' }, el(doc, 'thead', {}, head), el(doc, 'tbody', {}, ...rows))
  element.append(el(doc, 'details', { class: 'sightline-data' }, el(doc, 'summary', { text: 'Show the links as a table' }), el(doc, 'div', { class: 'sightline-table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Path links' }, table)))
}

const truncate = (s: string) => (s.length > 28 ? `${s.slice(0, 27)}…` : s)

/** A page URL by its path (`https://acme.test/pricing` -> `/pricing`), the part that tells the nodes apart; the tooltip and table keep it whole. */
function short(node: string): string {
  if (!/^https?:\/\//.test(node)) return node
  try {
    return new URL(node).pathname
  } catch {
    return node
  }
}

/** The persons of a node or link: the paths request's own filters as a GET query, plus the key. */
function pathPersonsUrl(ctx: ViewContext, keys: Readonly<Record<string, string>>): string | null {
  if (ctx.projectId === undefined) return null
  const query = new URLSearchParams()
  for (const [k, v] of Object.entries(ctx.filters)) {
    if (v === undefined || v === null || k === 'insight') continue
    query.set(k, typeof v === 'string' ? v : JSON.stringify(v))
  }
  for (const [k, v] of Object.entries(keys)) query.set(k, v)
  return `api/projects/${ctx.projectId}/persons/path/?${query}`
}
