import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSightline, type Organization, type Project, type Sightline, type User } from '@sightline/core'
import { createHandler } from '@sightline/http-adapter'
import { BASE, NOW, REPOSITORY } from '../../packages/http-adapter/test/fixture.js'
import type { ConformanceTarget, FreshDatabase } from '../conformance/target.js'
import { readAnswer, type Answer } from './harness.js'
import {
  analysis,
  arr,
  arrayOf,
  bool,
  type Check,
  dateTime,
  ENTITY_FIELDS,
  envelope,
  EVENT_DEFINITION,
  exactly,
  fields,
  FILTER,
  FILTER_FIELDS,
  insight,
  int,
  nonEmptyArrayOf,
  orNull,
  plugin,
  present,
  problems,
  PROPERTY_GROUP,
  SERIES,
  step,
  str,
  timeZone,
} from './interface-rows.shapes.js'

/**
 * One test per row of shared/spec/interface.md section 4 (4.1 plugins, 4.2
 * insights, 4.5 event definitions), sent through `createHandler` on one
 * storage: the status, and every documented field of the answer (present,
 * with its type; values where the document, DECISIONS.md or the
 * http-adapter README fixes them). Every insight row is sent again with
 * `?format=csv` and `?format=json` (4.2: all insight endpoints take `format`).
 *
 * Every row holds the document's types strictly, except where the
 * http-adapter README decides otherwise: there the row checks the decision
 * precisely (a field null exactly when the README says, typed otherwise).
 */

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

