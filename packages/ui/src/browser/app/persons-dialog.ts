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

/**
 * The persons behind a chosen point, step, cell or node, in a modal dialog:
 * the server's people URL, first page (up to 100). Escape or the Close
 * button closes it and gives focus back to what opened it.
 */
export function showPersons(doc: Document, api: Api, selection: PersonsSelection): HTMLDialogElement {
  const opener = doc.activeElement as HTMLElement | null
  const heading = el(doc, 'h2', { id: 'sightline-persons-title', text: `Persons: ${selection.title}` })
  const body = el(doc, 'div', {}, el(doc, 'p', { class: 'sightline-status', role: 'status', text: 'Loading the persons…' }))
  const close = el(doc, 'button', { type: 'button', text: 'Close' })
  const dialog = el(doc, 'dialog', { class: 'sightline-persons-dialog', 'aria-labelledby': 'sightline-persons-title' }, heading, body, close)
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
  const url = selection.url.includes('limit=') ? selection.url : `${selection.url}${selection.url.includes('?') ? '&' : '?'}limit=100`
  api
    .get<{ count?: number; results?: ReadonlyArray<Person> }>(url, abort.signal)
    .then((answer) => body.replaceChildren(personsTable(doc, answer.results ?? [], answer.count)))
    .catch((error: unknown) => {
      if (abort.signal.aborted) return
      body.replaceChildren(el(doc, 'p', { class: 'sightline-error', role: 'alert', text: `Could not load the persons: ${error instanceof Error ? error.message : String(error)}` }))
    })
  return dialog
}

function personsTable(doc: Document, persons: ReadonlyArray<Person>, count: number | undefined): HTMLElement {
  if (persons.length === 0) return el(doc, 'p', { text: 'No persons.' })
  const name = (p: Person) => String(p.properties?.email ?? p.properties?.name ?? p.distinct_ids?.[0] ?? p.id ?? '')
  const rows = persons.map((p) => el(doc, 'tr', {}, el(doc, 'th', { scope: 'row', text: name(p) }), el(doc, 'td', { text: (p.distinct_ids ?? []).slice(0, 3).join(', ') }), el(doc, 'td', { text: (p.created_at ?? '').slice(0, 10) })))
  const head = el(doc, 'tr', {}, ...['Person', 'Distinct ids', 'First seen'].map((h) => el(doc, 'th', { scope: 'col', text: h })))
  const shown = count !== undefined && count > persons.length ? `${persons.length} of ${count} persons` : `${persons.length} persons`
  return el(doc, 'div', {}, el(doc, 'p', { class: 'sightline-status', text: shown }), el(doc, 'div', { class: 'sightline-table-scroll' }, el(doc, 'table', { class: 'sightline-table' }, el(doc, 'thead', {}, head), el(doc, 'tbody', {}, ...rows))))
}
