import { renderInsight } from './render-insight.js'
import type { PersonsSelection, RenderOptions } from './view-context.js'
import type { InsightAnswer } from './wire.js'

/** The tag `defineSightlineInsight` registers by default. */
export const INSIGHT_TAG = 'sightline-insight'

/** What `<sightline-insight>` dispatches when a point, step, cell or node is chosen: `event.detail` is the selection. */
export type SightlineSelectEvent = CustomEvent<PersonsSelection>

/**
 * Registers `<sightline-insight>` (or `tag`): set its `answer` property (an
 * analysis answer or a saved insight) and, if wanted, `options`; it draws on
 * every change and dispatches a bubbling `sightline-select` event for a
 * chosen point. Safe to call twice. Defined on demand, not on import, so the
 * module loads where `HTMLElement` does not exist (Node, a server render).
 */
export function defineSightlineInsight(tag: string = INSIGHT_TAG, registry: CustomElementRegistry = customElements): void {
  if (registry.get(tag)) return
  class SightlineInsight extends HTMLElement {
    #answer: InsightAnswer | undefined
    #options: RenderOptions = {}

    get answer(): InsightAnswer | undefined {
      return this.#answer
    }
    set answer(value: InsightAnswer | undefined) {
      this.#answer = value
      this.#draw()
    }
    get options(): RenderOptions {
      return this.#options
    }
    set options(value: RenderOptions) {
      this.#options = value
      this.#draw()
    }
    connectedCallback(): void {
      this.#draw()
    }
    #draw(): void {
      if (!this.#answer || !this.isConnected) return
      renderInsight(this, this.#answer, {
        onSelect: (selection) => this.dispatchEvent(new CustomEvent('sightline-select', { detail: selection, bubbles: true, composed: true })),
        ...this.#options,
      })
    }
  }
  registry.define(tag, SightlineInsight)
}
