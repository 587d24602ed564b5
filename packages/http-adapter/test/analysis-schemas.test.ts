// The analyses' schemas in the OpenAPI document are generated from core's TypeScript types
// (scripts/analysis-schemas.ts). This file holds them to the types and to the engine: the committed
// file is what the generator writes now, and real answers of every analysis view (DuckDB, in memory),
// and the requests that produced them, validate against the document. ajv as in openapi.test.ts.
import { readFileSync } from 'node:fs'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { CaptureInput } from '@sightline/core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ANALYSIS_ROOTS, GENERATED_FILE, generateAnalysisSchemas, generatedFileText } from '../scripts/analysis-schemas.js'
import { json, type World, world } from './fixture.js'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void

type Json = Record<string, any>
interface Operation {
  parameters: Array<{ name: string; in: string; required: boolean; schema?: Json; content?: Record<string, { schema: Json }> }>
  requestBody?: { content: Record<string, { schema: Json }> }
  responses: Record<string, { content?: Record<string, { schema: Json }> }>
}

let w: World
let doc: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Json> } }
const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats(ajv)
const compiled = new Map<string, ValidateFunction>()

/** Validates `value` against a schema of the document (its refs into components resolved); [] when it matches. */
function errorsOf(schema: Json, value: unknown): unknown[] {
  const key = JSON.stringify(schema)
  let validate = compiled.get(key)
  if (!validate) compiled.set(key, (validate = ajv.compile({ ...schema, components: doc.components })))
  return validate(value) ? [] : (validate.errors ?? [])
}

const P = () => w.project.id
const INSIGHTS = () => `/api/projects/${P()}/insights`

beforeAll(async () => {
  w = await world()
  // Four persons over the week before the fixture's clock (2026-01-15 12:00 UTC): page views, sign-ups, purchases.
  const browsers = ['Chrome', 'Safari', 'Chrome', 'Firefox']
  const events: CaptureInput[] = []
  for (let p = 0; p < 4; p++) {
    const distinctId = `u${p}`
    for (let day = 8; day <= 14; day += 1 + (p % 2)) {
      // Ten minutes apart: one session a day (paths split sessions at 30 minutes).
      const at = (m: number) => `2026-01-${String(day).padStart(2, '0')}T09:${String(m).padStart(2, '0')}:00Z`
      const properties = { $browser: browsers[p], $current_url: 'https://shop.test/' }
      events.push({ event: '$pageview', distinctId, timestamp: at(0), properties })
      events.push({ event: '$pageview', distinctId, timestamp: at(10), properties: { ...properties, $current_url: `https://shop.test/item/${p}` } })
      if (p < 3) events.push({ event: 'signup', distinctId, timestamp: at(20), properties })
      if (p < 2 && day % 2 === 0) events.push({ event: 'purchase', distinctId, timestamp: at(30), properties: { ...properties, plan: p === 0 ? 'pro' : 'free' } })
    }
  }
  await w.sightline.capture(w.project.id, events)
  const r = await w.call('GET', '/api/schema/', { key: null })
  doc = await json(r)
})
afterAll(() => w.close())

