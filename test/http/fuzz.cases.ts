import { gzipSync } from 'node:zlib'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ConformanceTarget } from '../conformance/target.js'
import { type Ids, type Operation, operations } from './catalogue.js'
import { type Live, serve } from './harness.js'

/** Field names of every body, so that random bodies reach the validation and storage code. */
const FIELDS = [
  'name', 'timezone', 'week_start_day', 'test_account_filters', 'path_cleaning_filters', 'organization', 'tags', 'created_at', 'last_seen_at', 'post_to_slack', 'description',
  'plugin_type', 'url', 'icon', 'config_schema', 'tag', 'is_global', 'capabilities', 'metrics', 'public_jobs', 'plugin.json', 'index.ts',
  'derived_name', 'filters', 'query', 'order', 'deleted', 'dashboards', 'favorited', 'saved', 'personal_api_key',
  'api_key', 'token', 'batch', 'event', 'distinct_id', 'properties', 'timestamp', 'uuid', '$set', '__proto__', 'constructor',
]

const nasty = fc.constantFrom<unknown>(
  '\u0000', 'a\u0000b', '\ud800', '', ' ', '%', '_', '\\', '"', '😀'.repeat(100), 'x'.repeat(3000), '{"kind":"TrendsQuery"}', '{"a":"\\u0000"}', '{"name":"a\\u0000","config":[{"k":"\\ud800"}]}', '[1]', '{',
  'https://github.com/PostHog/posthog-plugin-geoip', 'repository', 'source', 'custom', 'local', '{"name":"p","config":[]}', '2026-01-01', 'Europe/Berlin',
  9007199254740993, -1, 0, 1, 1e308, -0, 2 ** 31, -(2 ** 31), 1.5, true, false, null, [], {}, [''], ['  '], { __proto__: null, x: 1 },
)

const jsonish: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    nasty,
    fc.jsonValue({ maxDepth: 2 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 8 })), tie('value'), { maxKeys: 5 }),
  ),
})).value

/** A body shaped like the writeable fields, each present or not, each any value. */
const shapedBody = fc.dictionary(fc.constantFrom(...FIELDS), jsonish, { maxKeys: 8 })

interface Keys {
  readonly a: string
  readonly b: string
  readonly readOnly: string
}

function requests(ops: ReadonlyArray<Operation>, own: Ids, live: Live, keys: Keys) {
  const { a, b } = live
  const ids = [
    a.org.id, b.org.id, String(a.project.id), String(b.project.id), String(own.pluginId), String(own.insightId), own.definitionId, String(own.actionId), String(own.cohortId),
    '1', '2', '3', '0', '-1', '1e3', '99999999999999999999', '@me', '@current', '%00', '%FF', '..', 'abc',
  ]
  const segment = fc.oneof({ arbitrary: fc.constantFrom(...ids), weight: 8 }, { arbitrary: fc.string({ maxLength: 20 }).map(encodeURIComponent), weight: 1 })
  const fill = (template: string) =>
    fc.array(segment, { minLength: 3, maxLength: 3 }).map(([x, y, z]) =>
      template
        .replace('{project_id}', x!)
        .replace('{parent_lookup_organization_id}', x!)
        .replace('{id}', template.startsWith('/api/projects/{id}') || template.startsWith('/api/organizations/{id}') ? y! : z!),
    )
  const known = fc.constantFrom(...ops).chain((op) => fill(op.template).map((path) => ({ op, path })))
  const analysis = fc.constantFrom('funnel/', 'funnel/correlation/', 'path/', 'retention/', 'timing/', 'trend/', 'cancel/', 'status/', 'x/y/z/')
  const anyMethod = fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'OPTIONS')
  const target = fc.oneof(
    { arbitrary: known.map(({ op, path }) => ({ method: op.method as string, path })), weight: 10 },
    { arbitrary: fc.tuple(anyMethod, known.map(({ path }) => path)).map(([method, path]) => ({ method, path })), weight: 2 },
    { arbitrary: fc.tuple(anyMethod, segment, analysis).map(([method, p, rest]) => ({ method, path: `/api/projects/${p}/insights/${rest}` })), weight: 1 },
    { arbitrary: fc.tuple(anyMethod, fc.webPath()).map(([method, path]) => ({ method, path: path.startsWith('/') ? path : `/${path}` })), weight: 1 },
  )
  const query = fc.array(
    fc.tuple(
      fc.constantFrom('limit', 'offset', 'page', 'search', 'format', 'created_by', 'short_id', 'saved', 'favorited', 'from_dashboard', 'refresh', 'data', 'personal_api_key', 'x'),
      fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('1', '0', '-1', '1000', '1001', 'csv', 'json', 'true', 'maybe', '[1,2]', '[1e400]', '%00', keys.a), fc.integer().map(String)),
    ),
    { maxLength: 4 },
  )
  const body = fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 1 },
    { arbitrary: shapedBody.map((v) => JSON.stringify(v)), weight: 5 },
    { arbitrary: jsonish.map((v) => JSON.stringify(v) ?? 'null'), weight: 2 },
    { arbitrary: jsonish.map((v) => gzipSync(JSON.stringify({ api_key: a.project.apiToken, batch: [v] }) ?? '')), weight: 1 },
    { arbitrary: fc.uint8Array({ maxLength: 48 }), weight: 1 },
  )
  const key = fc.oneof(
    { arbitrary: fc.constant<string | null>(keys.a), weight: 8 },
    { arbitrary: fc.constantFrom<string | null>(keys.b, keys.readOnly, null, 'phx_not_issued_000000000000000000'), weight: 3 },
  )
  return fc.record({ target, query, body, key })
}

