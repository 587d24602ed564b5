import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { json, NOW, type World, world } from './fixture.js'

let w: World
beforeAll(async () => {
  w = await world()
})
afterAll(() => w.close())

const PROJECT_FIELDS = ['api_token', 'created_at', 'id', 'name', 'organization', 'path_cleaning_filters', 'project_id', 'test_account_filters', 'timezone', 'updated_at', 'uuid', 'week_start_day']

describe('projects', () => {
  test('GET /api/projects/ lists the caller’s projects in the envelope', async () => {
    const r = await w.call('GET', '/api/projects/')
    expect(r.status).toBe(200)
    const body = await json(r)
    expect(body).toMatchObject({ count: 1, next: null, previous: null })
    expect(Object.keys(body.results[0]).sort()).toEqual(PROJECT_FIELDS)
    expect(body.results[0]).toEqual({
      id: w.project.id,
      uuid: w.project.uuid,
      organization: w.org.id,
      project_id: w.project.id,
      api_token: w.project.apiToken,
      name: 'Web',
      timezone: 'UTC',
      week_start_day: 0,
      test_account_filters: [],
      path_cleaning_filters: [],
      created_at: '2026-01-15T12:00:00.000000Z',
      updated_at: '2026-01-15T12:00:00.000000Z',
    })
  })

  test('POST creates in the caller’s organization: 201; read-only and unknown fields are ignored', async () => {
    const r = await w.call('POST', '/api/projects/', {
      body: { name: 'Mobile', timezone: 'Europe/Berlin', week_start_day: 1, id: 999, api_token: 'phc_mine', unknown: true },
    })
    expect(r.status).toBe(201)
    const created = await json(r)
    expect(created).toMatchObject({ name: 'Mobile', timezone: 'Europe/Berlin', week_start_day: 1, organization: w.org.id })
    expect(created.id).not.toBe(999)
    expect(created.api_token).toMatch(/^phc_/)
    expect(created.api_token).not.toBe('phc_mine')
    const again = await w.call('GET', `/api/projects/${created.id}`)
    expect(await json(again)).toEqual(created)
  })

  test('POST without a name: 400 naming it', async () => {
    const r = await w.call('POST', '/api/projects/', { body: { timezone: 'UTC' } })
    expect(await json(r)).toEqual({ type: 'validation_error', code: 'required', detail: 'This field is required.', attr: 'name' })
  })

  test('PATCH changes the writeable fields only', async () => {
    const filters = [{ key: 'email', value: '@acme.test', operator: 'not_icontains', type: 'person' }]
    const r = await w.call('PATCH', `/api/projects/${w.project.id}/`, {
      body: { name: 'Website', test_account_filters: filters, api_token: 'phc_nope', organization: w.otherOrg.id },
    })
    expect(r.status).toBe(200)
    const body = await json(r)
    expect(body).toMatchObject({ name: 'Website', test_account_filters: filters, api_token: w.project.apiToken, organization: w.org.id })
    const stored = await w.sightline.projects.get(w.project.id)
    expect(stored.name).toBe('Website')
    expect(stored.testAccountFilters).toEqual(filters)
  })

  test('PATCH path_cleaning_filters stores the rules; a bad regex is a 400 naming it and changes nothing', async () => {
    const rules = [{ alias: '/users/:id', regex: '^/users/[0-9]+$' }]
    const r = await w.call('PATCH', `/api/projects/${w.project.id}/`, { body: { path_cleaning_filters: rules } })
    expect(r.status).toBe(200)
    expect((await json(r)).path_cleaning_filters).toEqual(rules)
    const bad = await w.call('PATCH', `/api/projects/${w.project.id}/`, { body: { path_cleaning_filters: [{ alias: 'x', regex: '(' }] } })
    expect(bad.status).toBe(400)
    expect(await json(bad)).toMatchObject({ type: 'validation_error', attr: 'path_cleaning_filters__0__regex' })
    expect((await w.sightline.projects.get(w.project.id)).pathCleaningFilters).toEqual(rules)
  })

  test('unknown, malformed and huge ids are 404', async () => {
    for (const id of ['999999', 'abc', '-1', '1.5', '99999999999999999999', '@current']) {
      expect((await w.call('GET', `/api/projects/${id}/`)).status, id).toBe(404)
    }
  })
})

