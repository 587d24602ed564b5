import type { ApiScope } from '@sightline/core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ConformanceTarget } from '../conformance/target.js'
import { type Ids, type Operation, operations } from './catalogue.js'
import { type Live, serve } from './harness.js'

const NOT_FOUND = { type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null }

/** Tenant A's records the operations aim at, and the texts none of B's answers may contain. */
async function seed(live: Live): Promise<{ ids: Ids; secrets: string[] }> {
  const { a, sightline } = live
  await sightline.capture(a.project.id, [{ event: 'acme_secret_event', distinctId: 'acme-secret-person' }])
  const [definition] = (await sightline.eventDefinitions.list(a.project.id)).results
  const plugin = await sightline.plugins.create(a.org.id, { name: 'Acme secret plugin', description: 'acme-secret-description' })
  await sightline.plugins.updateSource(a.org.id, plugin.id, { 'index.ts': '// acme-secret-source' })
  const insight = await sightline.insights.create(a.project.id, { name: 'Acme secret insight', filters: { secret: 'acme-secret-filter' } }, { userId: a.user.id })
  await sightline.insights.viewed(a.project.id, insight.id, { userId: a.user.id })
  const action = await sightline.actions.create(a.project.id, { name: 'Acme secret action', steps: [{ event: 'acme_secret_event' }] }, { userId: a.user.id })
  const cohort = await sightline.cohorts.create(a.project.id, { name: 'Acme secret cohort', isStatic: true, distinctIds: ['acme-secret-person'] }, { userId: a.user.id })
  const dashboard = await sightline.dashboards.create(a.project.id, { name: 'Acme secret dashboard', filters: { date_from: '-7d', secret: 'acme-secret-dashboard-filter' } }, { userId: a.user.id })
  await sightline.dashboards.addTile(a.project.id, dashboard.id, { insightId: insight.id, color: 'acme-secret-colour' })
  return {
    ids: { orgId: a.org.id, projectId: a.project.id, pluginId: plugin.id, insightId: insight.id, definitionId: definition!.id, actionId: action.id, cohortId: cohort.id, dashboardId: dashboard.id },
    secrets: [
      a.org.id, a.org.name, a.project.name, a.project.apiToken, a.project.uuid, a.user.email, insight.shortId,
      'acme_secret_event', 'Acme secret plugin', 'acme-secret-description', 'acme-secret-source', 'Acme secret insight', 'acme-secret-filter',
      'Acme secret action', 'Acme secret cohort', 'acme-secret-person', 'Acme secret dashboard', 'acme-secret-dashboard-filter', 'acme-secret-colour',
    ],
  }
}

/** What tenant A has, read straight from the database: no refused request may change it. */
async function snapshot(live: Live) {
  const p = live.a.project.id
  return {
    projects: await live.db.raw(`select id, name, week_start_day from projects order by id`),
    plugins: await live.db.raw(`select id, name, description, tag from plugins order by id`),
    sources: await live.db.raw(`select plugin_id, filename, source from plugin_source_files order by plugin_id, filename`),
    insights: await live.db.raw(`select id, name, description, deleted from insights where project_id = ${p} order by id`),
    definitions: await live.db.raw(`select id, name, tags from event_definitions where project_id = ${p} order by id`),
    actions: await live.db.raw(`select id, name, description, deleted from actions where project_id = ${p} order by id`),
    cohorts: await live.db.raw(`select id, name, description, deleted from cohorts where project_id = ${p} order by id`),
    dashboards: await live.db.raw(`select id, name, description, deleted from dashboards where project_id = ${p} order by id`),
    tiles: await live.db.raw(`select t.id, t.color, t.deleted from dashboard_tiles t join dashboards d on d.id = t.dashboard_id where d.project_id = ${p} order by t.id`),
    events: await live.db.raw(`select count(*) as n from events where project_id = ${p}`),
  }
}

/**
 * No key, a wrong key and a missing scope, on every keyed operation: refused
 * before anything is read, and nothing changes.
 */