/**
 * Random methods, paths, ids, query strings, keys and bodies never make the
 * server answer a 5xx or hang, and every error is PostHog's error shape.
 * Bounded: `numRuns` requests, at most `seconds` in all, 10 s each.
 */
export function fuzzCases(target: ConformanceTarget, options: { numRuns: number; seconds: number }): void {
  describe('random requests', () => {
    let live: Live
    let ops: Operation[]
    let own: Ids
    let keys: Keys

    beforeAll(async () => {
      live = await serve(target)
      const { a, sightline } = live
      await sightline.capture(a.project.id, [{ event: 'seen', distinctId: 'u' }])
      const [definition] = (await sightline.eventDefinitions.list(a.project.id)).results
      const plugin = await sightline.plugins.create(a.org.id, { name: 'Fuzzed plugin' })
      const insight = await sightline.insights.create(a.project.id, { name: 'Fuzzed insight' })
      const action = await sightline.actions.create(a.project.id, { name: 'Fuzzed action', steps: [{ event: 'seen' }] })
      const cohort = await sightline.cohorts.create(a.project.id, { name: 'Fuzzed cohort', isStatic: true, distinctIds: ['u'] })
      const dashboard = await sightline.dashboards.create(a.project.id, { name: 'Fuzzed dashboard' })
      await sightline.dashboards.addTile(a.project.id, dashboard.id, { insightId: insight.id })
      own = { orgId: a.org.id, projectId: a.project.id, pluginId: plugin.id, insightId: insight.id, definitionId: definition!.id, actionId: action.id, cohortId: cohort.id, dashboardId: dashboard.id }
      ops = operations(own)
      keys = { a: a.key, b: live.b.key, readOnly: await live.keyWith('insight:read', 'plugin:read', 'project:read') }
    })
    afterAll(() => live.close())

    test(
      'never a 5xx, never a hang, always the error shape',
      async () => {
        await fc.assert(
          fc.asyncProperty(requests(ops, own, live, keys), async ({ target: t, query, body, key }) => {
            const url = new URL(`${live.origin}${t.path}`)
            for (const [k, v] of query) url.searchParams.append(k, v)
            const hasBody = body !== undefined && t.method !== 'GET' && t.method !== 'HEAD'
            const answer = await live.call(t.method, url.toString(), { key, ...(hasBody && { body }) })
            expect(answer.status, `${t.method} ${url} → ${answer.text.slice(0, 300)}`).toBeLessThan(500)
            // The insight DELETE is answered with no body (interface 7.1), and so are the action and cohort DELETEs (PostHog's ForbidDestroyModel).
            const bodiless = t.method === 'HEAD' || (t.method === 'DELETE' && answer.status === 405 && /\/(insights|actions|cohorts|dashboards)\/\d+\/?$/.test(url.pathname))
            if (answer.status >= 400 && !bodiless) {
              expect(Object.keys(answer.body ?? {}).sort(), `${t.method} ${url} → ${answer.text.slice(0, 300)}`).toEqual(['attr', 'code', 'detail', 'type'])
            }
          }),
          { numRuns: options.numRuns, interruptAfterTimeLimit: options.seconds * 1000, endOnFailure: true },
        )
        expect(live.serverErrors).toEqual([])
        expect((await live.call('GET', '/api/users/@me/')).status).toBe(200)
      },
      (options.seconds + 60) * 1000,
    )
  })
}
