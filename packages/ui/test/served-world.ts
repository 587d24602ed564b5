import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createSightline, type Sightline } from '@sightline/core'
import { createHandler, toNodeHandler } from '@sightline/http-adapter'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { sightlineUi } from '../src/index.js'

/** A served Sightline with saved insights of each kind, as `sightline serve` and the demo serve it (the same handler and `ui`). */
export interface ServedWorld {
  readonly url: string
  readonly key: string
  readonly projectId: number
  readonly insights: { readonly trend: number; readonly funnel: number; readonly retention: number; readonly paths: number; readonly worldMap: number }
  readonly dashboardId: number
  readonly sightline: Sightline
  close(): Promise<void>
}

/** A host page that imports the bundle and hands its exports to the test. */
const HOST_PAGE = `<!doctype html><html lang="en"><title>host</title><link rel="icon" href="data:,"><body><main id="host"></main>
<script type="module">import * as sightline from './ui/sightline-ui.js'; window.sightline = sightline</script></body></html>`

/** Where each person is, as GeoIP would say: two in the US, so it is the deepest on the map. */
const COUNTRIES = ['US', 'DE', 'FR', 'BR', 'US', 'JP']
const DAYS = ['2026-01-08', '2026-01-09', '2026-01-10', '2026-01-11', '2026-01-12', '2026-01-13', '2026-01-14']

/**
 * Six persons over the seven days before the clock's 2026-01-15: each visits
 * `/` then `/pricing` within minutes on some days, half of them sign up. The
 * engine's clock is pinned, so every answer is the same on every run.
 */
export async function servedWorld(): Promise<ServedWorld> {
  const now = new Date('2026-01-15T12:00:00.000Z')
  const sightline = await createSightline({ storage: duckdbStorage(), clock: () => now })
  const org = await sightline.organizations.create({ name: 'Acme' })
  const project = await sightline.projects.create({ organizationId: org.id, name: 'Web' })
  const user = await sightline.users.create({ email: 'ada@acme.test', firstName: 'Ada', organizationIds: [org.id] })
  const { key } = await sightline.personalApiKeys.create({ userId: user.id, label: 'browser test' })
  const events = []
  for (let p = 0; p < 6; p++) {
    for (const [d, day] of DAYS.entries()) {
      if ((d + 2 * p) % (p + 2) === 0) continue
      const at = (minute: number) => `${day}T09:${String(minute).padStart(2, '0')}:00Z`
      const props = (path: string) => ({ $current_url: `https://acme.test${path}`, $browser: p % 2 === 0 ? 'Firefox' : 'Chrome', $geoip_country_code: COUNTRIES[p] })
      events.push({ event: '$pageview', distinctId: `u${p}`, timestamp: at(0), properties: props('/') })
      events.push({ event: '$pageview', distinctId: `u${p}`, timestamp: at(5), properties: props(p > 3 ? '/docs' : '/pricing') })
      if (p < 3 && d % 2 === 0) {
        events.push({ event: '$pageview', distinctId: `u${p}`, timestamp: at(8), properties: props('/signup') })
        events.push({ event: 'signup', distinctId: `u${p}`, timestamp: at(10), properties: props('/signup') })
      }
    }
  }
  await sightline.capture(project.id, events)
  const range = { date_from: '2026-01-08', date_to: '2026-01-14' }
  const actor = { userId: user.id }
  const dashboard = await sightline.dashboards.create(project.id, { name: 'Overview' }, actor)
  const save = async (name: string, filters: Record<string, unknown>, dashboards: number[] = []) =>
    (await sightline.insights.create(project.id, { name, filters, saved: true, dashboards }, actor)).id
  const insights = {
    trend: await save('Page views and signups', { insight: 'TRENDS', events: [{ id: '$pageview' }, { id: 'signup' }], interval: 'day', ...range }, [dashboard.id]),
    funnel: await save('Visit to signup', { insight: 'FUNNELS', events: [{ id: '$pageview', order: 0 }, { id: 'signup', order: 1 }], ...range }, [dashboard.id]),
    retention: await save('Returning visitors', { insight: 'RETENTION', date_to: '2026-01-14', total_intervals: 4, period: 'Day', target_entity: { id: '$pageview', type: 'events' }, returning_entity: { id: '$pageview', type: 'events' } }),
    paths: await save('Page flow', { insight: 'PATHS', include_event_types: ['$pageview'], ...range }),
    worldMap: await save('Visitors by country', { insight: 'TRENDS', events: [{ id: '$pageview', math: 'dau' }], breakdown: '$geoip_country_code', display: 'WorldMap', ...range }),
  }
  const ui = sightlineUi()
  // A host's own page beside Sightline's, embedding the views from the same bundle.
  const pages = { serve: (path: string, request: Request) => (path === '/host.html' ? new Response(HOST_PAGE, { headers: { 'content-type': 'text/html' } }) : ui.serve(path, request)) }
  const server = createServer(toNodeHandler(createHandler(sightline, { ui: pages, onError: () => {} })))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    key,
    projectId: project.id,
    insights,
    dashboardId: dashboard.id,
    sightline,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await sightline.close()
    },
  }
}
