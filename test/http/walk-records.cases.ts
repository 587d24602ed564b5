import { describe, expect, test } from 'vitest'
import { STAMP } from './harness.js'
import type { Walk } from './walk.cases.js'
import { personUuid, WALKERS } from './walk-data.js'

const BLANK_STEP = { event: null, properties: null, selector: null, tag_name: null, text: null, text_matching: null, href: null, href_matching: null, url: null, url_matching: null }
/** PostHog's `ForbidDestroyModel`: DELETE is an empty 405 naming what is allowed. */
const ALLOW = 'GET, PATCH, HEAD, OPTIONS'

/** Actions and cohorts, every operation once with its answer checked field for field. */
export function recordWalks(w: Walk): void {
  describe('actions and cohorts', () => recordCases(w))
  describe('plugin source files', () => pluginSourceCases(w))
}

/**
 * update_source/ writes PostHog's file names (plugin.json, index.ts, index.js,
 * frontend.tsx, site.ts) and answers PostHog's `{ filename: source }`; the
 * body interface 4.1 lists, the Plugin writeable fields, holds no file name:
 * a 400 naming the first key, and nothing written (read back from the table).
 */
function pluginSourceCases(w: Walk): void {
  test("update_source/: PostHog's file names written and answered by name; the interface's Plugin body refused naming its first field", async () => {
    const { a } = w.live
    const base = `/api/organizations/${a.org.id}/plugins`
    const plugin = (await w.call('POST', `${base}/`, 201, { body: { name: 'Walk source', plugin_type: 'source' } })).body
    const files = { 'plugin.json': '{"name":"Walk source"}', 'index.ts': 'export {}', 'index.js': 'module.exports = {}', 'frontend.tsx': 'export const scene = {}', 'site.ts': 'export function inject() {}' }
    const sorted = Object.fromEntries(Object.entries(files).sort(([x], [y]) => (x < y ? -1 : 1)))
    expect((await w.call('PATCH', `${base}/${plugin.id}/update_source/`, 200, { body: files })).body).toEqual(sorted)

    const documentBody = { name: 'Walk source v2', description: 'described', icon: 'i', tag: 't', plugin_type: 'source' }
    expect((await w.call('PATCH', `${base}/${plugin.id}/update_source/`, 400, { body: documentBody })).body).toMatchObject({ type: 'validation_error', code: 'invalid_input', attr: 'name' })
    expect((await w.call('PATCH', `${base}/${plugin.id}/update_source/`, 400, { body: { 'index.ts': '// changed', description: 'described' } })).body).toMatchObject({ attr: 'description' })
    expect((await w.call('PATCH', `${base}/${plugin.id}/update_source/`, 400, { body: { 'Index.ts': '// changed' } })).body).toMatchObject({ attr: 'Index.ts' })

    const rows = await w.live.db.raw(`select filename, source from plugin_source_files where plugin_id = ${plugin.id} order by filename`)
    expect(rows).toEqual(Object.entries(sorted).map(([filename, source]) => ({ filename, source })))
    expect((await w.call('GET', `${base}/${plugin.id}/source/`, 200)).body).toEqual(sorted)
    expect((await w.call('GET', `${base}/${plugin.id}/`, 200)).body).toEqual(plugin)
    await w.call('DELETE', `${base}/${plugin.id}/`, 204)
  })
}

