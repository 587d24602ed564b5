import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ConformanceTarget } from '../conformance/target.js'
import { type Answer, type CallInit, type Live, REPOSITORY, serve, STAMP } from './harness.js'
import { analysisWalks } from './walk-analyses.cases.js'
import { cohortAnalysisWalks } from './walk-cohort-analyses.cases.js'
import { dashboardWalks } from './walk-dashboards.cases.js'
import { captureWalkData } from './walk-data.js'
import { recordWalks } from './walk-records.cases.js'

const NOT_FOUND = { type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null }

/** What the walk's cases in other files share: the server and the recording call. */
export interface Walk {
  /** The server under test, once the walk has started. */
  readonly live: Live
  /** Calls, checks the status, and records the operation as walked. */
  call(method: string, path: string, status: number, init?: CallInit): Promise<Answer>
  /** Tenant A's user as PostHog embeds it (`created_by`). */
  userBasic(): Record<string, unknown>
}

/**
 * Every endpoint of the interface that exists now, called once over the
 * network with its success answer checked field for field; the last case
 * checks that the walk covered every operation of `/api/schema/`.
 */
export function walkCases(target: ConformanceTarget): void {
  describe('every endpoint, exact shapes', () => {
    let live: Live
    let doc: { paths: Record<string, Record<string, unknown>> }
    const walked = new Set<string>()

    beforeAll(async () => {
      live = await serve(target)
      doc = (await live.call('GET', '/api/schema/', { key: null })).body
    })
    afterAll(() => live.close())

    /** The documented operation of a path: a literal segment beats a parameter, as in the router. */
    const templateOf = (path: string): string => {
      const bare = path.split('?')[0]!.replace(/\/?$/, '/')
      const shape = (t: string) => t.split('/').map((s) => (s.startsWith('{') ? '1' : '0')).join('')
      const found = Object.keys(doc.paths)
        .filter((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare))
        .sort((x, y) => shape(x).localeCompare(shape(y)))[0]
      if (!found) throw new Error(`${path} is not documented`)
      return found
    }

    /** Calls, checks the status, and records the operation as walked. */
    async function call(method: string, path: string, status: number, init: CallInit = {}): Promise<Answer> {
      const answer = await live.call(method, path, init)
      expect(answer.status, `${method} ${path}: ${answer.text.slice(0, 400)}`).toBe(status)
      walked.add(`${method} ${templateOf(path)}`)
      return answer
    }

    const userBasic = () => ({
      id: live.a.user.id,
      uuid: live.a.user.uuid,
      distinct_id: live.a.user.distinctId,
      first_name: 'Acme',
      email: 'ada@acme.test',
      is_email_verified: false,
    })

    test('users/@me, organizations, projects', async () => {
      const { a } = live
      expect((await call('GET', '/api/users/@me/', 200)).body).toEqual({
        id: a.user.id,
        uuid: a.user.uuid,
        distinct_id: a.user.distinctId,
        first_name: 'Acme',
        last_name: '',
        email: 'ada@acme.test',
        is_email_verified: false,
        date_joined: STAMP,
        organizations: [{ id: a.org.id, name: 'Acme Org' }],
      })
      const team = {
        id: a.project.id,
        uuid: a.project.uuid,
        organization: a.org.id,
        project_id: a.project.id,
        api_token: a.project.apiToken,
        name: 'Acme Web',
        timezone: 'UTC',
      }
      const organization = { id: a.org.id, name: 'Acme Org', created_at: STAMP, teams: [team] }
      expect((await call('GET', '/api/organizations/', 200)).body).toEqual({ count: 1, next: null, previous: null, results: [organization] })
      expect((await call('GET', `/api/organizations/${a.org.id}/`, 200)).body).toEqual(organization)

      const project = { ...team, week_start_day: 0, test_account_filters: [], path_cleaning_filters: [], created_at: STAMP, updated_at: STAMP }
      expect((await call('GET', '/api/projects/', 200)).body).toEqual({ count: 1, next: null, previous: null, results: [project] })
      const created = (await call('POST', '/api/projects/', 201, { body: { name: 'Mobile', timezone: 'Europe/Paris' } })).body
      expect(created).toEqual({
        id: expect.any(Number),
        uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
        organization: a.org.id,
        project_id: created.id,
        api_token: expect.stringMatching(/^phc_/),
        name: 'Mobile',
        timezone: 'Europe/Paris',
        week_start_day: 0,
        test_account_filters: [],
        path_cleaning_filters: [],
        created_at: STAMP,
        updated_at: STAMP,
      })
      expect((await call('GET', `/api/projects/${a.project.id}/`, 200)).body).toEqual(project)
      const filters = [{ key: 'email', value: '@acme.test', operator: 'not_icontains', type: 'person' }]
      expect((await call('PATCH', `/api/projects/${a.project.id}/`, 200, { body: { week_start_day: 1, test_account_filters: filters } })).body).toEqual({
        ...project,
        week_start_day: 1,
        test_account_filters: filters,
      })
    })

    test('capture on every path and method, then event definitions', async () => {
      const token = live.a.project.apiToken
      const payload = (event: string) => JSON.stringify({ api_key: token, batch: [{ event, distinct_id: 'walker' }] })
      for (const path of ['/batch/', '/capture/', '/e/', '/i/v0/e/', '/track/']) {
        expect((await call('POST', path, 200, { key: null, body: payload(`post ${path}`) })).body).toEqual({ status: 1 })
        const data = encodeURIComponent(Buffer.from(payload(`get ${path}`)).toString('base64'))
        expect((await call('GET', `${path}?data=${data}`, 200, { key: null })).body).toEqual({ status: 1 })
      }
      const engage = JSON.stringify({ token, distinct_id: 'walker', $set: { plan: 'pro' } })
      expect((await call('POST', '/engage/', 200, { key: null, body: engage })).body).toEqual({ status: 1 })
      expect((await call('GET', `/engage/?data=${encodeURIComponent(Buffer.from(engage).toString('base64'))}`, 200, { key: null })).body).toEqual({ status: 1 })
      const [stored] = await live.db.raw<{ n: number }>(`select count(*) as n from events where project_id = ${live.a.project.id}`)
      expect(stored!.n).toBe(12)

      const p = live.a.project.id
      const list = (await call('GET', `/api/projects/${p}/event_definitions/?search=post`, 200)).body
      expect(list).toMatchObject({ count: 5, next: null, previous: null })
      const definition = list.results.find((d: { name: string }) => d.name === 'post /batch/')
      expect(definition).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'post /batch/',
        created_at: STAMP,
        last_seen_at: STAMP,
        last_updated_at: STAMP,
        tags: [],
        is_action: false,
        action_id: null,
        is_calculating: false,
        last_calculated_at: null,
        created_by: null,
        post_to_slack: false,
      })
      const path = `/api/projects/${p}/event_definitions/${definition.id}/`
      expect((await call('GET', path, 200)).body).toEqual(definition)
      expect((await call('PATCH', path, 200, { body: { tags: ['walked'], post_to_slack: true } })).body).toEqual({ ...definition, tags: ['walked'], post_to_slack: true })
      expect((await call('DELETE', path, 204)).text).toBe('')
      expect((await live.call('GET', path)).body).toEqual(NOT_FOUND)
    })

    test('plugins: all twelve operations', async () => {
      const { a } = live
      const base = `/api/organizations/${a.org.id}/plugins`
      const geoip = REPOSITORY[0]!
      const installed = (await call('POST', `${base}/`, 201, { body: { url: geoip.url, plugin_type: 'repository', tag: 'v1' } })).body
      const plugin = {
        id: installed.id,
        plugin_type: 'repository',
        name: 'GeoIP',
        description: 'Adds location properties.',
        url: geoip.url,
        icon: geoip.icon,
        config_schema: {},
        tag: 'v1',
        latest_tag: null,
        is_global: false,
        organization_id: a.org.id,
        organization_name: 'Acme Org',
        capabilities: {},
        metrics: {},
        public_jobs: {},
        hog_function_migration_available: false,
      }
      expect(installed).toEqual(plugin)
      expect((await call('GET', `${base}/`, 200)).body).toEqual({ count: 1, next: null, previous: null, results: [plugin] })
      expect((await call('GET', `${base}/${plugin.id}/`, 200)).body).toEqual(plugin)
      const patched = { ...plugin, description: 'Where users are', metrics: { events: 'sum' } }
      expect((await call('PATCH', `${base}/${plugin.id}/`, 200, { body: { description: 'Where users are', metrics: { events: 'sum' } } })).body).toEqual(patched)
      const checked = { ...patched, latest_tag: 'v2' }
      expect((await call('GET', `${base}/${plugin.id}/check_for_updates/`, 200)).body).toEqual({ ...checked, plugin: checked })
      expect((await call('POST', `${base}/${plugin.id}/upgrade/`, 200, { body: {} })).body).toEqual({ ...checked, tag: 'v2' })

      const source = (await call('POST', `${base}/`, 201, { body: { name: 'Inline', plugin_type: 'source' } })).body
      expect(source).toMatchObject({ plugin_type: 'source', name: 'Inline', url: null, tag: '', latest_tag: null })
      expect((await call('GET', `${base}/${source.id}/source/`, 200)).body).toEqual({})
      const files = { 'plugin.json': '{"name":"Inline v2","config":[{"key":"greeting","type":"string"}]}', 'index.ts': 'export function processEvent(e) { return e }' }
      expect((await call('PATCH', `${base}/${source.id}/update_source/`, 200, { body: files })).body).toEqual({
        'index.ts': files['index.ts'],
        'plugin.json': files['plugin.json'],
      })
      expect((await call('GET', `${base}/${source.id}/source/`, 200)).body).toEqual({ 'index.ts': files['index.ts'], 'plugin.json': files['plugin.json'] })

      const activity = (await call('GET', `${base}/activity/?limit=2`, 200)).body
      expect(activity).toEqual({
        results: [
          {
            user: { first_name: 'Acme', email: 'ada@acme.test' },
            activity: 'source_updated',
            scope: 'Plugin',
            item_id: String(source.id),
            detail: {
              changes: [
                { type: 'Plugin', action: 'created', field: 'plugin.json', before: null, after: files['plugin.json'] },
                { type: 'Plugin', action: 'created', field: 'index.ts', before: null, after: files['index.ts'] },
                { type: 'Plugin', action: 'changed', field: 'name', before: 'Inline', after: 'Inline v2' },
                { type: 'Plugin', action: 'changed', field: 'config_schema', before: {}, after: [{ key: 'greeting', type: 'string' }] },
              ],
              trigger: null,
              name: 'Inline v2',
              short_id: null,
            },
            created_at: STAMP,
          },
          expect.objectContaining({ activity: 'installed', item_id: String(source.id) }),
        ],
        next: `${live.origin}${base}/activity/?limit=2&page=2`,
        previous: null,
        total_count: 5,
      })
      expect((await call('GET', `${base}/repository/`, 200)).body).toEqual([
        { name: 'GeoIP', url: geoip.url, description: 'Adds location properties.', icon: geoip.icon, tag: 'v2' },
        { name: 'Taxonomy', url: 'https://github.com/PostHog/taxonomy-plugin', description: 'Standardizes event names.', icon: '', tag: 'abc123', type: 'transformation' },
      ])
      await live.sightline.pluginConfigs.create(a.project.id, { pluginId: plugin.id, enabled: true })
      expect((await call('GET', `${base}/unused/`, 200)).body).toEqual([source.id])
      const removed = await call('DELETE', `${base}/${source.id}/`, 204)
      expect(removed.text).toBe('')
      expect((await live.call('GET', `${base}/${source.id}/`)).body).toEqual(NOT_FOUND)
      expect(await live.db.raw(`select count(*) as n from plugin_source_files where plugin_id = ${source.id}`)).toEqual([{ n: 0 }])
    })

    test('insights: all nine operations, DELETE refused with an empty 405', async () => {
      const { a } = live
      const base = `/api/projects/${a.project.id}/insights`
      const created = (await call('POST', `${base}/`, 201, {
        body: { name: 'Signups', filters: { insight: 'TRENDS', events: [{ id: 'signed_up' }] }, tags: ['Growth'], query: '{"kind":"TrendsQuery"}' },
      })).body
      const insight = {
        id: created.id,
        short_id: created.short_id,
        name: 'Signups',
        derived_name: null,
        filters: { insight: 'TRENDS', events: [{ id: 'signed_up' }] },
        query: { kind: 'TrendsQuery' },
        order: null,
        deleted: false,
        dashboards: [],
        dashboard_tiles: [],
        last_refresh: null,
        next_allowed_client_refresh: null,
        result: null,
        created_at: STAMP,
        created_by: userBasic(),
        description: null,
        updated_at: STAMP,
        tags: ['growth'],
        favorited: false,
        saved: true,
        last_modified_at: STAMP,
        last_modified_by: userBasic(),
        is_sample: false,
        effective_restriction_level: 21,
        effective_privilege_level: 37,
        timezone: 'UTC',
        is_cached: false,
      }
      expect(created).toEqual(insight)
      expect(created.short_id).toMatch(/^[A-Za-z0-9]{8}$/)
      expect((await call('GET', `${base}/`, 200)).body).toEqual({ count: 1, next: null, previous: null, results: [insight] })
      expect((await call('GET', `${base}/${insight.id}/?from_dashboard=1&refresh=true`, 200)).body).toEqual(insight)
      const dashboard = await live.sightline.dashboards.create(a.project.id, { name: 'Main' })
      const patched = (await call('PATCH', `${base}/${insight.id}/`, 200, { body: { description: 'Weekly', dashboards: [dashboard.id] } })).body
      expect(patched).toEqual({
        ...insight,
        description: 'Weekly',
        dashboards: [dashboard.id],
        dashboard_tiles: [{ id: expect.any(Number), dashboard_id: dashboard.id, deleted: false }],
      })

      const refused = await call('DELETE', `${base}/${insight.id}/`, 405)
      expect(refused.text).toBe('')
      expect(refused.headers.get('allow')).toBe('GET, PATCH, HEAD, OPTIONS')
      expect(await live.db.raw(`select deleted from insights where id = ${insight.id}`)).toEqual([{ deleted: false }])

      expect((await call('POST', `${base}/${insight.id}/viewed/`, 200, { body: {} })).body).toEqual(patched)
      expect((await call('GET', `${base}/my_last_viewed/`, 200)).body).toEqual([patched])
      const history = (await call('GET', `${base}/${insight.id}/activity/`, 200)).body
      expect(history).toEqual({
        results: [
          {
            user: { first_name: 'Acme', email: 'ada@acme.test' },
            activity: 'updated',
            scope: 'Insight',
            item_id: String(insight.id),
            detail: {
              changes: [
                { type: 'Insight', action: 'created', field: 'description', before: null, after: 'Weekly' },
                { type: 'Insight', action: 'changed', field: 'dashboards', before: [], after: [{ id: dashboard.id, name: 'Main' }] },
              ],
              trigger: null,
              name: 'Signups',
              short_id: insight.short_id,
            },
            created_at: STAMP,
          },
          {
            user: { first_name: 'Acme', email: 'ada@acme.test' },
            activity: 'created',
            scope: 'Insight',
            item_id: String(insight.id),
            detail: { changes: [], trigger: null, name: 'Signups', short_id: insight.short_id },
            created_at: STAMP,
          },
        ],
        next: null,
        previous: null,
        total_count: 2,
      })
      expect((await call('GET', `${base}/activity/`, 200)).body).toEqual(history)

      // Soft delete and restore: the only way to remove an insight.
      expect((await live.call('PATCH', `${base}/${insight.id}/`, { body: { deleted: true } })).body.deleted).toBe(true)
      expect((await live.call('GET', `${base}/${insight.id}/`)).body).toEqual(NOT_FOUND)
      expect((await live.call('GET', `${base}/my_last_viewed/`)).body).toEqual([])
      expect((await live.call('PATCH', `${base}/${insight.id}/`, { body: { deleted: false } })).status).toBe(200)
    })

    describe('actions, cohorts and analyses over captured events', () => {
      const walk: Walk = { get live() { return live }, call, userBasic }
      beforeAll(() => captureWalkData(live))
      recordWalks(walk)
      analysisWalks(walk)
      cohortAnalysisWalks(walk)
      dashboardWalks(walk)
    })

    test('feature flags and /decide/: answered as a PostHog project with none, so a PostHog client runs quietly', async () => {
      const token = live.a.project.apiToken
      const v2 = await call('POST', '/flags/?v=2', 200, { key: null, body: { token, distinct_id: 'walker' } })
      expect(v2.body).toEqual({ flags: {}, errorsWhileComputingFlags: false, requestId: expect.any(String) })
      // A GET carries the payload as capture's GET does: base64 JSON in `data`.
      const data = encodeURIComponent(Buffer.from(JSON.stringify({ distinct_id: 'walker' })).toString('base64'))
      const legacy = await call('GET', `/flags/?token=${token}&data=${data}`, 200, { key: null })
      expect(legacy.body).toMatchObject({ featureFlags: {}, featureFlagPayloads: {}, errorsWhileComputingFlags: false })
      for (const path of [`/flags/definitions/?token=${token}`, `/api/feature_flag/local_evaluation/?token=${token}`]) {
        expect((await call('GET', path, 200)).body).toEqual({ flags: [], group_type_mapping: {}, cohorts: {} })
      }
      // /decide/ for older SDKs: nothing enabled; the flags by version (README, Feature flags).
      expect((await call('POST', '/decide/?v=3', 200, { key: null, body: { token, distinct_id: 'walker' } })).body).toMatchObject({ featureFlags: {}, featureFlagPayloads: {}, sessionRecording: false, siteApps: [] })
      expect((await call('GET', `/decide/?token=${token}&data=${data}`, 200, { key: null })).body).toMatchObject({ featureFlags: [], config: { enable_collect_everything: true } })
      // posthog-js's remote config, JSON and script: no flags, nothing enabled.
      expect((await call('GET', `/array/${token}/config`, 200, { key: null })).body).toMatchObject({ token, hasFeatureFlags: false, siteApps: [] })
      const script = await call('GET', `/array/${token}/config.js`, 200, { key: null })
      expect(script.text).toContain('window._POSTHOG_REMOTE_CONFIG')
    })

    test('the schema, and the walk covered every documented operation', async () => {
      const schema = await call('GET', '/api/schema/', 200, { key: null })
      expect(schema.body.openapi).toBe('3.1.0')
      const documented = Object.entries(doc.paths).flatMap(([t, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${t}`))
      expect(documented.filter((op) => !walked.has(op))).toEqual([])
      expect(live.serverErrors).toEqual([])
    })
  })
}
