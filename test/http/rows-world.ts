import { expect } from 'vitest'
import { createSightline, type Organization, type Project, type Sightline, type User } from '@sightline/core'
import { createHandler } from '@sightline/http-adapter'
import { BASE, NOW, REPOSITORY } from '../../packages/http-adapter/test/fixture.js'
import type { ConformanceTarget, FreshDatabase } from '../conformance/target.js'
import { readAnswer } from './harness.js'
import { call, useCall } from './row.js'

/**
 * The http-adapter tests' world (packages/http-adapter/test/fixture.ts: an
 * organization, its user, a project and a `*` personal API key, the handler
 * called with no server), on the storage under test, with a clock that
 * stands at NOW unless a row moves it (my_last_viewed orders views by time).
 */
interface World {
  readonly sightline: Sightline
  readonly org: Organization
  readonly user: User
  readonly project: Project
  call(method: string, path: string, body?: unknown): Promise<Response>
  /** Moves the clock one second on. */
  tick(): void
  close(): Promise<void>
}

async function rowsWorld(storage: ReturnType<FreshDatabase['storage']>, onError: (error: unknown) => void): Promise<World> {
  let now = NOW.getTime()
  const sightline = await createSightline({ storage, clock: () => new Date(now), pluginRepository: REPOSITORY })
  const org = await sightline.organizations.create({ name: 'Acme' })
  const user = await sightline.users.create({ email: 'ada@acme.test', firstName: 'Ada', organizationIds: [org.id] })
  const project = await sightline.projects.create({ organizationId: org.id, name: 'Web' })
  const { key } = await sightline.personalApiKeys.create({ userId: user.id, label: 'all' })
  const handler = createHandler(sightline, { onError })
  return {
    sightline,
    org,
    user,
    project,
    call(method, path, body) {
      const headers = new Headers({ authorization: `Bearer ${key}` })
      if (body !== undefined) headers.set('content-type', 'application/json')
      return handler(new Request(`${BASE}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }))
    },
    tick() {
      now += 1000
    },
    close: () => sightline.close(),
  }
}

export interface State {
  readonly w: World
  readonly plugins: string
  readonly insights: string
  readonly definitions: string
  /** A plugin installed from the repository and checked for updates: every field has a value. */
  readonly repoPlugin: any
  /** A source plugin, deleted by its row. */
  readonly sourcePlugin: any
  /** A source plugin with `files`. */
  readonly filesPlugin: any
  readonly files: Record<string, string>
  readonly dashboardId: number
  /** Insights made with every writeable field set. */
  readonly insight: any
  readonly others: any[]
  readonly definition: (name: string) => Promise<any>
  /** What the handler answered with a 500 (there must be none). */
  readonly serverErrors: unknown[]
}

/** The Insight writeable fields (2.3), each set. */
export const insightBody = (dashboardId: number, name: string) => ({
  name,
  derived_name: `${name} (derived)`,
  filters: { insight: 'TRENDS', events: [{ id: 'row_signup' }] },
  query: JSON.stringify({ kind: 'InsightVizNode', source: { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: 'row_signup' }] } }),
  order: 7,
  deleted: false,
  dashboards: [dashboardId],
  description: `${name} described`,
  tags: ['rows'],
  favorited: true,
  saved: true,
})

/** The Plugin writeable fields (2.2), each set. */
export const PLUGIN_BODY = {
  plugin_type: 'source',
  name: 'Rows plugin',
  description: 'Written by the interface rows',
  icon: 'https://example.test/rows.png',
  config_schema: { greeting: { type: 'string' } },
  tag: 'v1',
  is_global: false,
  capabilities: { methods: ['processEvent'] },
  metrics: { events: 'sum' },
  public_jobs: { rerun: { payload: {} } },
}

/**
 * Events within 4.3's default range (`date_from` -7d; `date_to` now,
 * DECISIONS) of NOW, 2026-01-15 12:00 UTC: r1 and r2 sign up on the 13th,
 * r1 pays an hour later, r2 never; r3 views a page.
 */
const EVENTS = [
  { event: 'row_signup', distinct_id: 'r1', timestamp: '2026-01-13T10:00:00Z', properties: { plan: 'pro' } },
  { event: 'row_paid', distinct_id: 'r1', timestamp: '2026-01-13T11:00:00Z' },
  { event: 'row_signup', distinct_id: 'r2', timestamp: '2026-01-13T12:00:00Z', properties: { plan: 'free' } },
  { event: 'row_view', distinct_id: 'r3', timestamp: '2026-01-14T12:00:00Z' },
  { event: 'row_patched', distinct_id: 'r3', timestamp: '2026-01-14T12:00:00Z' },
  { event: 'row_deleted', distinct_id: 'r3', timestamp: '2026-01-14T12:00:00Z' },
]
export const STEPS = [{ id: 'row_signup', order: 0 }, { id: 'row_paid', order: 1 }]

/** Opens a fresh database of the target with the rows' world: events, plugins, insights on a dashboard. */
export async function openRowsWorld(target: ConformanceTarget): Promise<{ db: FreshDatabase; s: State }> {
  const db = await target.fresh()
  const serverErrors: unknown[] = []
  const w = await rowsWorld(db.storage(), (error) => void serverErrors.push(error))
  useCall(async (method, path, body) => readAnswer(await w.call(method, path.startsWith('http') ? path.slice(new URL(path).origin.length) : path, body)))
  const ok = async (method: string, path: string, body?: unknown) => {
    const answer = await call(method, path, body)
    if (answer.status >= 300) throw new Error(`setup ${method} ${path}: ${answer.status} ${answer.text}`)
    return answer.body
  }
  expect(await ok('POST', '/batch/', { api_key: w.project.apiToken, batch: EVENTS })).toEqual({ status: 1 })
  const plugins = `/api/organizations/${w.org.id}/plugins`
  const insights = `/api/projects/${w.project.id}/insights`
  const definitions = `/api/projects/${w.project.id}/event_definitions`

  const installed = await ok('POST', `${plugins}/`, { url: REPOSITORY[0]!.url, plugin_type: 'repository' })
  await ok('GET', `${plugins}/${installed.id}/check_for_updates/`)
  const repoPlugin = await ok('GET', `${plugins}/${installed.id}/`)
  await w.sightline.pluginConfigs.create(w.project.id, { pluginId: repoPlugin.id, enabled: true })
  const sourcePlugin = await ok('POST', `${plugins}/`, { ...PLUGIN_BODY, name: 'Rows to delete' })
  const filesPlugin = await ok('POST', `${plugins}/`, { ...PLUGIN_BODY, name: 'Rows with files' })
  const files = { 'index.ts': '// rows', 'plugin.json': '{"name":"Rows with files"}' }
  await ok('PATCH', `${plugins}/${filesPlugin.id}/update_source/`, files)

  const dashboardId = (await w.sightline.dashboards.create(w.project.id, { name: 'Rows' })).id
  const insight = await ok('POST', `${insights}/`, insightBody(dashboardId, 'Rows main'))
  const others = []
  for (let i = 0; i < 7; i++) others.push(await ok('POST', `${insights}/`, insightBody(dashboardId, `Rows ${i}`)))
  const definition = async (name: string) => (await ok('GET', `${definitions}/?limit=1000`)).results.find((d: { name: string }) => d.name === name)

  return { db, s: { w, plugins, insights, definitions, repoPlugin, sourcePlugin, filesPlugin, files, dashboardId, insight, others, definition, serverErrors } }
}