interface State {
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
const insightBody = (dashboardId: number, name: string) => ({
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
const PLUGIN_BODY = {
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
const STEPS = [{ id: 'row_signup', order: 0 }, { id: 'row_paid', order: 1 }]
/** The Insight writeable fields as the body of an analysis row that takes them. */
const DOCUMENT_BODY = { name: 'Rows analysis', derived_name: 'Rows', filters: { insight: 'FUNNELS', events: STEPS }, query: { kind: 'FunnelsQuery' }, order: 1, deleted: false, dashboards: [], description: 'd', tags: ['rows'], favorited: false, saved: false }

/** README "Where Sightline chose", activity: PostHog's envelope and entries. */
const ACTIVITY = fields({
  results: nonEmptyArrayOf(
    fields({
      user: orNull(fields({ first_name: str, email: str })),
      activity: str,
      scope: str,
      item_id: str,
      detail: fields({ changes: arrayOf(fields({ type: str, action: str, field: present, before: present, after: present })), trigger: present, name: present, short_id: present }),
      created_at: dateTime,
    }),
  ),
  next: present,
  previous: present,
  total_count: int,
})
const ACTIVITY_COLUMNS = ['user', 'activity', 'scope', 'item_id', 'detail', 'created_at']

/** README: cancel/ and timing/ answer these Insight fields (nothing computed) and their own. */
const ACKNOWLEDGED = { result: exactly(null), last_refresh: exactly(null), timezone: timeZone, is_cached: exactly(false) }

type Csv =
  | { readonly kind: 'records'; readonly columns: ReadonlyArray<string> }
  | { readonly kind: 'analysis'; readonly file: string; readonly columns: ReadonlyArray<string> }
  | { readonly kind: 'refused' }
  | { readonly kind: 'bodiless' }

interface Row {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  /** As in the document's table, under the section's prefix. */
  readonly path: string
  readonly status: number
  /** Sends the row's request; `format` is added to its query when given. */
  readonly send: (s: State, format?: string) => Promise<Answer>
  /** The documented answer; none for a bodiless one. */
  readonly shape?: (s: State) => Check
  /** Values the document (or a decision) fixes. */
  readonly values?: (body: any, s: State, answer: Answer) => Promise<void> | void
  /** 4.2's rows: what `?format=csv` answers. */
  readonly csv?: Csv
}

let call: (method: string, path: string, body?: unknown) => Promise<Answer>
const withFormat = (path: string, format?: string) => (format === undefined ? path : `${path}${path.includes('?') ? '&' : '?'}format=${format}`)
const get = (path: (s: State) => string) => (s: State, format?: string) => call('GET', withFormat(path(s), format))
const send = (method: 'POST' | 'PATCH' | 'DELETE', path: (s: State) => string, body?: (s: State) => unknown) => (s: State, format?: string) =>
  call(method, withFormat(path(s), format), body?.(s))
const queryOf = (params: Record<string, unknown>) => new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, JSON.stringify(v)])).toString()

/** 2.1: `limit=1&offset=1` of a list of three or more: one record, the second; both links; `count` the total; the links lead to the neighbours. */
async function pages(listPath: string, body: any): Promise<void> {
  const all = (await call('GET', `${listPath}?limit=1000`)).body
  expect(all.results.length).toBeGreaterThanOrEqual(3)
  expect(all).toMatchObject({ count: all.results.length, next: null, previous: null })
  expect(body.count).toBe(all.count)
  expect(body.results).toEqual([all.results[1]])
  expect(typeof body.next).toBe('string')
  expect(typeof body.previous).toBe('string')
  expect((await call('GET', body.next)).body.results).toEqual([all.results[2]])
  expect((await call('GET', body.previous)).body.results).toEqual([all.results[0]])
}

/** Each field sent is answered as sent. */
const echoes = (body: any, sent: Record<string, unknown>) => expect(Object.fromEntries(Object.keys(sent).map((k) => [k, body[k]]))).toEqual(sent)

/** README "typed fields without a value yet": only the repository plugin was installed from a url and checked for updates. */
const REPO_PLUGIN = plugin({ fromUrl: true, checked: true })
const SOURCE_PLUGIN = plugin({ fromUrl: false, checked: false })
const pluginOf = (s: State): Check => (v, at, out) => ((v as { id?: unknown })?.id === s.repoPlugin.id ? REPO_PLUGIN : SOURCE_PLUGIN)(v, at, out)

const PLUGIN_ROWS: Row[] = [
  {
    method: 'GET', path: '/', status: 200,
    send: get((s) => `${s.plugins}/?limit=1&offset=1`),
    shape: (s) => envelope(pluginOf(s)),
    values: (body, s) => pages(`${s.plugins}/`, body),
  },
  {
    method: 'POST', path: '/', status: 201,
    send: send('POST', (s) => `${s.plugins}/`, () => PLUGIN_BODY),
    shape: () => SOURCE_PLUGIN,
    values: (body, s) => {
      echoes(body, PLUGIN_BODY)
      expect([body.organization_id, body.organization_name]).toEqual([s.w.org.id, s.w.org.name])
    },
  },
  {
    method: 'GET', path: '/:id/', status: 200,
    send: get((s) => `${s.plugins}/${s.repoPlugin.id}/`),
    shape: () => REPO_PLUGIN,
    values: (body, s) => expect(body).toEqual(s.repoPlugin),
  },
  {
    method: 'PATCH', path: '/:id/', status: 200,
    send: send('PATCH', (s) => `${s.plugins}/${s.repoPlugin.id}/`, () => ({ ...PLUGIN_BODY, plugin_type: 'repository', name: 'GeoIP' })),
    shape: () => REPO_PLUGIN,
    values: async (body, s) => {
      echoes(body, { ...PLUGIN_BODY, plugin_type: 'repository', name: 'GeoIP' })
      expect((await call('GET', `${s.plugins}/${s.repoPlugin.id}/`)).body).toEqual(body)
    },
  },
  {
    method: 'DELETE', path: '/:id/', status: 204,
    send: send('DELETE', (s) => `${s.plugins}/${s.sourcePlugin.id}/`),
    values: async (_body, s, answer) => {
      expect(answer.text).toBe('')
      expect((await call('GET', `${s.plugins}/${s.sourcePlugin.id}/`)).status).toBe(404)
    },
  },
  {
    method: 'GET', path: '/:id/check_for_updates/', status: 200,
    send: get((s) => `${s.plugins}/${s.repoPlugin.id}/check_for_updates/`),
    // README: the Plugin, and the same object under `plugin`.
    shape: () => REPO_PLUGIN,
    values: (body) => {
      expect(problems(body.plugin, REPO_PLUGIN)).toEqual([])
      expect(body.latest_tag).toBe(REPOSITORY[0]!.tag)
    },
  },
  {
    method: 'GET', path: '/:id/source/', status: 200,
    // README: PostHog's `{ filename: source }`, not the Plugin.
    send: get((s) => `${s.plugins}/${s.filesPlugin.id}/source/`),
    values: (body, s) => expect(body).toEqual(s.files),
  },
  {
    method: 'PATCH', path: '/:id/update_source/', status: 200,
    // README: PostHog's file names as the body, `{ filename: source }` answered; the Plugin writeable fields are a 400 naming the first.
    send: send('PATCH', (s) => `${s.plugins}/${s.filesPlugin.id}/update_source/`, () => ({ 'index.ts': '// rows v2' })),
    values: async (body, s) => {
      expect(body).toEqual({ ...s.files, 'index.ts': '// rows v2' })
      const refused = await call('PATCH', `${s.plugins}/${s.filesPlugin.id}/update_source/`, PLUGIN_BODY)
      expect([refused.status, refused.body.type, Object.keys(PLUGIN_BODY).includes(refused.body.attr)]).toEqual([400, 'validation_error', true])
      expect((await call('GET', `${s.plugins}/${s.filesPlugin.id}/source/`)).body).toEqual(body)
    },
  },
  {
    method: 'POST', path: '/:id/upgrade/', status: 200,
    // README: the body (the writeable fields) is validated, then ignored.
    send: send('POST', (s) => `${s.plugins}/${s.repoPlugin.id}/upgrade/`, () => ({ ...PLUGIN_BODY, name: 'Ignored' })),
    shape: () => REPO_PLUGIN,
    values: (body) => expect(body.name).not.toBe('Ignored'),
  },
  {
    method: 'GET', path: '/activity/', status: 200,
    send: get((s) => `${s.plugins}/activity/`),
    shape: () => ACTIVITY,
  },
  {
    method: 'GET', path: '/repository/', status: 200,
    // README: the host's `pluginRepository` array.
    send: get((s) => `${s.plugins}/repository/`),
    values: (body) => expect(body).toEqual(REPOSITORY),
  },
  {
    method: 'GET', path: '/unused/', status: 200,
    // README: the ids of the organization's plugins no project enables (the repository plugin is enabled).
    send: get((s) => `${s.plugins}/unused/`),
    shape: () => arrayOf(int),
    values: async (body, s) => {
      const all = (await call('GET', `${s.plugins}/?limit=1000`)).body.results.map((p: { id: number }) => p.id)
      expect([...body].sort()).toEqual(all.filter((id: number) => id !== s.repoPlugin.id).sort())
    },
  },
]

const INSIGHT_COLUMNS = insight('uncomputed').keys

const INSIGHT_ROWS: Row[] = [
  {
    method: 'GET', path: '/', status: 200,
    send: get((s) => `${s.insights}/?limit=1&offset=1`),
    shape: () => envelope(insight('uncomputed')),
    csv: { kind: 'records', columns: INSIGHT_COLUMNS },
    values: async (body, s) => {
      await pages(`${s.insights}/`, body)
      const byShortId = (await call('GET', `${s.insights}/?short_id=${s.insight.short_id}`)).body
      expect([byShortId.count, byShortId.results.map((i: { id: number }) => i.id)]).toEqual([1, [s.insight.id]])
      const byCreator = (await call('GET', `${s.insights}/?created_by=${s.w.user.id}&limit=1000`)).body
      expect(byCreator.count).toBeGreaterThanOrEqual(3)
      expect(byCreator.results.every((i: any) => i.created_by.id === s.w.user.id)).toBe(true)
    },
  },
  {
    method: 'POST', path: '/', status: 201,
    send: send('POST', (s) => `${s.insights}/`, (s) => insightBody(s.dashboardId, 'Rows created')),
    shape: () => insight('uncomputed'),
    csv: { kind: 'records', columns: INSIGHT_COLUMNS },
    values: (body, s) => {
      const { query, ...sent } = insightBody(s.dashboardId, 'Rows created')
      echoes(body, sent)
      expect(body.query).toEqual(JSON.parse(query))
      expect(body.dashboard_tiles).toEqual([{ id: expect.any(Number), dashboard_id: s.dashboardId, deleted: false }])
      expect([body.created_by.id, body.created_by.email, body.last_modified_by.id]).toEqual([s.w.user.id, s.w.user.email, s.w.user.id])
    },
  },
  {
    method: 'GET', path: '/:id/', status: 200,
    send: get((s) => `${s.insights}/${s.insight.id}/?from_dashboard=${s.dashboardId}&refresh=true`),
    shape: () => insight('retrieve'),
    csv: { kind: 'records', columns: INSIGHT_COLUMNS },
    values: async (body, s) => {
      expect(body.id).toBe(s.insight.id)
      const plain = await call('GET', `${s.insights}/${s.insight.id}/`)
      expect(plain.status).toBe(200)
      expect(problems(plain.body, insight('retrieve'))).toEqual([])
    },
  },
  {
    method: 'PATCH', path: '/:id/', status: 200,
    send: send('PATCH', (s) => `${s.insights}/${s.others[0].id}/`, (s) => ({ ...insightBody(s.dashboardId, 'Rows patched'), favorited: false, order: 8 })),
    shape: () => insight('uncomputed'),
    csv: { kind: 'records', columns: INSIGHT_COLUMNS },
    values: async (body, s) => {
      const { query: _query, ...sent } = { ...insightBody(s.dashboardId, 'Rows patched'), favorited: false, order: 8 }
      echoes(body, sent)
      // Section 3: PATCH with `deleted` true is the only way to remove an insight.
      const removed = await call('PATCH', `${s.insights}/${s.others[1].id}/`, { deleted: true })
      expect([removed.status, removed.body.deleted]).toEqual([200, true])
    },
  },
  {
    method: 'DELETE', path: '/:id/', status: 405,
    send: send('DELETE', (s) => `${s.insights}/${s.insight.id}/`),
    csv: { kind: 'bodiless' },
    values: async (_body, s, answer) => {
      // 4.2 rule 1, 7.1: no body, and the insight stays.
      expect(answer.text).toBe('')
      const still = await call('GET', `${s.insights}/${s.insight.id}/`)
      expect([still.status, still.body.deleted]).toEqual([200, false])
    },
  },
  {
    method: 'GET', path: '/:id/activity/', status: 200,
    send: get((s) => `${s.insights}/${s.insight.id}/activity/`),
    shape: () => ACTIVITY,
    csv: { kind: 'records', columns: ACTIVITY_COLUMNS },
    values: (body, s) => expect(body.results.every((e: any) => e.scope === 'Insight' && e.item_id === String(s.insight.id))).toBe(true),
  },
  {
    method: 'POST', path: '/:id/viewed/', status: 200,
    // README: the Insight (computed, as retrieve answers it); the body (the writeable fields) validated, then ignored.
    send: send('POST', (s) => `${s.insights}/${s.insight.id}/viewed/`, (s) => insightBody(s.dashboardId, 'Ignored')),
    shape: () => insight('retrieve'),
    csv: { kind: 'records', columns: INSIGHT_COLUMNS },
    values: (body, s) => expect([body.id, body.name]).toEqual([s.insight.id, s.insight.name]),
  },
  {
    method: 'GET', path: '/activity/', status: 200,
    send: get((s) => `${s.insights}/activity/`),
    shape: () => ACTIVITY,
    csv: { kind: 'records', columns: ACTIVITY_COLUMNS },
  },
  {
    method: 'POST', path: '/cancel/', status: 200,
    send: send('POST', (s) => `${s.insights}/cancel/`, (s) => insightBody(s.dashboardId, 'Rows cancel')),
    shape: () => fields({ ...ACKNOWLEDGED, client_query_id: exactly(null), cancelled: bool }),
    csv: { kind: 'refused' },
  },
  {
    method: 'GET', path: '/funnel/', status: 200,
    // The legacy filter as query parameters (README: GET analysis parameters); without steps it is a 400 (decisionCases).
    send: get((s) => `${s.insights}/funnel/?${queryOf({ events: STEPS })}`),
    shape: () => analysis(arr),
    csv: { kind: 'analysis', file: 'funnel', columns: ['name', 'action_id', 'count'] },
  },
  {
    method: 'POST', path: '/funnel/', status: 200,
    send: send('POST', (s) => `${s.insights}/funnel/`, () => ({ events: STEPS })),
    shape: () => analysis(both2(nonEmptyArrayOf(present), (v, at, out) => (v as unknown[]).forEach((x, i) => step(i === 0)(x, `${at}[${i}]`, out)))),
    csv: { kind: 'analysis', file: 'funnel', columns: ['name', 'action_id', 'count', 'conversion rate (%)', 'conversion from previous step (%)', 'median_conversion_time (seconds)', 'average_conversion_time (seconds)'] },
    values: async (body) => {
      // r1 and r2 entered, r1 converted; DECISIONS: `order` the step's index, `action_id` the event name.
      expect(body.result.map((x: any) => [x.order, x.action_id, x.count])).toEqual([[0, 'row_signup', 2], [1, 'row_paid', 1]])
      // DECISIONS: each people URL answers the list envelope of the persons who converted or dropped.
      const urls = body.result.flatMap((x: any) => [x.converted_people_url, x.dropped_people_url]).filter((u: unknown) => u !== null)
      expect(urls).toHaveLength(3)
      const counts = []
      for (const u of urls) {
        const persons = await call('GET', u)
        expect(persons.status, u).toBe(200)
        expect(problems(persons.body, envelope(fields({ id: str })))).toEqual([])
        counts.push(persons.body.count)
      }
      expect(counts).toEqual([2, 1, 1])
    },
  },
  {
    method: 'GET', path: '/funnel/correlation/', status: 200,
    send: get((s) => `${s.insights}/funnel/correlation/`),
    shape: () => analysis(present),
    csv: { kind: 'analysis', file: 'funnel-correlation', columns: ['event', 'correlation type', 'odds ratio', 'success count', 'failure count'] },
  },
  {
    method: 'POST', path: '/funnel/correlation/', status: 200,
    send: send('POST', (s) => `${s.insights}/funnel/correlation/`, () => DOCUMENT_BODY),
    shape: () => analysis(present),
    csv: { kind: 'analysis', file: 'funnel-correlation', columns: ['event', 'correlation type', 'odds ratio', 'success count', 'failure count'] },
  },
  {
    method: 'GET', path: '/my_last_viewed/', status: 200,
    send: async (s, format) => {
      // 4.2 rule 4: the last 5 viewed, most recent first. View six, the oldest first.
      for (const x of [s.insight, ...s.others.slice(2)]) {
        s.w.tick()
        expect((await call('POST', `${s.insights}/${x.id}/viewed/`, {})).status).toBe(200)
      }
      const answer = await call('GET', withFormat(`${s.insights}/my_last_viewed/`, format))
      s.w.tick()
      return answer
    },
    // README: an array of at most 5 full Insights.
    shape: () => arrayOf(insight('uncomputed')),
    csv: { kind: 'records', columns: INSIGHT_COLUMNS },
    values: (body, s) => expect(body.map((x: { id: number }) => x.id)).toEqual([s.insight, ...s.others.slice(2)].slice(-5).reverse().map((x) => x.id)),
  },
  {
    method: 'GET', path: '/path/', status: 200,
    send: get((s) => `${s.insights}/path/`),
    shape: () => analysis(present),
    csv: { kind: 'analysis', file: 'path', columns: ['source', 'target', 'value', 'average_conversion_time'] },
  },
  {
    method: 'POST', path: '/path/', status: 200,
    send: send('POST', (s) => `${s.insights}/path/`, () => DOCUMENT_BODY),
    shape: () => analysis(present),
    csv: { kind: 'analysis', file: 'path', columns: ['source', 'target', 'value', 'average_conversion_time'] },
  },
  {
    method: 'GET', path: '/retention/', status: 200,
    send: get((s) => `${s.insights}/retention/`),
    shape: () => analysis(present),
    csv: { kind: 'analysis', file: 'retention', columns: ['cohort', 'cohort size', 'Day 0'] },
  },
  {
    method: 'POST', path: '/timing/', status: 200,
    send: send('POST', (s) => `${s.insights}/timing/`, (s) => insightBody(s.dashboardId, 'Rows timing')),
    shape: () => fields({ ...ACKNOWLEDGED, success: exactly(true) }),
    csv: { kind: 'refused' },
  },
  {
    method: 'GET', path: '/trend/', status: 200,
    // The legacy filter as query parameters (README: GET analysis parameters); without series it is a 400 (decisionCases).
    send: get((s) => `${s.insights}/trend/?${queryOf({ events: [{ id: 'row_signup' }] })}`),
    shape: () => analysis(arr),
    csv: { kind: 'analysis', file: 'trend', columns: ['series', 'total'] },
  },
  {
    method: 'POST', path: '/trend/', status: 200,
    send: send('POST', (s) => `${s.insights}/trend/`, () => TREND),
    shape: () => analysis(nonEmptyArrayOf(SERIES)),
    csv: { kind: 'analysis', file: 'trend', columns: ['series', 'total', '8-Jan-2026', '15-Jan-2026'] },
    values: async (body, s) => {
      const [series] = body.result
      // 4.3 defaults: date_from -7d; DECISIONS: date_to now. Daily buckets 2026-01-08 to 2026-01-15.
      expect([series.days[0], series.days.at(-1), series.days.length, series.data.length, series.labels.length]).toEqual(['2026-01-08', '2026-01-15', 8, 8, 8])
      // One pro signup, on the 13th.
      expect(series.data).toEqual([0, 0, 0, 0, 0, 1, 0, 0])
      // Echoed as sent, with the entity's `type` (PostHog's Entity.to_dict).
      expect(series.filter.events).toEqual([{ ...TREND.events[0], type: 'events' }])
      expect(series.filter.properties).toEqual(TREND.properties)
      expect(problems(series.filter.properties, PROPERTY_GROUP)).toEqual([])
      expect(series.filter.filter_test_accounts).toBe(false)
      // 4.4 `compare`: each result for the current and the previous period, marked.
      const compared = await call('POST', `${s.insights}/trend/`, { ...TREND, compare: true })
      expect(compared.status).toBe(200)
      expect(compared.body.result.map((r: any) => [r.compare, r.compare_label]).sort()).toEqual([[true, 'current'], [true, 'previous']])
    },
  },
]

/** A trend naming every filter field 4.4 lists: an event with its properties and math, a properties group. */
const TREND = {
  events: [{ id: 'row_signup', math: 'total', properties: [{ key: 'plan', value: 'pro', operator: 'exact', type: 'event' }] }],
  properties: { type: 'AND', values: [{ key: 'plan', value: 'pro', operator: 'exact', type: 'event' }] },
  filter_test_accounts: false,
}

function both2(...checks: Check[]): Check {
  return (v, at, out) => {
    const before = out.length
    for (const c of checks) {
      c(v, at, out)
      if (out.length > before) return
    }
  }
}

const DEFINITION_PATCH = { name: 'row_patched_renamed', created_at: '2026-01-01T00:00:00Z', last_seen_at: '2026-01-14T12:00:00Z', tags: ['rows'], post_to_slack: true }

const DEFINITION_ROWS: Row[] = [
  {
    method: 'GET', path: '/', status: 200,
    send: get((s) => `${s.definitions}/?limit=1&offset=1`),
    shape: () => envelope(EVENT_DEFINITION),
    values: async (body, s) => {
      await pages(`${s.definitions}/`, body)
      // 2.4: post_to_slack false in the sample (never set here).
      expect((await call('GET', `${s.definitions}/?limit=1000`)).body.results.filter((d: any) => d.name === 'row_signup').map((d: any) => d.post_to_slack)).toEqual([false])
    },
  },
  {
    method: 'GET', path: '/:id/', status: 200,
    send: async (s, format) => call('GET', withFormat(`${s.definitions}/${(await s.definition('row_signup')).id}/`, format)),
    shape: () => EVENT_DEFINITION,
    values: async (body, s) => expect(body).toEqual(await s.definition('row_signup')),
  },
  {
    method: 'PATCH', path: '/:id/', status: 200,
    send: async (s) => call('PATCH', `${s.definitions}/${(await s.definition('row_patched')).id}/`, DEFINITION_PATCH),
    shape: () => EVENT_DEFINITION,
    values: (body) => {
      expect([body.name, body.tags, body.post_to_slack]).toEqual([DEFINITION_PATCH.name, DEFINITION_PATCH.tags, true])
      expect([Date.parse(body.created_at), Date.parse(body.last_seen_at)]).toEqual([Date.parse(DEFINITION_PATCH.created_at), Date.parse(DEFINITION_PATCH.last_seen_at)])
    },
  },
  {
    // README: 204, no body (the document does not show it).
    method: 'DELETE', path: '/:id/', status: 204,
    send: async (s) => call('DELETE', `${s.definitions}/${(await s.definition('row_deleted')).id}/`),
    values: async (_body, s, answer) => {
      expect(answer.text).toBe('')
      expect(await s.definition('row_deleted')).toBeUndefined()
    },
  },
]

/** Checks the CSV answer of an insight row against the README's CSV section. */
function checkCsv(row: Row, csv: Csv, answer: Answer): void {
  if (csv.kind === 'bodiless') {
    expect([answer.status, answer.text]).toEqual([row.status, ''])
    return
  }
  if (csv.kind === 'refused') {
    expect([answer.status, answer.body?.type, answer.body?.attr]).toEqual([400, 'validation_error', 'format'])
    return
  }
  expect(answer.status, answer.text.slice(0, 300)).toBe(row.status)
  expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8')
  const header = answer.text.split('\r\n')[0]!.split(',')
  if (csv.kind === 'analysis') {
    expect(answer.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="export-${csv.file}-\\d{4}-\\d{2}-\\d{2}-\\d{6}\\.csv"$`))
    expect(csv.columns.filter((c) => !header.includes(c))).toEqual([])
  } else {
    // Nested fields are dotted headers: each documented field is a column or the prefix of some.
    expect(csv.columns.filter((c) => !header.some((h) => h === c || h.startsWith(`${c}.`)))).toEqual([])
    expect(answer.text.split('\r\n').length).toBeGreaterThan(2)
  }
}

async function open(target: ConformanceTarget): Promise<{ db: FreshDatabase; s: State }> {
  const db = await target.fresh()
  const serverErrors: unknown[] = []
  const w = await rowsWorld(db.storage(), (error) => void serverErrors.push(error))
  call = async (method, path, body) => {
    return readAnswer(await w.call(method, path.startsWith('http') ? path.slice(new URL(path).origin.length) : path, body))
  }
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

function rowCases(rows: ReadonlyArray<Row>, state: () => State): void {
  for (const row of rows) {
    const name = `${row.method} ${row.path}: ${row.status}`
    it(name, async () => {
      const s = state()
      const answer = await row.send(s)
      expect(answer.status, answer.text.slice(0, 400)).toBe(row.status)
      if (row.shape) {
        expect(answer.headers.get('content-type')).toMatch(/^application\/json/)
        expect(problems(answer.body, row.shape(s))).toEqual([])
      }
      await row.values?.(answer.body, s, answer)
    })
    if (row.csv) {
      const csv = row.csv
      it(`${name}, ?format=csv`, async () => checkCsv(row, csv, await row.send(state(), 'csv')))
      it(`${name}, ?format=json`, async () => {
        const answer = await row.send(state(), 'json')
        expect(answer.status, answer.text.slice(0, 300)).toBe(row.status)
        if (row.shape) expect(problems(answer.body, row.shape(state()))).toEqual([])
        else expect(answer.text).toBe('')
      })
    }
  }
}

/**
 * Rows of 4.4 checked beyond the main request: the filter of a request naming
 * no math or properties, and of an action (README: a trend result's filter).
 */
function trendFilterCases(state: () => State): void {
  it('POST /trend/: the filter of a request naming no properties, math or actions holds 4.4: both lists, each element with properties and math, properties an object', async () => {
    const s = state()
    const answer = await call('POST', `${s.insights}/trend/`, { events: [{ id: 'row_signup' }] })
    expect(answer.status).toBe(200)
    const { filter } = answer.body.result[0]
    expect(problems(filter, FILTER)).toEqual([])
    // README: an unnamed math is `total` (the math used), unnamed properties [] on an element and
    // PostHog's empty PropertyGroup.to_dict(), {}, at the top; no actions asked, none echoed.
    expect([filter.events, filter.actions, filter.properties]).toEqual([[{ id: 'row_signup', type: 'events', math: 'total', properties: [] }], [], {}])
  })
  it('POST /trend/: a flat list of conditions is echoed as the AND group of them (PostHog\'s Filter.to_dict)', async () => {
    const s = state()
    const condition = { key: 'plan', value: 'pro', operator: 'exact', type: 'event' }
    const answer = await call('POST', `${s.insights}/trend/`, { events: [{ id: 'row_signup' }], properties: [condition] })
    expect(answer.status).toBe(200)
    expect(answer.body.result[0].filter.properties).toEqual({ type: 'AND', values: [condition] })
  })
  it("POST /trend/: an action's filter element is 4.4's but for `id`, the action's integer id as decided (README: a trend result's filter.actions[].id)", async () => {
    const s = state()
    const action = await s.w.sightline.actions.create(s.w.project.id, { name: 'Rows paid', steps: [{ event: 'row_paid' }] })
    const answer = await call('POST', `${s.insights}/trend/`, { actions: [{ id: action.id, math: 'total', properties: [] }] })
    expect(answer.status).toBe(200)
    const { filter } = answer.body.result[0]
    // Every documented field, with `id` held to the decision instead of 4.4's string.
    expect(problems(filter, fields({ ...FILTER_FIELDS, actions: arrayOf(fields({ ...ENTITY_FIELDS, id: exactly(action.id) })) }))).toEqual([])
    expect([filter.actions, filter.events]).toEqual([[{ id: action.id, type: 'actions', math: 'total', properties: [] }], []])
  })
}

/** Where the http-adapter README's table decides against the document's letter: checked as decided. */
function decisionCases(state: () => State): void {
  it('GET /trend/ and /funnel/ with no series: 400 naming events (README: analyses with no series)', async () => {
    const s = state()
    for (const analysis of ['trend', 'funnel']) {
      const answer = await call('GET', `${s.insights}/${analysis}/`)
      expect(answer.status, analysis).toBe(400)
      expect(answer.body, analysis).toMatchObject({ type: 'validation_error', attr: 'events' })
    }
  })
}

/** Every row of interface section 4 on one storage, through `createHandler`. */
export function interfaceRowCases(target: ConformanceTarget): void {
  describe(`interface section 4, row by row: ${target.name}`, () => {
    let db: FreshDatabase
    let s: State
    beforeAll(async () => {
      ;({ db, s } = await open(target))
    })
    afterAll(async () => {
      await s?.w.close()
      await db?.dispose()
    })
    const state = () => s
    describe('4.1 plugins', () => rowCases(PLUGIN_ROWS, state))
    describe('4.2 insights', () => {
      rowCases(INSIGHT_ROWS, state)
      trendFilterCases(state)
      decisionCases(state)
    })
    describe('4.5 event definitions', () => rowCases(DEFINITION_ROWS, state))
    it('no row answered a 500', () => expect(s.serverErrors).toEqual([]))
  })
}