export function refusalCases(target: ConformanceTarget): void {
  describe('authentication refusals, on every operation', () => {
    let live: Live
    let ops: Operation[]

    beforeAll(async () => {
      live = await serve(target)
      ops = operations((await seed(live)).ids)
    })
    afterAll(() => live.close())

    const keyed = () => ops.filter((op) => op.access !== 'public')
    const bodyOf = (op: Operation) => op.body

    test('no key: 401 not_authenticated; a wrong key: 401 authentication_failed; on every keyed operation', async () => {
      const before = await snapshot(live)
      for (const op of keyed()) {
        const none = await live.call(op.method, op.path, { key: null, body: bodyOf(op) })
        expect(none.status, `${op.method} ${op.path}`).toBe(401)
        expect(none.headers.get('www-authenticate')).toBe('Bearer')
        expect(none.body).toEqual({ type: 'authentication_error', code: 'not_authenticated', detail: 'Authentication credentials were not provided.', attr: null })
        const wrong = await live.call(op.method, op.path, { key: 'phx_this_key_was_never_issued_000000', body: bodyOf(op) })
        expect(wrong.status, `${op.method} ${op.path}`).toBe(401)
        expect(wrong.body).toEqual({
          type: 'authentication_error',
          code: 'authentication_failed',
          detail: 'Personal API key found in request Authorization header is invalid.',
          attr: null,
        })
      }
      expect(await snapshot(live)).toEqual(before)
    })

    test('a key without the scope: 403 naming it, before any lookup; the scope (or its :write) is enough', async () => {
      const before = await snapshot(live)
      const unrelated = await live.keyWith('query:read')
      for (const op of keyed().filter((o) => o.access !== 'authenticated')) {
        const denied = await live.call(op.method, op.path, { key: unrelated, body: bodyOf(op) })
        expect(denied.status, `${op.method} ${op.path}`).toBe(403)
        expect(denied.body).toEqual({ type: 'authentication_error', code: 'permission_denied', detail: `API key missing required scope '${op.access}'`, attr: null })
        // The scope is checked first: a record that does not exist is no different.
        const missing = await live.call(op.method, op.path.replace(/\/\d+\/(?=[a-z_]*\/?$)/, '/999999/'), { key: unrelated, body: bodyOf(op) })
        expect(missing.status, `${op.method} ${op.path} (missing)`).toBe(403)
      }
      expect(await snapshot(live)).toEqual(before)
      // Read operations take their `:read` scope or its `:write`; `users/@me` any valid key.
      for (const op of keyed().filter((o) => o.method === 'GET')) {
        const scope = op.access === 'authenticated' ? 'cohort:read' : op.access
        for (const granted of [scope, scope.replace(/:read$/, ':write')] as ApiScope[]) {
          const r = await live.call('GET', op.path, { key: await live.keyWith(granted, ...op.alsoNeeds) })
          expect(r.status, `GET ${op.path} with ${granted}`).toBe(200)
        }
        // A scope the handler asks for after the route's is refused by name too.
        for (const needed of op.alsoNeeds) {
          const r = await live.call('GET', op.path, { key: await live.keyWith(scope as ApiScope, ...op.alsoNeeds.filter((s) => s !== needed)) })
          expect([r.status, r.body?.detail], `GET ${op.path} without ${needed}`).toEqual([403, `API key missing required scope '${needed}'`])
        }
      }
    })

  })
}

/**
 * Tenant isolation on every operation: a second organization's key gets a 404
 * for every record of the first, identical to a missing record's, and never a
 * byte of it; nothing it sends changes the first organization's records.
 */
