import { el } from '../dom.js'

/** Shows "Loading …" in `box` while `work` runs, then the error in words if it fails; resolves to the result or null. */
export async function loading<T>(box: HTMLElement, what: string, work: Promise<T>, signal: AbortSignal): Promise<T | null> {
  const doc = box.ownerDocument
  const note = el(doc, 'p', { class: 'sightline-status', role: 'status', text: `Loading ${what}…` })
  box.append(note)
  try {
    return await work
  } catch (error) {
    if (signal.aborted) return null
    box.append(el(doc, 'p', { class: 'sightline-error', role: 'alert', text: `Could not load ${what}: ${error instanceof Error ? error.message : String(error)}` }))
    return null
  } finally {
    note.remove()
  }
}
