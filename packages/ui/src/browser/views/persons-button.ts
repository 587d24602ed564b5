import { el } from '../dom.js'
import type { ViewContext } from '../view-context.js'

/**
 * A value that lists its persons when chosen: a button when the view has an
 * `onSelect` and the server gave a URL (so the keyboard reaches every point
 * a mouse can click on the chart), plain text otherwise.
 */
export function personsButton(doc: Document, text: string, ctx: ViewContext, url: string | null | undefined, title: string): HTMLElement {
  if (!ctx.onSelect || !url) return el(doc, 'span', { text })
  const onSelect = ctx.onSelect
  return el(doc, 'button', { type: 'button', class: 'sightline-persons', 'aria-label': `${text}: list the persons of ${title}`, text, onclick: () => onSelect({ title, url }) })
}