export function isolationCases(target: ConformanceTarget): void {
  describe('tenant isolation, on every operation', () => {
    let live: Live
    let ops: Operation[]
    let secrets: string[]

    beforeAll(async () => {
      live = await serve(target)
      const seeded = await seed(live)
      ops = operations(seeded.ids)
      secrets = seeded.secrets
    })
    afterAll(() => live.close())

    const bodyOf = (op: Operation) => op.body

    test("a second organization's key: every record of the first is a 404 identical to a missing one's, and shows nothing", async () => {
      const before = await snapshot(live)
      const theirs = live.b.key
      for (const op of ops.filter((o) => o.tenancy === 'owned')) {
        const r = await live.call(op.method, op.path, { key: theirs, body: bodyOf(op) })
        expect(r.status, `${op.method} ${op.path}`).toBe(404)
        expect(r.body, `${op.method} ${op.path}`).toEqual(NOT_FOUND)
        for (const secret of secrets) expect(r.text, `${op.method} ${op.path}`).not.toContain(secret)
      }
      // Operations without a record in the path answer the caller's own things.
      for (const op of ops.filter((o) => o.tenancy === 'caller')) {
        const r = await live.call(op.method, op.path, { key: theirs, body: bodyOf(op) })
        expect(r.status, `${op.method} ${op.path}`).toBe(op.success)
        for (const secret of secrets) expect(r.text, `${op.method} ${op.path}`).not.toContain(secret)
      }
      // Naming the first organization in a body is refused like a missing organization.
      const sneaky = await live.call('POST', '/api/projects/', { key: theirs, body: { name: 'Sneaky', organization: live.a.org.id } })
      expect(sneaky.status).toBe(400)
      expect(sneaky.body).toMatchObject({ type: 'validation_error', code: 'does_not_exist', attr: 'organization' })
      // A's plugin, insight, action and cohort ids under B's own organization and project are missing there too (DELETE of the last three is always refused).
      const inB = (path: string) => path.replace(live.a.org.id, live.b.org.id).replace(`/projects/${live.a.project.id}/`, `/projects/${live.b.project.id}/`)
      for (const op of ops.filter((o) => o.tenancy === 'owned' && /(plugins|insights|event_definitions|actions|cohorts|dashboards)\/\{id\}\//.test(o.template))) {
        const r = await live.call(op.method, inB(op.path), { key: theirs, body: bodyOf(op) })
        const refused = op.method === 'DELETE' && /(insights|actions|cohorts|dashboards)\/\{id\}\/$/.test(op.template) && r.status === 405
        expect(r.status === 404 || refused, `${op.method} ${inB(op.path)} → ${r.status}`).toBe(true)
        for (const secret of secrets) expect(r.text).not.toContain(secret)
      }
      const after = await snapshot(live)
      // B created its own project and plugin ('caller' POSTs); A's records are untouched.
      expect(after.insights).toEqual(before.insights)
      expect(after.definitions).toEqual(before.definitions)
      expect(after.actions).toEqual(before.actions)
      expect(after.cohorts).toEqual(before.cohorts)
      expect(after.dashboards).toEqual(before.dashboards)
      expect(after.tiles).toEqual(before.tiles)
      expect(after.events).toEqual(before.events)
      expect(after.sources).toEqual(before.sources)
      expect(after.plugins.filter((p) => before.plugins.some((q) => q.id === p.id))).toEqual(before.plugins)
      expect(after.projects.filter((p) => before.projects.some((q) => q.id === p.id))).toEqual(before.projects)
      expect(live.serverErrors).toEqual([])
    })

    test('capture: a project token writes only into its own project', async () => {
      const [before] = await live.db.raw<{ n: number }>(`select count(*) as n from events where project_id = ${live.a.project.id}`)
      const theirs = JSON.stringify({ api_key: live.b.project.apiToken, batch: [{ event: 'bravo_only', distinct_id: 'b' }] })
      expect((await live.call('POST', '/batch/', { key: null, body: theirs })).body).toEqual({ status: 1 })
      expect(await live.db.raw(`select count(*) as n from events where project_id = ${live.a.project.id}`)).toEqual([before])
      expect(await live.db.raw(`select event from events where project_id = ${live.b.project.id}`)).toEqual([{ event: 'bravo_only' }])
      // A personal API key is no capture token.
      const withKey = await live.call('POST', '/batch/', { key: null, body: JSON.stringify({ api_key: live.b.key, batch: [{ event: 'x', distinct_id: 'b' }] }) })
      expect(withKey.status).toBe(401)
      expect(await live.db.raw(`select count(*) as n from events where project_id = ${live.a.project.id}`)).toEqual([before])
    })
  })
}
