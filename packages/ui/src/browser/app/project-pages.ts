import { el } from '../dom.js'
import { loading } from './load-state.js'
import type { PageContext } from './mount-app.js'
import { hrefOf } from './route.js'

interface List<T> {
  readonly results: ReadonlyArray<T>
}
interface Named {
  readonly id: number
  readonly name?: string | null
  readonly derived_name?: string | null
  readonly filters?: { readonly insight?: string }
}

/** The projects the key's user can read; one link each. */
export async function projectList(main: HTMLElement, ctx: PageContext): Promise<void> {
  const doc = main.ownerDocument
  main.append(el(doc, 'h2', { tabindex: -1, text: 'Projects' }))
  const list = await loading(main, 'the projects', ctx.api.get<List<Named>>('api/projects/?limit=1000', ctx.signal), ctx.signal)
  if (!list) return
  if (list.results.length === 0) main.append(el(doc, 'p', { text: 'This key can read no project.' }))
  main.append(el(doc, 'ul', { class: 'sightline-list', 'aria-label': 'Projects' }, ...list.results.map((p) => el(doc, 'li', {}, el(doc, 'a', { href: hrefOf.project(p.id), text: p.name ?? `Project ${p.id}` })))))
}

/** A project's saved insights and dashboards. */
export async function projectHome(main: HTMLElement, ctx: PageContext, projectId: number): Promise<void> {
  const doc = main.ownerDocument
  main.append(el(doc, 'p', {}, el(doc, 'a', { href: hrefOf.projects(), text: '← All projects' })), el(doc, 'h2', { tabindex: -1, text: `Project ${projectId}` }))
  const dashboards = el(doc, 'section', { 'aria-labelledby': 'sightline-dashboards' }, el(doc, 'h3', { id: 'sightline-dashboards', text: 'Dashboards' }))
  const insights = el(doc, 'section', { 'aria-labelledby': 'sightline-insights' }, el(doc, 'h3', { id: 'sightline-insights', text: 'Saved insights' }))
  main.append(dashboards, insights)
  const [boards, saved] = await Promise.all([
    loading(dashboards, 'the dashboards', ctx.api.get<List<Named>>(`api/projects/${projectId}/dashboards/?limit=1000`, ctx.signal), ctx.signal),
    loading(insights, 'the insights', ctx.api.get<List<Named>>(`api/projects/${projectId}/insights/?saved=true&limit=1000`, ctx.signal), ctx.signal),
  ])
  if (boards) dashboards.append(linkList(doc, 'Dashboards', boards.results, (d) => hrefOf.dashboard(projectId, d.id), (d) => d.name || `Dashboard ${d.id}`))
  if (saved) insights.append(linkList(doc, 'Saved insights', saved.results, (i) => hrefOf.insight(projectId, i.id), (i) => `${i.name || i.derived_name || `Insight ${i.id}`}${i.filters?.insight ? ` (${i.filters.insight.toLowerCase()})` : ''}`))
}

function linkList(doc: Document, label: string, items: ReadonlyArray<Named>, href: (item: Named) => string, text: (item: Named) => string): HTMLElement {
  if (items.length === 0) return el(doc, 'p', { text: `No ${label.toLowerCase()} yet.` })
  return el(doc, 'ul', { class: 'sightline-list', 'aria-label': label }, ...items.map((item) => el(doc, 'li', {}, el(doc, 'a', { href: href(item), text: text(item) }))))
}
