// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest'
import type { Api } from '../src/browser/app/api-client.js'
import { dashboardPage } from '../src/browser/app/dashboard-page.js'
import { inReadingOrder, TILE_COLORS, tileColor, tilePlace } from '../src/browser/app/tile-layout.js'
import { contrastRatio } from '../src/browser/contrast.js'
import { PAGE_STYLES } from '../src/page-styles.js'
import answers from './answers.json' with { type: 'json' }

afterEach(() => document.body.replaceChildren())

/** An Api answering the dashboard's GET with `board`; any other GET (a tile's insight) fails the test. */
const boardApi = (board: unknown): Api => ({
  get: async <T>(path: string) => {
    if (path !== 'api/projects/1/dashboards/3/') throw new Error(`unexpected GET ${path}`)
    return board as T
  },
  post: async <T>() => null as T,
})

const open = async (board: unknown) => {
  const main = document.body.appendChild(document.createElement('main'))
  await dashboardPage(main, { api: boardApi(board), signal: new AbortController().signal }, 1, 3)
  return main
}

const trendTile = (id: number, layouts: unknown, color: string | null = null) => ({
  id,
  insight: { ...answers.trend, id: 10 + id, name: `Trend ${id}`, filters: { insight: 'TRENDS' } },
  text: null,
  layouts,
  color,
})
const INJECTION = '<img src=x onerror="window.__hacked = 1"><script>window.__hacked = 2</script>\n**Read me** & <b>bold</b>'

describe('a dashboard’s tiles at their saved places', () => {
  test('tiles placed from layouts.sm on the 12 columns, in reading order, coloured by their color', async () => {
    const main = await open({
      name: 'Overview',
      tiles: [
        trendTile(1, { sm: { x: 6, y: 0, w: 6, h: 5 }, xs: { x: 0, y: 0, w: 1, h: 5 } }, 'blue'),
        trendTile(2, { sm: { x: 0, y: 5, w: 12, h: 4 } }),
        { id: 3, insight: null, text: { body: 'Weekly numbers' }, layouts: { sm: { x: 0, y: 0, w: 6, h: 2 } }, color: 'purple' },
        trendTile(4, {}, 'no such colour'),
        { ...trendTile(5, { sm: { x: 0, y: 2, w: 6, h: 3 } }), deleted: true },
      ],
    })
    const grid = main.querySelector('.sightline-tiles')!
    expect(grid.classList.contains('sightline-tiles-placed')).toBe(true)
    const tiles = [...grid.querySelectorAll<HTMLElement>(':scope > .sightline-tile')]
    // The text card (row 1, column 1) first, then the tile beside it, the full-width row under them, the unplaced tile last.
    expect(tiles.map((t) => t.dataset.tile)).toEqual(['3', '1', '2', '4'])
    const place = (t: HTMLElement) => ['--tile-column', '--tile-row', '--tile-width', '--tile-height'].map((p) => t.style.getPropertyValue(p))
    expect(tiles.map(place)).toEqual([
      ['1', '1', '6', '2'],
      ['7', '1', '6', '5'],
      ['1', '6', '12', '4'],
      ['auto', 'auto', '6', '5'], // no saved place: PostHog's default size where the grid has room
    ])
    expect(tiles.map((t) => t.style.getPropertyValue('--tile-color'))).toEqual([TILE_COLORS.purple, TILE_COLORS.blue, '', ''])
    expect(tiles.map((t) => t.classList.contains('sightline-tile-colored'))).toEqual([true, true, false, false])
    // Each insight tile drew its chart, as high as its rows allow.
    const heights = tiles.map((t) => t.querySelector<HTMLElement>('.sightline-chart')?.style.height)
    expect(heights).toEqual([undefined, `${5 * 80 + 4 * 16 - 150}px`, `${4 * 80 + 3 * 16 - 150}px`, '240px'])
    // The page's style sheet lays the placed grid out on 12 columns from those properties.
    expect(PAGE_STYLES).toContain('.sightline-tiles-placed { grid-template-columns: repeat(12, minmax(0, 1fr))')
    expect(PAGE_STYLES).toContain('grid-column: var(--tile-column, auto) / span var(--tile-width, 6); grid-row: var(--tile-row, auto) / span var(--tile-height, 5)')
  })

  test('without saved layouts the tiles flow as before', async () => {
    const main = await open({ tiles: [trendTile(1, {}), trendTile(2, { lg: { x: 0, y: 0, w: 4, h: 4 } })] })
    const grid = main.querySelector('.sightline-tiles')!
    expect(grid.className).toBe('sightline-tiles')
    for (const tile of grid.querySelectorAll<HTMLElement>('.sightline-tile')) {
      expect(tile.style.getPropertyValue('--tile-column')).toBe('')
      expect(tile.querySelector<HTMLElement>('.sightline-chart')!.style.height).toBe('240px')
    }
  })

  test('a text card is drawn as its text, never as HTML', async () => {
    const main = await open({ tiles: [{ id: 7, insight: null, text: { id: 1, body: INJECTION }, layouts: {}, color: null }] })
    const text = main.querySelector('.sightline-text-tile .sightline-text')!
    expect(text.textContent).toBe(INJECTION)
    expect(main.querySelector('.sightline-tile img, .sightline-tile script, .sightline-tile b')).toBeNull()
    expect((window as unknown as { __hacked?: number }).__hacked).toBeUndefined()
    expect(PAGE_STYLES).toContain('.sightline-text { white-space: pre-wrap;') // its line breaks kept
  })
})

