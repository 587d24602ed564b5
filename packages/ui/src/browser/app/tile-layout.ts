/** PostHog's dashboard grid at its `sm` breakpoint (react-grid-layout): 12 columns of 80-pixel rows. */
export const GRID_COLUMNS = 12
export const ROW_HEIGHT = 80

/** A tile's place on the grid, in grid units: column `x` (0-11) and row `y` from the top left, `w` columns wide, `h` rows high. */
export interface TilePlace {
  readonly x: number
  readonly y: number
  readonly w: number
  readonly h: number
}

/** What a tile carries of its place and colour (PostHog's DashboardTileSerializer). */
export interface TileLook {
  readonly layouts?: Readonly<Record<string, unknown>> | null
  readonly color?: string | null
}

/**
 * A tile's `layouts.sm` as a place on the 12 columns, or null when it has
 * none usable. Layouts are free-form JSON written by any client: numbers
 * are floored and kept on the grid (a tile wider than what is left of its
 * row is cut to fit) rather than trusted.
 */
export function tilePlace(tile: TileLook): TilePlace | null {
  const sm = tile.layouts?.sm
  if (typeof sm !== 'object' || sm === null) return null
  const n = (key: string) => {
    const v = (sm as Record<string, unknown>)[key]
    return typeof v === 'number' && Number.isFinite(v) ? Math.floor(v) : null
  }
  const [x, y, w, h] = [n('x'), n('y'), n('w'), n('h')]
  if (x === null || y === null || w === null || h === null || w < 1 || h < 1 || x < 0 || y < 0) return null
  const column = Math.min(x, GRID_COLUMNS - 1)
  return { x: column, y, w: Math.min(w, GRID_COLUMNS - column), h }
}

/**
 * The tiles in reading order: by their place's row, then column (tiles with
 * none after, in the server's order), so the keyboard and screen readers
 * meet them as the eye does.
 */
export function inReadingOrder<T extends TileLook>(tiles: ReadonlyArray<T>): T[] {
  const key = (t: T) => {
    const p = tilePlace(t)
    return p === null ? Number.MAX_SAFE_INTEGER : p.y * GRID_COLUMNS + p.x
  }
  return tiles.map((t, i) => ({ t, i, k: key(t) })).sort((a, b) => a.k - b.k || a.i - b.i).map(({ t }) => t)
}

/**
 * Puts `section` at its place: as custom properties, which the page's grid
 * reads only when the window is wide enough for 12 columns (narrower, the
 * tiles stack, as PostHog's one-column `xs` layout). A tile with no place
 * gets PostHog's default size (6 by 5) where the grid has room.
 */
export function placeTile(section: HTMLElement, place: TilePlace | null): void {
  const { x, y, w, h } = place ?? { x: null, y: null, w: 6, h: 5 }
  section.style.setProperty('--tile-column', x === null ? 'auto' : String(x + 1))
  section.style.setProperty('--tile-row', y === null ? 'auto' : String(y + 1))
  section.style.setProperty('--tile-width', String(w))
  section.style.setProperty('--tile-height', String(h))
}

/** The chart's height in a tile `h` rows high: the rows and the gaps between them, less the title, status and table toggle. */
export function chartHeightOf(place: TilePlace | null): number {
  if (place === null) return 240
  return Math.max(160, place.h * ROW_HEIGHT + (place.h - 1) * 16 - 150)
}

/**
 * PostHog's tile colours (InsightColor), drawn as a ribbon down the tile's
 * left edge, each 3:1 or more against white (WCAG 1.4.11). `white` is
 * PostHog's "no colour".
 */
export const TILE_COLORS: Readonly<Record<string, string>> = { blue: '#1d4aff', green: '#15803d', purple: '#7e22ce', black: '#111827' }

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i

/**
 * The ribbon colour of a tile: one of PostHog's names, or a `#rgb`/`#rrggbb`
 * colour a host's client stored (PostHog stores any string); anything else
 * draws none rather than reach the style sheet.
 */
export function tileColor(tile: TileLook): string | null {
  if (typeof tile.color !== 'string') return null
  const color = tile.color.trim().toLowerCase()
  return TILE_COLORS[color] ?? (HEX.test(color) ? color : null)
}