describe('organizations and users', () => {
  test('GET /api/organizations/ and /:id/ show the caller’s organization with its projects', async () => {
    const list = await json(await w.call('GET', '/api/organizations/'))
    expect(list).toMatchObject({ count: 1, next: null, previous: null })
    expect(list.results[0]).toMatchObject({ id: w.org.id, name: 'Acme', created_at: '2026-01-15T12:00:00.000000Z' })
    expect(list.results[0].teams.map((t: { id: number }) => t.id)).toContain(w.project.id)
    const one = await w.call('GET', `/api/organizations/${w.org.id.toUpperCase()}/`)
    expect(one.status).toBe(200)
    expect(await json(one)).toEqual(list.results[0])
  })

  test('GET /api/users/@me/ is the key’s user with its organizations, for any valid key', async () => {
    const anyScope = await w.keyWith('insight:read')
    for (const path of ['/api/users/@me/', '/api/users/@me']) {
      const r = await w.call('GET', path, { key: anyScope })
      expect(r.status).toBe(200)
      expect(await json(r)).toEqual({
        id: w.user.id,
        uuid: w.user.uuid,
        distinct_id: w.user.distinctId,
        first_name: 'Ada',
        last_name: '',
        email: 'ada@acme.test',
        is_email_verified: false,
        date_joined: NOW.toISOString().replace('Z', '000Z'),
        organizations: [{ id: w.org.id, name: 'Acme' }],
      })
    }
  })
})

const EVENT_DEFINITION_FIELDS = [
  'action_id', 'created_at', 'created_by', 'id', 'is_action', 'is_calculating', 'last_calculated_at', 'last_seen_at', 'last_updated_at', 'name', 'post_to_slack', 'tags',
]

describe('event definitions', () => {
  const path = () => `/api/projects/${w.project.id}/event_definitions`
  beforeAll(async () => {
    await w.sightline.capture(
      w.project.id,
      ['$pageview', 'signed_up', 'purchase', 'purchase_refunded', 'logout'].map((event) => ({ event, distinctId: 'u1' })),
    )
  })

  test('the list: by name, with interface 2.4’s fields exactly', async () => {
    const body = await json(await w.call('GET', `${path()}/`))
    expect(body.count).toBe(5)
    expect(body.results.map((d: { name: string }) => d.name)).toEqual(['$pageview', 'logout', 'purchase', 'purchase_refunded', 'signed_up'])
    const first = body.results[0]
    expect(Object.keys(first).sort()).toEqual(EVENT_DEFINITION_FIELDS)
    expect(first).toMatchObject({
      is_action: false,
      action_id: null,
      is_calculating: false,
      last_calculated_at: null,
      created_by: null,
      post_to_slack: false,
      tags: [],
      created_at: '2026-01-15T12:00:00.000000Z',
    })
  })

  test('search filters by name; % and _ are literal', async () => {
    const body = await json(await w.call('GET', `${path()}/?search=purchase`))
    expect(body.results.map((d: { name: string }) => d.name)).toEqual(['purchase', 'purchase_refunded'])
    expect((await json(await w.call('GET', `${path()}/?search=%25`))).count).toBe(0)
    expect((await json(await w.call('GET', `${path()}/?search=e_r`))).results.map((d: { name: string }) => d.name)).toEqual(['purchase_refunded'])
  })

  test('GET, PATCH and DELETE one', async () => {
    const list = await json(await w.call('GET', `${path()}/?search=signed_up`))
    const id = list.results[0].id as string
    const one = await w.call('GET', `${path()}/${id}/`)
    expect(await json(one)).toEqual(list.results[0])

    const patched = await w.call('PATCH', `${path()}/${id}/`, {
      body: { name: 'Signed up', tags: ['growth', 'growth', 'core'], post_to_slack: true, description: 'New accounts', created_at: '2025-12-01T00:00:00Z', is_action: true, id: 'nope' },
    })
    expect(patched.status).toBe(200)
    expect(await json(patched)).toMatchObject({
      id,
      name: 'Signed up',
      tags: ['growth', 'core'],
      post_to_slack: true,
      created_at: '2025-12-01T00:00:00.000000Z',
      is_action: false,
    })
    const activity = await w.sightline.activity.list({ projectId: w.project.id, scope: 'EventDefinition', itemId: id })
    expect(activity.results[0]).toMatchObject({ userId: w.user.id, activity: 'updated' })

    const conflict = await w.call('PATCH', `${path()}/${id}/`, { body: { name: 'logout' } })
    expect(conflict.status).toBe(400)
    expect(await json(conflict)).toMatchObject({ type: 'validation_error', code: 'unique', attr: 'name' })

    const badTime = await w.call('PATCH', `${path()}/${id}/`, { body: { last_seen_at: 'last tuesday' } })
    expect(await json(badTime)).toMatchObject({ type: 'validation_error', attr: 'last_seen_at' })

    const deleted = await w.call('DELETE', `${path()}/${id}/`)
    expect(deleted.status).toBe(204)
    expect(await deleted.text()).toBe('')
    expect((await w.call('GET', `${path()}/${id}/`)).status).toBe(404)
    expect((await w.call('DELETE', `${path()}/${id}/`)).status).toBe(404)
  })

  test('a malformed id is 404', async () => {
    expect((await w.call('GET', `${path()}/not-a-uuid/`)).status).toBe(404)
  })
})