describe('reading a tile’s layout and colour', () => {
  test('a place only from whole numbers on the grid; a tile wider than its row is cut to fit', () => {
    expect(tilePlace({ layouts: { sm: { x: 2.7, y: 1, w: 4, h: 3, minW: 3 } } })).toEqual({ x: 2, y: 1, w: 4, h: 3 })
    expect(tilePlace({ layouts: { sm: { x: 8, y: 0, w: 12, h: 5 } } })).toEqual({ x: 8, y: 0, w: 4, h: 5 })
    expect(tilePlace({ layouts: { sm: { x: 40, y: 0, w: 2, h: 5 } } })).toEqual({ x: 11, y: 0, w: 1, h: 5 })
    for (const sm of [null, 'x', { x: 0, y: 0, w: 0, h: 5 }, { x: -1, y: 0, w: 2, h: 2 }, { x: '0', y: 0, w: 2, h: 2 }, { x: 0, y: 0, w: 2, h: Number.NaN }, { x: 0, y: 0, w: 2 }]) {
      expect(tilePlace({ layouts: { sm } }), JSON.stringify(sm)).toBeNull()
    }
    expect(tilePlace({ layouts: null })).toBeNull()
    expect(tilePlace({})).toBeNull()
  })

  test('reading order: row, then column, then the server’s order', () => {
    const at = (name: string, x?: number, y?: number) => ({ name, layouts: x === undefined ? {} : { sm: { x, y, w: 1, h: 1 } } })
    expect(inReadingOrder([at('a'), at('b', 6, 1), at('c', 0, 1), at('d', 3, 0), at('e')]).map((t) => t.name)).toEqual(['d', 'c', 'b', 'a', 'e'])
  })

  test('PostHog’s colour names, or a hex colour; nothing else reaches the style', () => {
    expect(['blue', 'Green', 'white', '#A1B2C3', '#abc', 'red;background:url(x)', 'var(--x)', null].map((color) => tileColor({ color }))).toEqual([
      TILE_COLORS.blue,
      TILE_COLORS.green,
      null,
      '#a1b2c3',
      '#abc',
      null,
      null,
      null,
    ])
    for (const [name, hex] of Object.entries(TILE_COLORS)) expect(contrastRatio(hex, '#ffffff'), name).toBeGreaterThanOrEqual(3)
  })
})
