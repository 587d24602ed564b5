import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { PALETTE } from '../src/browser/charts/draw-chart.js'
import { chromiumMissing, launchChromium } from './chromium.js'
import { countMarks } from './marks.js'
import answers from './answers.json' with { type: 'json' }
import { servedWorld, type ServedWorld } from './served-world.js'

// The page as `sightline serve` and the demo serve it, in headless Chromium: sign in, open a trend,
// a funnel, a retention table and a path flow, check each drew what the API answered, screenshot each.
// Every wait is on a condition; the timeouts only turn a hang into a failure.
if (chromiumMissing) console.warn(chromiumMissing)
const HANG = 30_000
const shots = join(tmpdir(), 'sightline-ui-screenshots')

describe.skipIf(chromiumMissing !== null)('the page in Chromium', () => {
  let w: ServedWorld
  let browser: Browser
  let page: Page
  const errors: string[] = []
  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${w.url}/api/projects/${w.projectId}/${path}`, { headers: { authorization: `Bearer ${w.key}` } })
    return (await response.json()) as T
  }
  const open = async (insight: number, view: string) => {
    // By way of the project page: going to the URL the page is already on would not redraw it.
    await page.goto(`${w.url}/#/project/${w.projectId}`)
    await page.goto(`${w.url}/#/project/${w.projectId}/insight/${insight}`)
    await page.waitForSelector(`.sightline-view[data-view="${view}"]`, { timeout: HANG })
  }
  /** Chooses `button` (a value in a table) and reads the persons dialog it opens, then closes it. */
  const personsOf = async (button: ReturnType<Page['locator']>) => {
    await button.click()
    const dialog = page.getByRole('dialog')
    await dialog.locator('tbody tr, .sightline-error, p:text("No persons.")').first().waitFor({ timeout: HANG })
    const heading = await dialog.getByRole('heading').textContent()
    const rows = await dialog.locator('tbody tr').count()
    const error = await dialog.locator('.sightline-error').count()
    await dialog.getByRole('button', { name: 'Close' }).click()
    await dialog.waitFor({ state: 'detached', timeout: HANG })
    return { heading, rows, error }
  }
  // countMarks is self-contained: Playwright sends its source into the page.
  const marks = () => page.locator('.sightline-insight').evaluate(countMarks, PALETTE)

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true })
    w = await servedWorld()
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } })
    page.on('pageerror', (e) => errors.push(e.message))
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await w?.close()
  })

  test('sign in with the key, by keyboard, then pick the project', async () => {
    await page.goto(`${w.url}/`)
    const key = page.getByLabel('Personal API key')
    await expect.poll(() => key.evaluate((e) => e === document.activeElement), { timeout: HANG }).toBe(true)
    await page.keyboard.type('phx_wrong')
    await page.keyboard.press('Enter')
    await page.getByRole('alert').filter({ hasText: 'not accepted' }).waitFor({ timeout: HANG })
    errors.length = 0 // the browser logs the refused key's 401, as it should
    await key.fill(w.key)
    await page.keyboard.press('Enter')
    await page.getByRole('link', { name: 'Web' }).click({ timeout: HANG })
    await page.getByRole('list', { name: 'Saved insights' }).getByRole('link').first().waitFor({ timeout: HANG })
    expect(await page.getByRole('list', { name: 'Saved insights' }).getByRole('link').count()).toBe(5)
    expect(await page.getByRole('list', { name: 'Dashboards' }).getByRole('link').allTextContents()).toEqual(['Overview'])
  })

  test('a trend: a line per series, every point as a button that lists its persons', async () => {
    await open(w.insights.trend, 'trends-line')
    const answer = await api<{ result: Array<{ data: number[] }> }>(`insights/${w.insights.trend}/`)
    const m = await marks()
    expect(m.lines.filter((n) => n > 0)).toHaveLength(answer.result.length)
    expect(await page.locator('.sightline-insight tbody button').count()).toBe(answer.result.reduce((n, s) => n + s.data.length, 0))
    await page.screenshot({ path: join(shots, 'trend.png') })

    await page.getByText('Show the data as a table').click()
    await page.locator('.sightline-insight tbody button').first().click()
    const dialog = page.getByRole('dialog')
    await dialog.locator('tbody tr').first().waitFor({ timeout: HANG })
    expect(await dialog.getByRole('heading').textContent()).toMatch(/^Persons: \$pageview on /)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached', timeout: HANG })
  })

  test('a trend redrawn as bars by its Display setting: a bar per point and series', async () => {
    await open(w.insights.trend, 'trends-line')
    await page.getByLabel('Display').selectOption('ActionsBar')
    await page.waitForSelector('.sightline-view[data-view="trends-bar"]', { timeout: HANG })
    const m = await marks()
    // Seven days, two series, and a legend icon each.
    expect(m.filled.slice(0, 2)).toEqual([8, 8])
  })

  test('a breakdown typed in the settings reruns the trend: a line per event and value', async () => {
    await open(w.insights.trend, 'trends-line')
    const rerun = page.waitForResponse((r) => r.url().endsWith('/insights/trend/') && r.request().method() === 'POST', { timeout: HANG })
    await page.getByLabel('Breakdown by').fill('$browser')
    await page.keyboard.press('Tab')
    const answer = (await (await rerun).json()) as { result: unknown[] }
    expect(answer.result).toHaveLength(4) // two events, two browsers
    await expect.poll(async () => (await marks()).lines.reduce((a, b) => a + b, 0), { timeout: HANG }).toBe(4)
    await expect.poll(() => page.locator('.sightline-run [role="status"]').textContent(), { timeout: HANG }).toMatch(/^(From the cache, computed|Computed) /)
  })

  test('Cancel stops a long query: the request is dropped and the server asked to cancel its client_query_id', async () => {
    await open(w.insights.trend, 'trends-line')
    // The rerun is held (never answered) so it stays "long" for as long as the test needs.
    const held = new Promise<string>((resolve) => {
      void page.route('**/insights/trend/', (route) => resolve(route.request().postData() ?? ''))
    })
    await page.getByLabel('Interval').selectOption('week')
    const body = JSON.parse(await held) as { client_query_id: string; interval: string }
    expect(body.interval).toBe('week')
    const cancel = page.getByRole('button', { name: 'Cancel query' })
    const cancelled = page.waitForRequest((r) => r.url().endsWith('/insights/cancel/'), { timeout: HANG })
    await cancel.click()
    expect(JSON.parse((await cancelled).postData() ?? '{}')).toEqual({ client_query_id: body.client_query_id })
    await expect.poll(() => page.locator('.sightline-run [role="status"]').textContent(), { timeout: HANG }).toMatch(/^Cancelled\./)
    expect(await cancel.isHidden()).toBe(true)
    await page.unrouteAll({ behavior: 'ignoreErrors' })
  })

  test('a funnel: a bar per step with its drop-off, the conversion in the table', async () => {
    await open(w.insights.funnel, 'funnel-steps')
    const answer = await api<{ result: Array<{ count: number }> }>(`insights/${w.insights.funnel}/`)
    const m = await marks()
    expect(m.filled[0]).toBe(answer.result.length)
    expect(m.faded[0]).toBe(answer.result.length)
    const rows = page.locator('.sightline-insight tbody tr')
    expect(await rows.count()).toBe(answer.result.length)
    const [first, last] = [answer.result[0]!.count, answer.result.at(-1)!.count]
    expect(await rows.last().locator('td').nth(1).textContent()).toBe(`${((last / first) * 100).toFixed(1)}%`)
    await page.screenshot({ path: join(shots, 'funnel.png') })
    expect(await personsOf(rows.last().getByRole('button').first())).toEqual({ heading: 'Persons: persons who reached 2. signup', rows: last, error: 0 })
    // A click on the chart itself: the first step's bar.
    const bar = await page.locator(`.sightline-insight svg path[fill="${PALETTE[0]}"]:not([fill-opacity]):not([opacity])`).first().boundingBox()
    await page.mouse.click(bar!.x + bar!.width / 2, bar!.y + bar!.height / 2)
    const dialog = page.getByRole('dialog')
    await dialog.locator('tbody tr').first().waitFor({ timeout: HANG })
    expect(await dialog.getByRole('heading').textContent()).toBe('Persons: Reached $pageview')
    expect(await dialog.locator('tbody tr').count()).toBe(first)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached', timeout: HANG })
    expect(await personsOf(rows.last().getByRole('button').last())).toEqual({ heading: 'Persons: persons who dropped off before 2. signup', rows: first - last, error: 0 })
  })

  test('a long persons list, page by page: “Load more persons” follows the server’s next, by keyboard', async () => {
    // The dialog asks 100 a page; asked 2 (the request rewritten), the server answers a next for every 2 of the step's persons.
    await page.route('**/persons/funnel/**', (route) => route.continue({ url: route.request().url().replace('limit=100', 'limit=2') }))
    await open(w.insights.funnel, 'funnel-steps')
    const answer = await api<{ result: Array<{ count: number }> }>(`insights/${w.insights.funnel}/`)
    const total = answer.result[0]!.count
    expect(total).toBeGreaterThan(4)
    await page.locator('.sightline-insight tbody tr').first().getByRole('button').first().click()
    const dialog = page.getByRole('dialog')
    const status = dialog.getByRole('status')
    await expect.poll(() => status.textContent(), { timeout: HANG }).toBe(`2 of ${total} persons`)
    const more = dialog.getByRole('button', { name: 'Load more persons' })
    await more.focus()
    for (let shown = 4; shown < total; shown += 2) {
      await page.keyboard.press('Enter')
      await expect.poll(() => status.textContent(), { timeout: HANG }).toBe(`${shown} of ${total} persons`)
    }
    await page.keyboard.press('Enter')
    await expect.poll(() => status.textContent(), { timeout: HANG }).toBe(`${total} persons`)
    expect(await dialog.locator('tbody tr').count()).toBe(total)
    expect(new Set(await dialog.locator('tbody th').allTextContents()).size).toBe(total)
    expect(await more.count()).toBe(0)
    expect(await dialog.getByRole('button', { name: 'Close' }).evaluate((e) => e === document.activeElement)).toBe(true)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached', timeout: HANG })
    await page.unrouteAll({ behavior: 'ignoreErrors' })
  })

  test('a retention table: a shaded cell per cohort and period', async () => {
    await open(w.insights.retention, 'retention')
    const answer = await api<{ result: Array<{ values: unknown[] }> }>(`insights/${w.insights.retention}/`)
    expect(await page.locator('.sightline-retention tbody tr').count()).toBe(answer.result.length)
    expect(await page.locator('td.sightline-cell').count()).toBe(answer.result.reduce((n, r) => n + r.values.length, 0))
    await page.screenshot({ path: join(shots, 'retention.png') })
    const firstCohort = answer.result[0] as { values: Array<{ count: number }> }
    const listed = await personsOf(page.locator('td.sightline-cell button').first())
    expect(listed).toMatchObject({ rows: firstCohort.values[0]!.count, error: 0 })
  })

  test('a path flow: a node per page and step, a link per edge', async () => {
    await open(w.insights.paths, 'paths')
    const answer = await api<{ result: Array<{ source: string; target: string }> }>(`insights/${w.insights.paths}/`)
    expect(answer.result.length).toBeGreaterThan(2)
    const m = await marks()
    expect(m.links).toBe(answer.result.length)
    expect(m.filled.reduce((a, b) => a + b, 0)).toBe(new Set(answer.result.flatMap((e) => [e.source, e.target])).size)
    await page.screenshot({ path: join(shots, 'paths.png') })
    await page.getByText('Show the links as a table').click()
    const link = await personsOf(page.locator('.sightline-insight details tbody button').first())
    expect(link.error).toBe(0)
    expect(link.rows).toBeGreaterThan(0)
  })

  test('a world map: each country of the answer shaded, a click on one lists its persons', async () => {
    await open(w.insights.worldMap, 'trends-world-map')
    const answer = await api<{ result: Array<{ breakdown_value: string; aggregated_value: number }> }>(`insights/${w.insights.worldMap}/`)
    expect(answer.result.map((s) => s.breakdown_value).sort()).toEqual(['BR', 'DE', 'FR', 'JP', 'US'])
    const shaded = await page.locator('.sightline-insight svg path').evaluateAll((paths) => paths.filter((p) => !['#f3f4f6', 'none', null].includes(p.getAttribute('fill'))).length)
    expect(shaded).toBeGreaterThanOrEqual(answer.result.length) // a country may be several shapes (Alaska, islands)
    expect(await page.locator('.sightline-insight tbody tr').count()).toBe(answer.result.length)
    await page.screenshot({ path: join(shots, 'world-map.png') })
    // The most is drawn in the page's full blue: a point inside its largest shape, found by the browser's own hit test.
    const us = answer.result.find((s) => s.breakdown_value === 'US')!
    expect(Math.max(...answer.result.map((s) => s.aggregated_value))).toBe(us.aggregated_value)
    const point = await page.locator('.sightline-insight svg').evaluate((svg) => {
      const area = (p: SVGPathElement) => p.getBBox().width * p.getBBox().height
      for (const path of [...svg.querySelectorAll<SVGPathElement>('path[fill="#1d4aff"]')].sort((a, b) => area(b) - area(a))) {
        const box = path.getBBox()
        for (let i = 1; i < 10; i++)
          for (let j = 1; j < 10; j++) {
            const at = new DOMPoint(box.x + (box.width * i) / 10, box.y + (box.height * j) / 10)
            if (path.isPointInFill(at)) {
              const screen = at.matrixTransform(path.getScreenCTM()!)
              return { x: screen.x, y: screen.y }
            }
          }
      }
      return null
    })
    expect(point).not.toBeNull()
    await page.mouse.click(point!.x, point!.y)
    const dialog = page.getByRole('dialog')
    await expect.poll(() => dialog.getByRole('status').textContent(), { timeout: HANG }).toBe(`${us.aggregated_value} persons`)
    expect(await dialog.getByRole('heading').textContent()).toBe('Persons: United States of America')
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached', timeout: HANG })
  })

  test('a dashboard draws each of its tiles, at their saved places', async () => {
    // Saved as PostHog's client saves a dragged layout: PATCH the tiles' layouts (and a colour).
    const url = `${w.url}/api/projects/${w.projectId}/dashboards/${w.dashboardId}/`
    const headers = { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' }
    const board = (await (await fetch(url, { headers })).json()) as { tiles: Array<{ id: number }> }
    const [a, b] = board.tiles
    const patch = { tiles: [{ id: a!.id, layouts: { sm: { x: 0, y: 0, w: 4, h: 5 } } }, { id: b!.id, layouts: { sm: { x: 4, y: 0, w: 8, h: 5 } }, color: 'green' }] }
    expect((await fetch(url, { method: 'PATCH', headers, body: JSON.stringify(patch) })).status).toBe(200)
    await page.goto(`${w.url}/#/project/${w.projectId}`)
    await page.goto(`${w.url}/#/project/${w.projectId}/dashboard/${w.dashboardId}`)
    await expect.poll(() => page.locator('.sightline-tile .sightline-view').count(), { timeout: HANG }).toBe(2)
    expect(await page.locator('.sightline-tile svg').count()).toBe(2)
    const box = async (id: number) => (await page.locator(`.sightline-tile[data-tile="${id}"]`).boundingBox())!
    const [left, right] = [await box(a!.id), await box(b!.id)]
    // Side by side on one row, the second twice as wide (8 of 12 columns against 4), both 5 rows high.
    expect(right.x).toBeGreaterThan(left.x + left.width)
    expect(Math.abs(right.y - left.y)).toBeLessThan(1)
    expect(right.width / left.width).toBeGreaterThan(1.9)
    expect(right.width / left.width).toBeLessThan(2.3)
    expect(await page.locator(`.sightline-tile[data-tile="${b!.id}"]`).evaluate((e) => getComputedStyle(e).borderLeftColor)).toBe('rgb(21, 128, 61)')
    await page.screenshot({ path: join(shots, 'dashboard.png'), fullPage: true })
  })

  test('embedded: renderInsight in a host’s own page draws every view from known answers', async () => {
    await page.goto(`${w.url}/host.html`)
    await page.waitForFunction(() => 'sightline' in window, undefined, { timeout: HANG })
    const views: Array<[string, unknown, Record<string, unknown>]> = [
      ['line', answers.trend, {}],
      ['cumulative', answers.trend, { insight: 'TRENDS', display: 'ActionsLineGraphCumulative' }],
      ['bar', answers.trend, { insight: 'TRENDS', display: 'ActionsBar' }],
      ['bar-value', answers.trendPie, { display: 'ActionsBarValue' }],
      ['pie', answers.trendPie, { display: 'ActionsPie' }],
      ['number', answers.trendPie, { display: 'BoldNumber' }],
      ['world-map', answers.trendPie, { display: 'WorldMap' }],
      ['stickiness', answers.stickiness, { insight: 'STICKINESS' }],
      ['lifecycle', answers.lifecycle, { insight: 'LIFECYCLE' }],
      ['funnel', answers.funnel, {}],
      ['funnel-trends', answers.funnelTrends, { insight: 'FUNNELS', funnel_viz_type: 'trends' }],
      ['time-to-convert', answers.ttc, {}],
      ['retention', answers.retention, {}],
      ['paths', answers.paths, {}],
    ]
    const drawn = await page.evaluate((list) => {
      const { renderInsight } = (window as unknown as { sightline: typeof import('../src/browser/index.js') }).sightline
      return list.map(([name, answer, filters]) => {
        const box = document.createElement('section')
        box.id = `view-${name}`
        document.getElementById('host')!.append(box)
        return renderInsight(box, answer as never, { filters })
      })
    }, views)
    expect(drawn).toEqual(['trends-line', 'trends-cumulative', 'trends-bar', 'trends-bar-value', 'trends-pie', 'trends-number', 'trends-world-map', 'stickiness', 'lifecycle', 'funnel-steps', 'funnel-trends', 'funnel-time-to-convert', 'retention', 'paths'])
    const count = (name: string) => page.locator(`#view-${name}`).evaluate(countMarks, PALETTE)
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)
    const days = answers.trend.result[0]!.data.length
    expect(sum((await count('line')).lines)).toBe(2)
    expect(sum((await count('cumulative')).lines)).toBe(2)
    expect(sum((await count('bar')).filled)).toBe(2 * (days + 1)) // a bar per day and series, a legend icon per series
    expect(sum((await count('bar-value')).filled)).toBe(3)
    expect(sum((await count('pie')).filled)).toBe(3 * 2) // a slice and a legend icon per value
    expect(await page.locator('#view-number .sightline-bold-number').textContent()).toBe('14')
    expect(await page.locator('#view-world-map tbody tr').count()).toBe(3)
    expect(sum((await count('stickiness')).filled)).toBe(answers.stickiness.result[0]!.data.length + 1)
    expect(sum((await count('lifecycle')).filled)).toBe(4 * (days + 1))
    expect((await count('funnel')).filled[0]).toBe(2)
    expect(sum((await count('funnel-trends')).lines)).toBe(1)
    expect(sum((await count('time-to-convert')).filled)).toBe(answers.ttc.result.bins.length)
    expect(await page.locator('#view-retention td.sightline-cell').count()).toBe(answers.retention.result.reduce((n, r) => n + r.values.length, 0))
    expect((await count('paths')).links).toBe(answers.paths.result.length)
    for (const name of ['line', 'pie', 'lifecycle', 'funnel', 'paths']) expect((await count(name)).svgs, name).toBe(1)
    await page.screenshot({ path: join(shots, 'embedded.png'), fullPage: true })
  })

  test('every form control has a label, and the page logged no error', async () => {
    await open(w.insights.trend, 'trends-line')
    const unlabelled = await page.locator('input, select').evaluateAll((controls) =>
      controls.filter((c) => !(c as HTMLInputElement).labels?.length && !c.getAttribute('aria-label')).map((c) => c.outerHTML),
    )
    expect(unlabelled).toEqual([])
    expect(errors).toEqual([])
    console.log(`screenshots in ${shots}`)
  })
})
