import { el } from '../dom.js'
import type { PersonsSelection } from '../view-context.js'
import type { Api } from './api-client.js'

interface Person {
  readonly id?: string | number
  readonly uuid?: string
  readonly distinct_ids?: ReadonlyArray<string>
  readonly properties?: Readonly<Record<string, unknown>>
  readonly created_at?: string
}

/** A page of persons in PostHog's list envelope (`next` null on the last page). */
interface PersonsPage {
  readonly count?: number
  readonly next?: string | null
  readonly results?: ReadonlyArray<Person>
}

/**
 * The persons behind a chosen point, step, cell or node, in a modal dialog:
 * the server's people URL, a page (100) at a time, with a "Load more
 * persons" button that follows the answer's `next` until there is none.
 * Escape or the Close button closes it and gives focus back to what opened it.
 */
export function showPersons(doc: Document, api: Api, selection: PersonsSelection): HTMLDialogElement {
  const opener = doc.activeElement as HTMLElement | null
  const heading = el(doc, 'h2', { id: 'sightline-persons-title', text: `Persons: ${selection.title}` })
  // One live region for the whole dialog: it says "Loading…", then how many of how many are shown after every page.
  const status = el(doc, 'p', { id: 'sightline-persons-status', class: 'sightline-status', role: 'status', text: 'Loading the persons…' })
  const rows = el(doc, 'tbody')
  const head = el(doc, 'tr', {}, ...['Person', 'Distinct ids', 'First seen'].map((h) => el(doc, 'th', { scope: 'col', text: h })))
  const table = el(doc, 'div', { class: 'sightline-table-scroll', hidden: true }, el(doc, 'table', { class: 'sightline-table', 'aria-labelledby': 'sightline-persons-title' }, el(doc, 'thead', {}, head), rows))
  // aria-disabled rather than disabled while a page loads: a disabled button would drop the keyboard's focus.
  const more = el(doc, 'button', { type: 'button', class: 'secondary sightline-more', hidden: true, 'aria-describedby': 'sightline-persons-status', text: 'Load more persons' })
  const close = el(doc, 'button', { type: 'button', text: 'Close' })
  const dialog = el(doc, 'dialog', { class: 'sightline-persons-dialog', 'aria-labelledby': 'sightline-persons-title' }, heading, status, table, el(doc, 'p', {}, more, ' ', close))
  const abort = new AbortController()
  close.addEventListener('click', () => dialog.close())
  dialog.addEventListener('close', () => {
    abort.abort()
    dialog.remove()
    opener?.focus()
  })
  doc.body.append(dialog)
  if (typeof dialog.showModal === 'function') dialog.showModal()
  else dialog.setAttribute('open', '')
  close.focus()

  let next: string | null = selection.url.includes('limit=') ? selection.url : `${selection.url}${selection.url.includes('?') ? '&' : '?'}limit=100`
  let shown = 0
  let busy = false
  let failure: HTMLElement | null = null
  const load = async () => {
    if (busy || next === null) return
    const url = next
    busy = true
    more.setAttribute('aria-disabled', 'true')
    if (shown > 0) status.textContent = `${shown} persons shown; loading more…`
    try {
      const page = await api.get<PersonsPage>(url, abort.signal)
      const persons = page.results ?? []
      rows.append(...persons.map((p) => personRow(doc, p)))
      shown += persons.length
      // An empty page or a `next` that points back would loop: the list ends there.
      next = page.next && persons.length > 0 ? nextPageOf(url, page.next) : null
      if (next === url) next = null
      failure?.remove()
      failure = null
      table.hidden = shown === 0
      status.textContent = shown === 0 ? 'No persons.' : page.count !== undefined && page.count > shown ? `${shown} of ${page.count} persons` : `${shown} persons`
    } catch (error) {
      if (abort.signal.aborted) return
      failure?.remove()
      failure = el(doc, 'p', { class: 'sightline-error', role: 'alert', text: `Could not load the persons: ${error instanceof Error ? error.message : String(error)}` })
      table.after(failure)
      status.textContent = shown === 0 ? '' : `${shown} persons shown.`
    } finally {
      busy = false
      more.removeAttribute('aria-disabled')
    }
    if (abort.signal.aborted) return
    // After a failure the button stays, to try the same page again.
    more.textContent = failure === null ? 'Load more persons' : shown === 0 ? 'Try again' : 'Try loading more persons again'
    const hide = next === null
    if (hide && doc.activeElement === more) close.focus()
    more.hidden = hide
  }
  more.addEventListener('click', () => void load())
  void load()
  return dialog
}

/**
 * The request for the page `next` names: its query (PostHog's and Sightline's
 * `next` keep every parameter and set `limit` and `offset`) on the path the
 * first page was asked at. `next` is absolute, written from the host the
 * server sees, which behind a proxy (without trustProxy) is not the page's,
 * and the page may only connect to its own origin (its CSP's `connect-src 'self'`).
 */
export function nextPageOf(requested: string, next: string): string {
  return `${requested.split('?')[0]}${new URL(next, 'http://base.invalid/').search}`
}

function personRow(doc: Document, p: Person): HTMLTableRowElement {
  const name = String(p.properties?.email ?? p.properties?.name ?? p.distinct_ids?.[0] ?? p.id ?? '')
  return el(doc, 'tr', {}, el(doc, 'th', { scope: 'row', text: name }), el(doc, 'td', { text: (p.distinct_ids ?? []).slice(0, 3).join(', ') }), el(doc, 'td', { text: (p.created_at ?? '').slice(0, 10) }))
}
