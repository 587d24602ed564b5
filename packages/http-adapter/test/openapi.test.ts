// ajv: the most used JSON Schema validator, actively maintained, with a draft 2020-12 mode (the dialect of
// OpenAPI 3.1) and ajv-formats for `date-time`, `uuid`, `uri` and `email`. Tests only: the adapter itself
// validates with Effect Schema.
import { Ajv2020 } from 'ajv/dist/2020.js'
// @seriousme/openapi-schema-validator: the document against the OpenAPI Initiative's own 3.1 schema (ajv alone
// mis-resolves its `$dynamicRef`s); built on ajv too. Tests only.
import { Validator } from '@seriousme/openapi-schema-validator'
import addFormatsModule from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BASE, json, type World, world } from './fixture.js'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void

interface Doc {
  openapi: string
  paths: Record<
    string,
    Record<string, { parameters: Array<{ name: string; in: string; schema?: object; content?: Record<string, { schema: object }> }>; responses: Record<string, { content?: Record<string, { schema: object }> }>; security: unknown[] }>
  >
  components: { schemas: Record<string, object> }
}

let w: World
let doc: Doc
const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats(ajv)
const exercised = new Set<string>()

beforeAll(async () => {
  w = await world({ basePath: '/sl' })
  await w.sightline.capture(w.project.id, [{ event: 'signed_up', distinctId: 'u' }, { event: 'logout', distinctId: 'u' }])
  const r = await w.call('GET', '/api/schema/', { key: null })
  expect(r.status).toBe(200)
  doc = (await json(r)) as Doc
})
afterAll(() => w.close())

/** The documented path of a request: as the router, a literal segment beats a parameter (`plugins/activity/` is not `plugins/{id}/`). */
const templateOf = (path: string): string | undefined => {
  const bare = path.split('?')[0]!.replace(/\/?$/, '/')
  const params = (t: string) => t.split('/').map((s) => (s.startsWith('{') ? '1' : '0')).join('')
  return Object.keys(doc.paths)
    .filter((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare))
    .sort((a, b) => params(a).localeCompare(params(b)))[0]
}

/** Sends a request and validates its answer against the document's schema for that operation and status. */
async function check(method: string, path: string, init: Parameters<World['call']>[2] = {}) {
  const response = await w.call(method, path, init)
  const template = templateOf(`/sl${path}`)
  expect(template, `${method} ${path} is documented`).toBeDefined()
  const operation = doc.paths[template!]![method.toLowerCase()]
  expect(operation, `${method} ${template} is documented`).toBeDefined()
  const documented = operation!.responses[String(response.status)]
  expect(documented, `${method} ${path} answered ${response.status}, which is not documented`).toBeDefined()
  const schema = documented!.content?.['application/json']?.schema
  const script = documented!.content?.['application/javascript']
  const text = await response.text()
  if (script) {
    // A script (posthog-js's remote config): served as the type documented, some text.
    expect(response.headers.get('content-type')).toMatch(/^application\/javascript/)
    expect(text.length).toBeGreaterThan(0)
  } else if (!schema) {
    expect(text).toBe('')
  } else {
    const validate = ajv.compile({ ...schema, components: doc.components })
    const body = JSON.parse(text)
    expect(validate(body) ? [] : validate.errors, `${method} ${path} → ${response.status}: ${text.slice(0, 300)}`).toEqual([])
  }
  // An operation is exercised by a success, or by the refusal it always answers (DELETE of an insight: 405, no body).
  if (response.status < 300 || (documented as { description?: string }).description === 'Refused, no body.') exercised.add(`${method} ${template}`)
  return { status: response.status, body: text && !script ? JSON.parse(text) : undefined }
}