/** The operation documented for a path of the API (no base path here). */
function operationOf(method: string, path: string): Operation {
  const bare = path.split('?')[0]!
  // As the router: a literal segment beats a parameter (`insights/trend/` is not `insights/{id}/`).
  const params = (t: string) => t.split('/').map((s) => (s.startsWith('{') ? '1' : '0')).join('')
  const template = Object.keys(doc.paths)
    .filter((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(bare) && doc.paths[t]![method.toLowerCase()])
    .sort((a, b) => params(a).localeCompare(params(b)))[0]
  expect(template, `${method} ${bare} is documented`).toBeDefined()
  return doc.paths[template!]![method.toLowerCase()]!
}

/** Checks each query parameter sent against the operation's: documented, and its value (JSON text where `content`) valid. */
function checkQuery(operation: Operation, path: string): void {
  const query = new URLSearchParams(path.split('?')[1] ?? '')
  const documented = new Map(operation.parameters.filter((p) => p.in === 'query').map((p) => [p.name, p]))
  for (const [name, text] of query) {
    const param = documented.get(name)
    expect(param, `query parameter ${name} of ${path.slice(0, 80)} is documented`).toBeDefined()
    const asJson = param!.content !== undefined
    const schema = asJson ? param!.content!['application/json']!.schema : param!.schema!
    let value: unknown = text
    if (asJson || JSON.stringify(schema.type) !== '"string"') {
      try {
        value = JSON.parse(text)
      } catch {
        value = text
      }
    }
    expect(errorsOf(schema, value), `${name}=${text.slice(0, 100)}`).toEqual([])
  }
  for (const p of operation.parameters) if (p.in === 'query' && p.required) expect(query.has(p.name), `required ${p.name}`).toBe(true)
}

/** Sends a request, checks it against the document, and checks the 200 answer against the documented schema. */
async function call(method: 'GET' | 'POST', path: string, body?: Json): Promise<Json> {
  const operation = operationOf(method, path)
  if (method === 'POST') expect(errorsOf(operation.requestBody!.content['application/json']!.schema, body), `${path} body`).toEqual([])
  checkQuery(operation, path)
  const r = await w.call(method, path, body === undefined ? {} : { body })
  const text = await r.text()
  expect(r.status, text.slice(0, 300)).toBe(200)
  const answer = JSON.parse(text)
  expect(errorsOf(operation.responses['200']!.content!['application/json']!.schema, answer), `${method} ${path.slice(0, 120)}: ${text.slice(0, 300)}`).toEqual([])
  return answer
}

const query = (params: Json) => new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString()
/** Both ways an analysis is asked: the JSON body, and the query string. */
async function both(path: string, params: Json): Promise<Json> {
  const posted = await call('POST', path, params)
  const got = await call('GET', `${path}?${query(params)}`)
  expect(got.result).toEqual(posted.result)
  return posted
}
/** Follows a people URL of a result (trends' are relative to the API root, the others absolute paths). */
const persons = (url: string) => call('GET', `/${url.replace(/^\//, '')}`)

const pageview = { id: '$pageview', type: 'events', order: 0 }
const signup = { id: 'signup', type: 'events', order: 1 }
const purchase = { id: 'purchase', type: 'events', order: 2 }
const WEEK = { date_from: '2026-01-08', date_to: '2026-01-14' }

describe('the analyses in the OpenAPI document', () => {
  test('the committed schemas are what the generator reads from core\'s types now', { timeout: 180_000 }, () => {
    const generated = generateAnalysisSchemas()
    expect(Object.keys(generated)).toEqual(expect.arrayContaining([...ANALYSIS_ROOTS]))
    const stale = "core's analysis types changed: run `node --import tsx packages/http-adapter/scripts/analysis-schemas.ts` and commit src/wire/analysis-schemas.generated.ts with them"
    expect(readFileSync(GENERATED_FILE, 'utf8') === generatedFileText(generated), stale).toBe(true)
  })

  test('every analysis operation refers to its parameter and result types', () => {
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
    const analyses: Array<[string, string]> = [['funnel', 'Funnel'], ['trend', 'Trend'], ['retention', 'Retention'], ['path', 'Paths'], ['funnel/correlation', 'FunnelCorrelation']]
    for (const [path, type] of analyses) {
      const ops = doc.paths[`/api/projects/{project_id}/insights/${path}/`]!
      expect(ops.post!.requestBody!.content['application/json']!.schema).toEqual(ref(`${type}Params`))
      expect(ops.post!.responses['200']!.content!['application/json']!.schema).toEqual(ref(`${type}Response`))
      expect(ops.get!.responses['200']!.content!['application/json']!.schema).toEqual(ref(`${type}Response`))
      // GET: a query parameter per key of the type; lists and objects as JSON text.
      const events = ops.get!.parameters.find((p) => p.name === 'events')
      if (type !== 'Retention' && type !== 'Paths') expect(events?.content?.['application/json']).toBeDefined()
      expect(ops.get!.parameters.find((p) => p.name === 'date_from')?.schema).toEqual({ type: ['null', 'string'] })
    }
    // The persons lists: a page of core's TrendActor; their parameters' keys as query parameters.
    const lists: Array<[string, string]> = [['trends', 'TrendPersonsParams'], ['funnel', 'FunnelPersonsParams'], ['funnel/correlation', 'FunnelCorrelationPersonsParams'], ['path', 'PathPersonsParams'], ['retention', 'RetentionPersonsParams']]
    for (const [path, type] of lists) {
      const get = doc.paths[`/api/projects/{project_id}/persons/${path}/`]!.get!
      expect(get.responses['200']!.content!['application/json']!.schema).toEqual(ref('PaginatedAnalysisPersonList'))
      const root = doc.components.schemas[type]!
      const keys = new Set(((root.anyOf as Json[] | undefined) ?? [root]).flatMap((m) => Object.keys(m.properties ?? {})))
      expect(keys.size, type).toBeGreaterThan(5)
      expect(get.parameters.map((p) => p.name)).toEqual(expect.arrayContaining([...keys]))
    }
    expect(doc.components.schemas.PaginatedAnalysisPersonList!.properties.results.items).toEqual(ref('TrendActor'))
    const funnelPersons = doc.paths['/api/projects/{project_id}/persons/funnel/']!.get!.parameters
    expect(funnelPersons.map((p) => p.name)).toEqual(expect.arrayContaining(['limit', 'offset', 'funnel_step', 'funnel_custom_steps', 'events']))
    // Neither member of FunnelPersonsParams requires both: neither is required.
    expect(funnelPersons.filter((p) => p.in === 'query' && p.required).map((p) => p.name)).toEqual([])
  })

  test('trends, stickiness and lifecycle: real answers and their persons match the document', async () => {
    const trend = await both(`${INSIGHTS()}/trend/`, { events: [pageview, { ...signup, math: 'dau' }], ...WEEK })
    expect(trend.result).toHaveLength(2)
    expect(trend.result[0].count).toBeGreaterThan(0)
    const broken = await both(`${INSIGHTS()}/trend/`, { events: [pageview], breakdown: '$browser', breakdown_type: 'event', compare: true, ...WEEK })
    expect(broken.result.length).toBeGreaterThan(2)
    await both(`${INSIGHTS()}/trend/`, { events: [pageview, signup], formula: 'A / B', interval: 'week', ...WEEK })
    await both(`${INSIGHTS()}/trend/`, { events: [pageview], display: 'ActionsPie', breakdown: '$browser', ...WEEK })
    await both(`${INSIGHTS()}/trend/`, { events: [{ ...purchase, math: 'avg_count_per_actor' }], display: 'ActionsLineGraphCumulative', interval: 'day', ...WEEK })
    await both(`${INSIGHTS()}/trend/`, { events: [{ ...pageview, math: 'hogql', math_hogql: 'count()' }], breakdown: 'plan', breakdown_type: 'event', breakdown_limit: 1, ...WEEK })
    await both(`${INSIGHTS()}/trend/`, { actions: [], events: [{ ...signup, math: 'unique_group', math_group_type_index: 0 }], properties: [{ key: '$browser', value: ['Chrome'], operator: 'exact', type: 'event' }], ...WEEK })
    const stickiness = await both(`${INSIGHTS()}/trend/`, { insight: 'STICKINESS', events: [pageview], ...WEEK })
    expect(stickiness.result[0].data.some((n: number) => n > 0)).toBe(true)
    const lifecycle = await both(`${INSIGHTS()}/trend/`, { insight: 'LIFECYCLE', events: [pageview], ...WEEK })
    expect(lifecycle.result.map((s: Json) => s.status).sort()).toEqual(['dormant', 'new', 'resurrecting', 'returning'])

    const people = await persons(trend.result[0].persons_urls.find((u: Json) => u.url)!.url)
    expect(people.results.length).toBeGreaterThan(0)
    await persons(stickiness.result[0].persons_urls[0].url)
    await persons(lifecycle.result[0].persons_urls[1].url)
  })

  test('funnels: steps, a breakdown, trends, time to convert, and their persons match the document', async () => {
    const steps = await both(`${INSIGHTS()}/funnel/`, { events: [pageview, signup, purchase], ...WEEK })
    expect(steps.result.map((s: Json) => s.count)).toEqual([4, 3, 2])
    const broken = await both(`${INSIGHTS()}/funnel/`, { events: [pageview, signup], breakdown: '$browser', breakdown_type: 'event', ...WEEK })
    expect(broken.result.length).toBe(3)
    await both(`${INSIGHTS()}/funnel/`, { events: [pageview, signup], breakdowns: [{ property: '$browser', type: 'event' }], insight: 'FUNNELS', ...WEEK })
    const trends = await both(`${INSIGHTS()}/funnel/`, { events: [pageview, signup], funnel_viz_type: 'trends', ...WEEK })
    expect(trends.result[0].data.length).toBe(7)
    const ttc = await both(`${INSIGHTS()}/funnel/`, { events: [pageview, signup], funnel_viz_type: 'time_to_convert', funnel_window_interval: 1, funnel_window_interval_unit: 'day', ...WEEK })
    expect(ttc.result.bins.length).toBeGreaterThan(0)
    const unordered = await both(`${INSIGHTS()}/funnel/`, { events: [pageview, signup, purchase], funnel_order_type: 'unordered', ...WEEK })
    expect(unordered.result[2].name).toBe('Completed 3 steps')
    await both(`${INSIGHTS()}/funnel/`, { events: [pageview, signup], breakdown: ['$browser', 'plan'], breakdown_type: 'event', funnel_viz_type: 'trends', ...WEEK })
    await both(`${INSIGHTS()}/funnel/`, { events: [pageview, signup], exclusions: [{ id: 'purchase', type: 'events', funnel_from_step: 0, funnel_to_step: 1 }], funnel_order_type: 'strict', ...WEEK })

    const converted = await persons(steps.result[1].converted_people_url)
    expect(converted.results).toHaveLength(3)
    await persons(steps.result[2].dropped_people_url)
    await persons(broken.result[0][1].converted_people_url)
  })

  test('retention, paths and funnel correlation: real answers and their persons match the document', async () => {
    const retention = await both(`${INSIGHTS()}/retention/`, { target_entity: { id: '$pageview', type: 'events' }, returning_entity: { id: '$pageview', type: 'events' }, total_intervals: 5, date_to: '2026-01-14' })
    expect(retention.result).toHaveLength(5)
    expect(retention.result[0].values[0].count).toBe(4)
    await both(`${INSIGHTS()}/retention/`, { target_entity: { id: 'signup', type: 'events' }, returning_entity: { id: 'purchase', type: 'events' }, retention_type: 'retention_first_time', period: 'Week', total_intervals: 2, date_to: '2026-01-14' })
    await persons(retention.result[0].people_url)
    const byBrowser = await both(`${INSIGHTS()}/retention/`, { target_entity: { id: '$pageview', type: 'events' }, returning_entity: { id: 'signup', type: 'events' }, breakdowns: [{ property: '$browser', type: 'event' }], total_intervals: 3, date_to: '2026-01-14' })
    expect(byBrowser.result.some((row: Json) => row.breakdown_value === 'Chrome')).toBe(true)

    const paths = await both(`${INSIGHTS()}/path/`, { include_event_types: ['$pageview', 'custom_event'], ...WEEK })
    expect(paths.result.length).toBeGreaterThan(0)
    await both(`${INSIGHTS()}/path/`, { include_event_types: ['$pageview'], start_point: 'https://shop.test/', path_groupings: ['https://shop.test/item/*'], ...WEEK })
    await call('GET', `/api/projects/${P()}/persons/path/?${query({ include_event_types: ['$pageview', 'custom_event'], path_start_key: paths.result[0].source, ...WEEK })}`)

    const funnel = { events: [pageview, purchase], ...WEEK }
    const events = await both(`${INSIGHTS()}/funnel/correlation/`, { ...funnel, funnel_correlation_type: 'events' })
    expect(events.result.events.length).toBeGreaterThan(0)
    await both(`${INSIGHTS()}/funnel/correlation/`, { ...funnel, funnel_correlation_type: 'properties', funnel_correlation_names: ['$browser'] })
    await both(`${INSIGHTS()}/funnel/correlation/`, { ...funnel, funnel_correlation_type: 'event_with_properties', funnel_correlation_event_names: ['signup'] })
    await persons(events.result.events[0].success_people_url)
    await persons(events.result.events[0].failure_people_url)
  })

  test('actions and groups: action series and steps, and the groups behind a point, match the document', async () => {
    await w.sightline.capture(w.project.id, [
      { event: 'signup', distinctId: 'g1', timestamp: '2026-01-13T09:00:00Z', properties: { $groups: { company: 'acme' } } },
      { event: 'purchase', distinctId: 'g1', timestamp: '2026-01-13T09:10:00Z', properties: { $groups: { company: 'acme' } } },
    ])
    const action = await w.sightline.actions.create(w.project.id, { name: 'Signed up', steps: [{ event: 'signup' }] })
    const byAction = await both(`${INSIGHTS()}/trend/`, { actions: [{ id: action.id, type: 'actions', order: 0 }], ...WEEK })
    expect(byAction.result[0].count).toBeGreaterThan(0)
    const steps = await both(`${INSIGHTS()}/funnel/`, { actions: [{ id: action.id, type: 'actions', order: 0 }], events: [purchase], ...WEEK })
    expect(steps.result[0].action_id).toBe(action.id)
    const groups = await both(`${INSIGHTS()}/funnel/`, { events: [signup, purchase], aggregation_group_type_index: 0, ...WEEK })
    expect(groups.result[1].count).toBe(1)
    const companies = await persons(groups.result[1].converted_people_url)
    expect(companies.results.map((g: Json) => g.id)).toEqual(['acme'])
  })

  test('the response schemas refuse what the types refuse', async () => {
    const schemaOf = (name: string) => ({ $ref: `#/components/schemas/${name}` })
    const answer = await call('POST', `${INSIGHTS()}/funnel/`, { events: [pageview, signup], ...WEEK })
    expect(errorsOf(schemaOf('FunnelResponse'), answer)).toEqual([])
    const step = answer.result[0]
    expect(errorsOf(schemaOf('FunnelResponse'), { ...answer, result: [{ ...step, count: String(step.count) }] })).not.toEqual([])
    expect(errorsOf(schemaOf('FunnelResponse'), { ...answer, result: [{ ...step, conversion_rate: 1 }] })).not.toEqual([])
    expect(errorsOf(schemaOf('FunnelResponse'), { ...answer, is_cached: true })).not.toEqual([])
    const { timezone: _, ...noTimezone } = answer
    expect(errorsOf(schemaOf('FunnelResponse'), noTimezone)).not.toEqual([])
    // Parameters: keys an analysis does not read pass (PostHog clients send them); known keys keep their types.
    expect(errorsOf(schemaOf('FunnelParams'), { events: [pageview], new_entity: [] })).toEqual([])
    expect(errorsOf(schemaOf('FunnelParams'), { events: [pageview], funnel_order_type: 'sorted' })).not.toEqual([])
    expect(errorsOf(schemaOf('TrendParams'), { events: [{ idd: '$pageview' }] })).not.toEqual([])
  })
})
