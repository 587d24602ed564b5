import type { InsightFilters } from './wire.js'

/** What a click on a point, step, cell or node asks for: the persons behind it. */
export interface PersonsSelection {
  /** Words for the list's heading, e.g. `signup on 8-Jan-2026`. */
  readonly title: string
  /** The server's people URL, relative to the site root as the server wrote it (`api/projects/1/persons/trends/?...`). */
  readonly url: string
}

/** Options of `renderInsight`. */
export interface RenderOptions {
  /** The insight's filters; needed to tell stickiness, lifecycle and funnel views apart when the answer alone cannot, and for the persons of a path node. Default: the answer's own `filters`, else guessed from the shape of `result`. */
  readonly filters?: InsightFilters
  /** The project, for the persons of a path node or edge (paths answers carry no people URLs). Default: none, so path nodes are not clickable. */
  readonly projectId?: number
  /** Called when a point, step, cell or node is chosen (click, or Enter on its button in the table). Default: nothing is clickable. */
  readonly onSelect?: (selection: PersonsSelection) => void
  /** Chart height in pixels. Default 320. */
  readonly height?: number
  /** Chart width in pixels. Default the element's width (640 while it has none, not yet in the layout), followed as it changes. */
  readonly width?: number
}

/** What every view receives: the options with their defaults. */
export interface ViewContext {
  readonly filters: InsightFilters
  readonly projectId: number | undefined
  readonly onSelect: ((selection: PersonsSelection) => void) | undefined
  readonly width: number
  readonly height: number
  /** No width was given: the chart takes its element's and follows it when it changes. */
  readonly followWidth: boolean
}