describe('the OpenAPI document', () => {
  test('is OpenAPI 3.1 and its component schemas compile', async () => {
    expect(doc.openapi).toBe('3.1.0')
    // Valid by the specification's schema (the validator may annotate what it reads: it gets a copy).
    expect(await new Validator().validate(structuredClone(doc) as unknown as Parameters<Validator['validate']>[0])).toEqual({ valid: true })
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      expect(() => ajv.compile({ ...schema, components: doc.components }), name).not.toThrow()
    }
    expect(ajv.compile({ $ref: '#/components/schemas/Project', components: doc.components })({ id: 1 })).toBe(false)
    expect(doc.paths['/sl/api/projects/{project_id}/event_definitions/{id}/']?.patch?.security).toEqual([{ PersonalAPIKey: ['event_definition:write'] }])
    // OpenAPI 3.1's rules for parameters: unique by name and location; a schema or a content of one media type, not both.
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const where = `${method} ${template}`
        const keys = operation.parameters.map((p) => `${p.in} ${p.name}`)
        expect(keys.filter((k, i) => keys.indexOf(k) !== i), where).toEqual([])
        for (const p of operation.parameters) {
          expect((p.schema === undefined) !== (p.content === undefined), `${where} ${p.name}`).toBe(true)
          if (p.content) expect(Object.keys(p.content), `${where} ${p.name}`).toHaveLength(1)
        }
      }
    }
  })

  test('real answers of every operation match it, successes and errors', async () => {
    const p = w.project.id
    await check('GET', '/api/projects/?limit=1')
    const created = await check('POST', '/api/projects/', { body: { name: 'Docs', timezone: 'Asia/Tokyo' } })
    expect(created.status).toBe(201)
    await check('GET', `/api/projects/${p}/`)
    await check('PATCH', `/api/projects/${p}/`, { body: { week_start_day: 1, test_account_filters: [{ key: 'email', value: 'x', operator: 'icontains', type: 'person' }] } })
    await check('GET', '/api/organizations/')
    await check('GET', `/api/organizations/${w.org.id}/`)
    await check('GET', '/api/users/@me/')
    const list = await check('GET', `/api/projects/${p}/event_definitions/?limit=1`)
    const id = list.body.results[0].id
    await check('GET', `/api/projects/${p}/event_definitions/${id}/`)
    await check('PATCH', `/api/projects/${p}/event_definitions/${id}/`, { body: { tags: ['a'], post_to_slack: true } })
    expect((await check('DELETE', `/api/projects/${p}/event_definitions/${id}/`)).status).toBe(204)
    for (const path of ['/batch/', '/capture/', '/e/', '/i/v0/e/', '/track/', '/engage/']) {
      const payload = JSON.stringify({ api_key: w.project.apiToken, batch: [{ event: 'doc', distinct_id: 'u' }] })
      await check('POST', path, { key: null, body: payload })
      await check('GET', `${path}?data=${encodeURIComponent(Buffer.from(payload).toString('base64'))}`, { key: null })
    }
    await check('GET', '/api/schema/', { key: null })
    await check('POST', '/flags/?v=2', { key: null, body: { token: w.project.apiToken, distinct_id: 'u' } })
    await check('POST', '/flags/', { key: null, body: { token: w.project.apiToken, distinct_id: 'u' } })
    await check('GET', `/flags/?v=2&token=${w.project.apiToken}&data=${encodeURIComponent(Buffer.from(JSON.stringify({ distinct_id: 'u' })).toString('base64'))}`, { key: null })
    expect((await check('POST', '/flags/?v=2', { key: null, body: { distinct_id: 'u' } })).status).toBe(401)
    await check('GET', `/array/${w.project.apiToken}/config`, { key: null })
    await check('GET', `/array/${w.project.apiToken}/config.js`, { key: null })
    expect((await check('GET', '/array/phc_unknown/config', { key: null })).status).toBe(404)
    for (const v of ['', '?v=2', '?v=3', '?v=4']) await check('POST', `/decide/${v}`, { key: null, body: { token: w.project.apiToken, distinct_id: 'u' } })
    await check('GET', `/decide/?v=3&token=${w.project.apiToken}&data=${encodeURIComponent(Buffer.from(JSON.stringify({ distinct_id: 'u' })).toString('base64'))}`, { key: null })
    await check('GET', `/flags/definitions?token=${w.project.apiToken}&send_cohorts`)
    await check('GET', `/api/feature_flag/local_evaluation/?token=${w.project.apiToken}`)
    expect((await check('GET', `/flags/definitions?token=${w.otherProject.apiToken}`)).status).toBe(401)

    const plugins = `/api/organizations/${w.org.id}/plugins`
    const installed = await check('POST', `${plugins}/`, { body: { url: 'https://github.com/PostHog/posthog-plugin-geoip', plugin_type: 'repository', tag: 'v1' } })
    expect(installed.status).toBe(201)
    const source = await check('POST', `${plugins}/`, { body: { name: 'Code', config_schema: [{ key: 'k' }] } })
    await check('GET', `${plugins}/?limit=1`)
    await check('GET', `${plugins}/${installed.body.id}/`)
    await check('PATCH', `${plugins}/${installed.body.id}/`, { body: { description: 'd', capabilities: { methods: ['processEvent'] } } })
    await check('GET', `${plugins}/${installed.body.id}/check_for_updates/`)
    await check('POST', `${plugins}/${installed.body.id}/upgrade/`, { body: {} })
    await check('PATCH', `${plugins}/${source.body.id}/update_source/`, { body: { 'plugin.json': '{"name":"Code"}', 'index.ts': 'x' } })
    await check('GET', `${plugins}/${source.body.id}/source/`)
    await check('GET', `${plugins}/activity/?limit=2`)
    await check('GET', `${plugins}/repository/`)
    await check('GET', `${plugins}/unused/`)
    expect((await check('DELETE', `${plugins}/${source.body.id}/`)).status).toBe(204)

    const insights = `/api/projects/${p}/insights`
    const insight = await check('POST', `${insights}/`, { body: { name: 'Docs', filters: { events: [] }, tags: ['a'] } })
    expect(insight.status).toBe(201)
    await check('GET', `${insights}/?limit=1`)
    await check('GET', `${insights}/${insight.body.id}/?refresh=true`)
    await check('PATCH', `${insights}/${insight.body.id}/`, { body: { description: 'x', query: { kind: 'TrendsQuery' } } })
    expect((await check('DELETE', `${insights}/${insight.body.id}/`)).status).toBe(405)
    await check('POST', `${insights}/${insight.body.id}/viewed/`)
    await check('GET', `${insights}/${insight.body.id}/activity/`)
    await check('GET', `${insights}/activity/`)
    await check('GET', `${insights}/my_last_viewed/`)

    const actions = `/api/projects/${p}/actions`
    const action = await check('POST', `${actions}/`, { body: { name: 'Signed up', steps: [{ event: 'signup' }] } })
    expect(action.status).toBe(201)
    await check('GET', `${actions}/?limit=1`)
    await check('GET', `${actions}/${action.body.id}/`)
    await check('PATCH', `${actions}/${action.body.id}/`, { body: { description: 'd' } })
    expect((await check('DELETE', `${actions}/${action.body.id}/`)).status).toBe(405)
    const cohorts = `/api/projects/${p}/cohorts`
    const cohort = await check('POST', `${cohorts}/`, { body: { name: 'Paying', filters: { properties: { type: 'OR', values: [{ key: 'plan', value: 'pro', type: 'person' }] } } } })
    expect(cohort.status).toBe(201)
    await check('GET', `${cohorts}/?limit=1`)
    await check('GET', `${cohorts}/${cohort.body.id}/`)
    await check('PATCH', `${cohorts}/${cohort.body.id}/`, { body: { description: 'd' } })
    await check('GET', `${cohorts}/${cohort.body.id}/persons/`)
    expect((await check('DELETE', `${cohorts}/${cohort.body.id}/`)).status).toBe(405)

    const dashboards = `/api/projects/${p}/dashboards`
    const dashboard = await check('POST', `${dashboards}/`, { body: { name: 'Docs', filters: { date_from: '-30d' } } })
    expect(dashboard.status).toBe(201)
    const onIt = await check('POST', `/api/projects/${p}/insights/`, { body: { name: 'On it', filters: { insight: 'TRENDS', events: [{ id: 'signed_up' }] }, dashboards: [dashboard.body.id] } })
    const [tile] = (await check('GET', `${dashboards}/${dashboard.body.id}/`)).body.tiles
    expect(tile.insight.id).toBe(onIt.body.id)
    await check('PATCH', `${dashboards}/${dashboard.body.id}/`, { body: { tiles: [{ id: tile.id, layouts: { sm: { x: 0, y: 0, w: 6, h: 5 } }, color: 'blue' }] } })
    await check('GET', `${dashboards}/?limit=1`)
    expect((await check('PATCH', `${dashboards}/${dashboard.body.id}/`, { body: { tiles: [{ id: 999_999 }] } })).status).toBe(400)
    expect((await check('DELETE', `${dashboards}/${dashboard.body.id}/`)).status).toBe(405)
    expect((await check('PATCH', `${dashboards}/${dashboard.body.id}/`, { body: { deleted: true } })).body).toMatchObject({ deleted: true, tiles: [] })
    expect((await check('GET', `${dashboards}/${dashboard.body.id}/`)).status).toBe(404)

    const trend = { events: [{ id: 'doc' }], date_from: '-7d' }
    await check('POST', `${insights}/trend/`, { body: trend })
    await check('GET', `${insights}/trend/?events=${encodeURIComponent(JSON.stringify(trend.events))}`)
    const funnel = { events: [{ id: 'doc', order: 0 }, { id: 'doc', order: 1 }] }
    await check('POST', `${insights}/funnel/`, { body: funnel })
    await check('GET', `${insights}/funnel/?events=${encodeURIComponent(JSON.stringify(funnel.events))}`)
    await check('GET', `/api/projects/${p}/persons/trends/?events=${encodeURIComponent(JSON.stringify(trend.events))}&entity_id=doc&entity_type=events&date_from=-7d&date_to=-0d`)
    await check('GET', `/api/projects/${p}/persons/funnel/?events=${encodeURIComponent(JSON.stringify(funnel.events))}&funnel_step=1`)
    const q = (params: Record<string, unknown>) => new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString()
    const retention = { target_entity: { id: 'doc', type: 'events' }, returning_entity: { id: 'doc', type: 'events' }, total_intervals: 3 }
    await check('POST', `${insights}/retention/`, { body: retention })
    await check('GET', `${insights}/retention/?${q(retention)}`)
    await check('GET', `/api/projects/${p}/persons/retention/?${q({ ...retention, selected_interval: 0 })}`)
    const paths = { include_event_types: ['custom_event'] }
    await check('POST', `${insights}/path/`, { body: paths })
    await check('GET', `${insights}/path/?${q(paths)}`)
    await check('GET', `/api/projects/${p}/persons/path/?${q({ ...paths, path_start_key: '1_doc' })}`)
    const correlation = { ...funnel, funnel_correlation_type: 'events' }
    await check('POST', `${insights}/funnel/correlation/`, { body: correlation })
    await check('GET', `${insights}/funnel/correlation/?${q(correlation)}`)
    await check('GET', `/api/projects/${p}/persons/funnel/correlation/?${q({ ...correlation, funnel_correlation_person_entity: { id: 'doc', type: 'events' }, funnel_correlation_person_converted: 'true' })}`)
    await check('POST', `${insights}/cancel/`, { body: { client_query_id: 'nothing-running' } })
    await check('POST', `${insights}/timing/`, { body: { time_to_see_data_ms: 120, type: 'insight_load', context: 'insight' } })

    // Errors, each documented for its operation.
    expect((await check('GET', '/api/projects/', { key: null })).status).toBe(401)
    expect((await check('GET', '/api/projects/', { key: 'phx_not_a_real_key_at_all_000' })).status).toBe(401)
    expect((await check('GET', '/api/organizations/', { key: await w.keyWith('project:read') })).status).toBe(403)
    expect((await check('GET', `/api/projects/${w.otherProject.id}/`)).status).toBe(404)
    expect((await check('GET', `/api/projects/${p}/event_definitions/?limit=0`)).status).toBe(400)
    expect((await check('PATCH', `/api/projects/${p}/`, { body: { name: '' } })).status).toBe(400)
    expect((await check('POST', '/batch/', { key: null, body: { batch: [{ event: 'e', distinct_id: 'u' }] } })).status).toBe(401)
    expect((await check('POST', '/e/', { key: null, body: '{' })).status).toBe(400)
    expect((await check('POST', `${plugins}/`, { body: { url: 'https://nowhere.test' } })).status).toBe(400)
    expect((await check('GET', `${plugins}/999999/source/`)).status).toBe(404)
    expect((await check('GET', `/api/organizations/${w.otherOrg.id}/plugins/`)).status).toBe(404)
    expect((await check('PATCH', `${insights}/${insight.body.id}/`, { key: await w.keyWith('insight:read'), body: { name: 'x' } })).status).toBe(403)
    expect((await check('GET', `${insights}/activity/?page=0`)).status).toBe(400)
    expect((await check('GET', `/api/projects/${w.otherProject.id}/insights/my_last_viewed/`)).status).toBe(404)
    expect((await check('POST', `${insights}/trend/`, { body: { events: [{ id: 'doc', math: 'no_such_math' }] } })).status).toBe(400)
    expect((await check('POST', `${insights}/funnel/`, { body: { events: [{ id: 'doc' }], funnel_window_interval_type: 'FORTNIGHT' } })).status).toBe(400)

    expect((await check('POST', `${insights}/retention/`, { body: { period: 'Fortnight' } })).status).toBe(400)
    expect((await check('POST', `${insights}/path/`, { body: { step_limit: -1 } })).status).toBe(400)
    expect((await check('POST', `${insights}/funnel/correlation/`, { body: { ...funnel, funnel_correlation_type: 'nope' } })).status).toBe(400)

    const documented = Object.entries(doc.paths).flatMap(([template, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${template}`))
    expect(documented.filter((op) => !exercised.has(op))).toEqual([])
  })

  test('is served under the base path, without credentials', async () => {
    const r = await w.handler(new Request(`${BASE}/sl/api/schema`))
    expect(r.status).toBe(200)
    expect(Object.keys((await json(r)).paths).every((p: string) => p.startsWith('/sl/'))).toBe(true)
  })
})
