import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ConformanceTarget } from '../conformance/target.js'
import { type Live, serve, STAMP } from './harness.js'

const NOT_FOUND = { type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null }
const BLANK_STEP = { event: null, properties: null, selector: null, tag_name: null, text: null, text_matching: null, href: null, href_matching: null, url: null, url_matching: null }

/** Actions and cohorts over the network: PostHog's shapes, 400s naming the field, 404s across projects, DELETE refused. */
export function actionCohortCases(target: ConformanceTarget): void {
  describe('actions and cohorts', () => {
    let live: Live
    let actions: string
    let cohorts: string
    beforeAll(async () => {
      live = await serve(target)
      actions = `/api/projects/${live.a.project.id}/actions`
      cohorts = `/api/projects/${live.a.project.id}/cohorts`
    })
    afterAll(() => live.close())

    const userBasic = () => ({ id: live.a.user.id, uuid: live.a.user.uuid, distinct_id: live.a.user.distinctId, first_name: 'Acme', email: 'ada@acme.test', is_email_verified: false })
    const refused = async (method: string, path: string, body: unknown) => {
      const answer = await live.call(method, path, { body })
      expect(answer.status, answer.text).toBe(400)
      return answer.body as { type: string; code: string; detail: string; attr: string | null }
    }

    test('actions: PostHog shape, list, update, soft delete; DELETE is 405', async () => {
      const created = await live.call('POST', `${actions}/`, { body: { name: 'Pricing', tags: ['web'], steps: [{ event: '$pageview', url: '/pricing' }], is_calculating: true, team_id: 999 } })
      expect(created.status, created.text).toBe(201)
      const action = {
        id: created.body.id,
        name: 'Pricing',
        description: '',
        tags: ['web'],
        post_to_slack: false,
        slack_message_format: '',
        steps: [{ ...BLANK_STEP, event: '$pageview', url: '/pricing', url_matching: 'contains' }],
        created_at: STAMP,
        created_by: userBasic(),
        deleted: false,
        is_calculating: false,
        last_calculated_at: STAMP,
        team_id: live.a.project.id,
        is_action: true,
        bytecode_error: null,
        pinned_at: null,
        creation_context: null,
      }
      expect(created.body).toEqual(action)
      expect((await live.call('GET', `${actions}/${action.id}/`)).body).toEqual(action)
      expect((await live.call('GET', `${actions}/`)).body).toEqual({ count: 1, next: null, previous: null, results: [action] })
      const patched = await live.call('PATCH', `${actions}/${action.id}/`, { body: { description: 'Prices', steps: [{ event: 'signup', properties: [{ key: 'plan', value: 'pro' }] }] } })
      expect(patched.body).toEqual({ ...action, description: 'Prices', steps: [{ ...BLANK_STEP, event: 'signup', properties: [{ key: 'plan', value: 'pro' }], url_matching: 'contains' }] })

      const deleteAnswer = await live.call('DELETE', `${actions}/${action.id}/`)
      expect([deleteAnswer.status, deleteAnswer.text, deleteAnswer.headers.get('allow')]).toEqual([405, '', 'GET, PATCH, HEAD, OPTIONS'])
      expect((await live.call('PATCH', `${actions}/${action.id}/`, { body: { deleted: true } })).body.deleted).toBe(true)
      expect((await live.call('GET', `${actions}/`)).body.count).toBe(0)
      expect((await live.call('GET', `${actions}/${action.id}/`)).body.deleted).toBe(true)
      expect((await live.call('PATCH', `${actions}/${action.id}/`, { body: { deleted: false } })).status).toBe(200)
    })

    test('actions: bad input is a 400 naming the field', async () => {
      const v = { type: 'validation_error', code: 'invalid_input' }
      expect(await refused('POST', `${actions}/`, { steps: [] })).toEqual({ ...v, code: 'required', detail: 'This field is required.', attr: 'name' })
      expect(await refused('POST', `${actions}/`, { name: 'x', steps: [{ url: 5 }] })).toMatchObject({ ...v, attr: 'steps__0__url' })
      expect(await refused('POST', `${actions}/`, { name: 'x', steps: [{ text: 'a', text_matching: 'fuzzy' }] })).toMatchObject({ ...v, attr: 'steps__0__text_matching' })
      expect(await refused('POST', `${actions}/`, { name: 'x', steps: [{ url: '[a-', url_matching: 'regex' }] })).toMatchObject({ ...v, attr: 'steps__0__url' })
      expect(await refused('POST', `${actions}/`, { name: 'x', steps: [{ properties: [{ key: 'id', type: 'cohort', value: 424242 }] }] })).toMatchObject({ ...v, attr: 'steps__0__properties__0__value' })
      expect(await refused('POST', `${actions}/`, { name: 'Pricing' })).toMatchObject({ type: 'validation_error', code: 'unique', attr: 'name' })
      expect(live.serverErrors).toEqual([])
    })

    test('cohorts: PostHog shape, count and persons computed when read; DELETE is 405', async () => {
      const { a } = live
      await live.sightline.capture(a.project.id, [
        { event: 'purchase', distinctId: 'u1', timestamp: '2026-01-14T12:00:00Z', properties: { $set: { email: 'u1@x.io' } } },
        { event: 'purchase', distinctId: 'u1', timestamp: '2026-01-13T12:00:00Z' },
        { event: 'purchase', distinctId: 'u2', timestamp: '2026-01-14T12:00:00Z' },
      ])
      const filters = { properties: { type: 'OR', values: [{ type: 'behavioral', value: 'performed_event_multiple', key: 'purchase', operator: 'gte', operator_value: 2, time_value: 7, time_interval: 'day' }] } }
      const created = await live.call('POST', `${cohorts}/`, { body: { name: 'Buyers', filters, groups: [] } })
      expect(created.status, created.text).toBe(201)
      const cohort = {
        id: created.body.id,
        name: 'Buyers',
        description: '',
        groups: [],
        deleted: false,
        filters,
        query: null,
        is_calculating: false,
        created_by: userBasic(),
        created_at: STAMP,
        last_calculation: STAMP,
        errors_calculating: 0,
        count: 1,
        is_static: false,
        experiment_set: [],
      }
      expect(created.body).toEqual(cohort)
      expect((await live.call('GET', `${cohorts}/${cohort.id}/`)).body).toEqual(cohort)
      expect((await live.call('GET', `${cohorts}/`)).body).toEqual({ count: 1, next: null, previous: null, results: [cohort] })
      const u1 = (await live.sightline.persons.get(a.project.id, 'u1'))!
      expect((await live.call('GET', `${cohorts}/${cohort.id}/persons/`)).body).toEqual({
        count: 1,
        next: null,
        previous: null,
        results: [{ type: 'person', id: u1.uuid, uuid: u1.uuid, name: 'u1@x.io', distinct_ids: ['u1'], properties: u1.properties, is_identified: false, created_at: u1.createdAt }],
      })
      const listed = await live.call('POST', `${cohorts}/`, { body: { name: 'Listed', is_static: true, distinct_ids: ['u2', 'nobody'] } })
      expect(listed.body).toMatchObject({ is_static: true, count: 1 })
      expect((await live.call('PATCH', `${cohorts}/${listed.body.id}/`, { body: { distinct_ids: ['u1'] } })).body.count).toBe(2)

      const onlyCohorts = await live.keyWith('cohort:read')
      expect((await live.call('GET', `${cohorts}/${cohort.id}/persons/`, { key: onlyCohorts })).status).toBe(403)
      const deleteAnswer = await live.call('DELETE', `${cohorts}/${cohort.id}/`)
      expect([deleteAnswer.status, deleteAnswer.text]).toEqual([405, ''])
      expect((await live.call('PATCH', `${cohorts}/${cohort.id}/`, { body: { deleted: true } })).body).toMatchObject({ deleted: true, count: 1 })
      expect((await live.call('GET', `${cohorts}/`)).body.count).toBe(1)
    })

    test('cohorts: bad criteria, unknown cohorts and loops are a 400 naming the field', async () => {
      const v = { type: 'validation_error', code: 'invalid_input' }
      const make = async (filters: unknown) => (await live.call('POST', `${cohorts}/`, { body: { filters } })).body.id as number
      const byId = (id: number, extra = {}) => ({ properties: { type: 'AND', values: [{ type: 'cohort', key: 'id', value: id, ...extra }] } })
      const first = await make({ properties: { type: 'AND', values: [{ type: 'person', key: 'plan', value: 'pro' }] } })
      const second = await make(byId(first))
      expect(await refused('PATCH', `${cohorts}/${first}/`, { filters: byId(second) })).toEqual({ ...v, detail: 'Cohorts cannot reference other cohorts in a loop.', attr: 'filters' })
      expect(await refused('POST', `${cohorts}/`, { filters: byId(987654) })).toMatchObject({ ...v, attr: 'filters__properties__values__0__value' })
      expect(await refused('POST', `${cohorts}/`, { filters: { properties: { type: 'AND', values: [{ type: 'behavioral', value: 'performed_event', key: 'x', time_value: 'soon', time_interval: 'day' }] } } })).toMatchObject({
        ...v,
        attr: 'filters__properties__values__0__time_value',
      })
      expect(await refused('POST', `${cohorts}/`, { filters: [] })).toMatchObject({ ...v, attr: 'filters' })
      expect(await refused('POST', `${cohorts}/`, { distinct_ids: ['x'] })).toMatchObject({ ...v, attr: 'distinct_ids' })
      expect(await refused('POST', `${cohorts}/`, { query: { kind: 'ActorsQuery' } })).toMatchObject({ ...v, attr: 'query' })
      expect(live.serverErrors).toEqual([])
    })

    test('cohorts: every behavior, negations and legacy groups as PostHog clients send them', async () => {
      const { a } = live
      await live.sightline.capture(a.project.id, [{ event: 'signup', distinctId: 'g1', timestamp: '2026-01-14T12:00:00Z', properties: { $set: { email: 'g1@x.io' } } }])
      const sequence = { type: 'behavioral', value: 'performed_event_sequence', key: 'signup', event_type: 'events', time_value: 30, time_interval: 'day', seq_event: 'purchase', seq_event_type: 'events', seq_time_value: 1, seq_time_interval: 'week' }
      const stopped = { type: 'behavioral', value: 'stopped_performing_event', key: 'signup', event_type: 'events', time_value: 2, time_interval: 'week', seq_time_value: 1, seq_time_interval: 'week', negation: true }
      const filters = { properties: { type: 'AND', values: [{ type: 'person', key: 'email', operator: 'is_set' }, sequence, stopped] } }
      const created = await live.call('POST', `${cohorts}/`, { body: { name: 'Sequenced', filters } })
      expect([created.status, created.body.filters], created.text).toEqual([201, filters])
      // A negation alone: PostHog cannot calculate it, the cohort holds no one.
      const lone = await live.call('POST', `${cohorts}/`, { body: { filters: { properties: { type: 'AND', values: [{ ...sequence, negation: true }] } } } })
      expect([lone.status, lone.body.count]).toEqual([201, 0])
      // An older client's groups: a property without a type is a person property.
      const legacy = await live.call('POST', `${cohorts}/`, { body: { name: 'Legacy', groups: [{ properties: [{ key: 'email', value: 'g1@x.io' }] }] } })
      expect([legacy.status, legacy.body.count, legacy.body.groups]).toEqual([201, 1, [{ properties: [{ key: 'email', value: 'g1@x.io' }] }]])
      const v = { type: 'validation_error', code: 'invalid_input' }
      // A sequence reads an explicit range (alone, explicit_datetime_to is not read); a date nobody reads is a 400 at it.
      const ranged = await live.call('POST', `${cohorts}/`, { body: { filters: { properties: { type: 'AND', values: [{ ...sequence, explicit_datetime: '-40d', explicit_datetime_to: '-1d' }] } } } })
      expect(ranged.status, ranged.text).toBe(201)
      expect(await refused('POST', `${cohorts}/`, { filters: { properties: { type: 'AND', values: [{ ...sequence, explicit_datetime_to: 'next week' }] } } })).toMatchObject({
        ...v,
        attr: 'filters__properties__values__0__explicit_datetime_to',
      })
      expect(await refused('POST', `${cohorts}/`, { groups: [{ event_id: 'signup', days: 'soon' }] })).toMatchObject({ ...v, attr: 'groups__0__days' })
      expect(live.serverErrors).toEqual([])
    })

    test('cohorts: a static cohort from an ActorsQuery of persons, as PostHog\'s "save as cohort" sends it', async () => {
      const { a } = live
      await live.sightline.capture(a.project.id, [
        { event: 'visit', distinctId: 'q1', timestamp: '2026-01-14T12:00:00Z', properties: { $set: { email: 'q1@quux.io', plan: 'pro' } } },
        { event: 'visit', distinctId: 'q2', timestamp: '2026-01-14T12:00:00Z', properties: { $set: { email: 'q2@quux.io', plan: 'free' } } },
      ])
      // The persons whose e-mail holds 'quux' and whose plan is pro: q1 (PostHog answers the cohort before its task fills it; Sightline after).
      const query = { kind: 'ActorsQuery', select: ['person', 'id', 'created_at', 'person.$delete'], search: 'quux', properties: [{ type: 'person', key: 'plan', value: ['pro'], operator: 'exact' }] }
      const created = await live.call('POST', `${cohorts}/`, { body: { name: 'From the table', is_static: true, query } })
      expect([created.status, created.body.count, created.body.query, created.body.is_static], created.text).toEqual([201, 1, null, true])
      const listed = await live.call('GET', `${cohorts}/${created.body.id}/persons/`)
      expect(listed.body.results.map((p: { distinct_ids: string[] }) => p.distinct_ids)).toEqual([['q1']])
      const v = { type: 'validation_error', code: 'invalid_input' }
      expect(await refused('POST', `${cohorts}/`, { is_static: true, query: { kind: 'TrendsQuery' } })).toEqual({ ...v, detail: 'Query must be an ActorsQuery or HogQLQuery. Got: TrendsQuery', attr: 'query' })
      expect(await refused('POST', `${cohorts}/`, { query })).toEqual({ ...v, detail: 'Cannot create a dynamic cohort with a query. Set is_static to true.', attr: 'query' })
      expect(await refused('POST', `${cohorts}/`, { is_static: true, query: { ...query, source: { kind: 'InsightActorsQuery' } } })).toMatchObject({ ...v, attr: 'query__source' })
      expect(await refused('POST', `${cohorts}/`, { is_static: true, query: { ...query, properties: [{ type: 'event', key: 'x', value: 'y' }] } })).toEqual({
        ...v,
        detail: "The 'event' property filter does not work in 'person' scope",
        attr: 'query__properties__0__type',
      })
      expect(await refused('PATCH', `${cohorts}/${created.body.id}/`, { query })).toMatchObject({ ...v, attr: 'query' })
      expect(live.serverErrors).toEqual([])
    })

    test("another project's action or cohort is not found", async () => {
      const { sightline, a, b } = live
      const action = await sightline.actions.create(a.project.id, { name: 'Mine' })
      const cohort = await sightline.cohorts.create(a.project.id, { name: 'Mine' })
      // A second project of the same organization: the caller may see it, not the first project's records through it.
      const sibling = await sightline.projects.create({ organizationId: a.org.id, name: 'Sibling' })
      for (const path of [`/api/projects/${sibling.id}/actions/${action.id}/`, `/api/projects/${sibling.id}/cohorts/${cohort.id}/`, `/api/projects/${sibling.id}/cohorts/${cohort.id}/persons/`]) {
        expect((await live.call('GET', path)).body, path).toEqual(NOT_FOUND)
        if (!path.endsWith('persons/')) expect((await live.call('PATCH', path, { body: { name: 'x' } })).body, path).toEqual(NOT_FOUND)
      }
      // Another organization's key sees nothing of the project.
      for (const path of [`${actions}/${action.id}/`, `${cohorts}/${cohort.id}/`, `${actions}/`, `${cohorts}/`]) {
        expect((await live.call('GET', path, { key: b.key })).body, path).toEqual(NOT_FOUND)
      }
      // A cohort filter naming another project's cohort is an unknown cohort.
      const elsewhere = await sightline.cohorts.create(sibling.id, {})
      expect(await refused('POST', `${cohorts}/`, { filters: { properties: { type: 'AND', values: [{ type: 'cohort', value: elsewhere.id }] } } })).toMatchObject({
        attr: 'filters__properties__values__0__value',
      })
      expect(live.serverErrors).toEqual([])
    })
  })
}