function recordCases(w: Walk): void {
  test('actions: all five operations, DELETE refused with an empty 405', async () => {
    const { a } = w.live
    const base = `/api/projects/${a.project.id}/actions`
    // Read-only fields in the body (created_at, team_id, is_calculating) are ignored; tags are trimmed, lower-cased, deduplicated.
    const created = (await w.call('POST', `${base}/`, 201, {
      body: {
        name: 'Walk pricing',
        description: 'Saw the prices or paid',
        tags: ['Billing', ' billing '],
        steps: [{ event: '$pageview', url: '/pricing', url_matching: 'exact' }, { event: 'walk_paid' }],
        created_at: '2020-01-01T00:00:00Z',
        team_id: 999,
        is_calculating: true,
      },
    })).body
    const action = {
      id: created.id,
      name: 'Walk pricing',
      description: 'Saw the prices or paid',
      tags: ['billing'],
      post_to_slack: false,
      slack_message_format: '',
      // PostHog's ActionStep: every field present, `url_matching` defaults to contains, the other matchings to null.
      steps: [
        { ...BLANK_STEP, event: '$pageview', url: '/pricing', url_matching: 'exact' },
        { ...BLANK_STEP, event: 'walk_paid', url_matching: 'contains' },
      ],
      created_at: STAMP,
      created_by: w.userBasic(),
      deleted: false,
      is_calculating: false,
      last_calculated_at: STAMP,
      team_id: a.project.id,
      is_action: true,
      bytecode_error: null,
      pinned_at: null,
      creation_context: null,
    }
    expect(created).toEqual(action)
    expect(Number.isInteger(created.id)).toBe(true)
    expect((await w.call('GET', `${base}/`, 200)).body).toEqual({ count: 1, next: null, previous: null, results: [action] })
    expect((await w.call('GET', `${base}/${action.id}/`, 200)).body).toEqual(action)

    // Any pinned_at value pins the action now (the clock's NOW).
    const changes = { name: 'Walk pricing v2', post_to_slack: true, slack_message_format: '[action.name] by [person]', pinned_at: '2020-01-01' }
    const patched = { ...action, name: 'Walk pricing v2', post_to_slack: true, slack_message_format: '[action.name] by [person]', pinned_at: STAMP }
    expect((await w.call('PATCH', `${base}/${action.id}/`, 200, { body: changes })).body).toEqual(patched)

    const refused = await w.call('DELETE', `${base}/${action.id}/`, 405)
    expect([refused.text, refused.headers.get('allow')]).toEqual(['', ALLOW])
    expect(await w.live.db.raw(`select name, deleted from actions where id = ${action.id}`)).toEqual([{ name: 'Walk pricing v2', deleted: false }])
    expect((await w.live.call('GET', `${base}/${action.id}/`)).body).toEqual(patched)
  })

  test('cohorts: all six operations, count and persons from the captured persons, DELETE refused with an empty 405', async () => {
    const { a } = w.live
    const base = `/api/projects/${a.project.id}/cohorts`
    const pros = { properties: { type: 'AND', values: [{ type: 'person', key: 'walk_plan', value: 'pro' }] } }
    const created = (await w.call('POST', `${base}/`, 201, { body: { name: 'Walk pros', description: 'On the pro plan', filters: pros, count: 99, is_calculating: true } })).body
    const cohort = {
      id: created.id,
      name: 'Walk pros',
      description: 'On the pro plan',
      groups: [],
      deleted: false,
      filters: pros,
      query: null,
      is_calculating: false,
      created_by: w.userBasic(),
      created_at: STAMP,
      last_calculation: STAMP,
      errors_calculating: 0,
      // walk-u1 and walk-u2 were $set walk_plan: pro; walk-u3 free.
      count: 2,
      is_static: false,
      experiment_set: [],
    }
    expect(created).toEqual(cohort)
    expect((await w.call('GET', `${base}/`, 200)).body).toEqual({ count: 1, next: null, previous: null, results: [cohort] })
    expect((await w.call('GET', `${base}/${cohort.id}/`, 200)).body).toEqual(cohort)

    // Newest person first: u2 was created on the 14th, u1 on the 13th. The name is the e-mail, else the first distinct id.
    const person = async (who: 'u1' | 'u2' | 'u3', name: string) => {
      const id = await personUuid(w.live, who)
      const { distinctId, properties, createdAt } = WALKERS[who]
      return { type: 'person', id, uuid: id, name, distinct_ids: [distinctId], properties, is_identified: false, created_at: createdAt }
    }
    expect((await w.call('GET', `${base}/${cohort.id}/persons/`, 200)).body).toEqual({
      count: 2,
      next: null,
      previous: null,
      results: [await person('u2', 'walk-u2'), await person('u1', 'u1@walk.test')],
    })

    const free = { properties: { type: 'OR', values: [{ type: 'person', key: 'walk_plan', value: 'free' }] } }
    const patched = { ...cohort, name: 'Walk free', filters: free, count: 1 }
    expect((await w.call('PATCH', `${base}/${cohort.id}/`, 200, { body: { name: 'Walk free', filters: free } })).body).toEqual(patched)
    expect((await w.live.call('GET', `${base}/${cohort.id}/persons/`)).body.results).toEqual([await person('u3', 'walk-u3')])

    const refused = await w.call('DELETE', `${base}/${cohort.id}/`, 405)
    expect([refused.text, refused.headers.get('allow')]).toEqual(['', ALLOW])
    expect(await w.live.db.raw(`select name, deleted from cohorts where id = ${cohort.id}`)).toEqual([{ name: 'Walk free', deleted: false }])
    expect((await w.live.call('GET', `${base}/${cohort.id}/`)).body).toEqual(patched)
  })
}
