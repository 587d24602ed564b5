import { describe, expect } from 'vitest'
import { NotFoundError, type CohortCriteriaGroup, type Sightline } from '@sightline/core'
import { conformanceCase } from './case.js'
import { count, NOW, openEngine } from './harness.js'
import { failure, json, user } from './insights.support.js'
import type { ConformanceTarget } from './target.js'

const DAY = 86_400_000
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString()

/** Five persons, each with one distinct id (its name), and their purchases relative to the engine clock. */
const EVENTS = [
  { distinctId: 'p1', event: 'purchase', timestamp: ago(1 * DAY), properties: { $set: { tier: 'gold', email: 'p1@x.io' } } },
  { distinctId: 'p1', event: 'purchase', timestamp: ago(2 * DAY) },
  { distinctId: 'p1', event: 'purchase', timestamp: ago(5 * DAY) },
  { distinctId: 'p2', event: 'purchase', timestamp: ago(1 * DAY), properties: { $set: { tier: 'silver' } } },
  { distinctId: 'p2', event: 'purchase', timestamp: ago(10 * DAY) },
  { distinctId: 'p3', event: 'purchase', timestamp: ago(40 * DAY) },
  // The window is open at both ends, as PostHog's `timestamp > now() - INTERVAL ... AND timestamp < now()`.
  { distinctId: 'p4', event: 'purchase', timestamp: ago(7 * DAY) },
  { distinctId: 'p4', event: 'purchase', timestamp: ago(7 * DAY - 1000) },
  { distinctId: 'p4', event: 'purchase', timestamp: ago(-3_600_000) },
  { distinctId: 'p5', event: '$pageview', timestamp: ago(1 * DAY) },
]

const group = (type: 'AND' | 'OR', ...values: CohortCriteriaGroup['values']) => ({ properties: { type, values } })
const purchases = (value: 'performed_event' | 'performed_event_multiple', days: number, extra: Record<string, unknown> = {}) =>
  ({ type: 'behavioral', value, key: 'purchase', event_type: 'events', time_value: days, time_interval: 'day', ...extra }) as const
const inCohort = (id: number, extra: Record<string, unknown> = {}) => ({ type: 'cohort', key: 'id', value: id, ...extra }) as const

/** The distinct ids of the cohort's persons (each person here has one). */
async function members(s: Sightline, projectId: number, cohortId: number): Promise<string[]> {
  const page = await s.cohorts.persons(projectId, cohortId, { limit: 1000 })
  return page.results.flatMap((p) => p.distinctIds).sort()
}

export function cohortCases(target: ConformanceTarget): void {
  describe('cohorts', () => {
    conformanceCase(target, 'membership: static lists, person properties, behaviour in a window of the engine clock, nesting, negation', async () => {
      let now = NOW
      const e = await openEngine(target, () => now)
      try {
        const s = e.sightline
        const p = e.projectId
        await s.capture(p, EVENTS)
        const p5 = (await s.persons.get(p, 'p5'))!
        const make = async (filters: object) => (await s.cohorts.create(p, { filters } as never)).id
        const expectMembers = async (id: number, expected: string[], name: string) => {
          expect(await members(s, p, id), name).toEqual(expected)
          expect((await s.cohorts.get(p, id)).count, name).toBe(expected.length)
        }

        const fixed = await s.cohorts.create(p, { name: 'Listed', isStatic: true, distinctIds: ['p1', 'p3', 'nobody'], personIds: [p5.uuid, 'not-a-uuid'] })
        expect(fixed.count).toBe(3)
        await expectMembers(fixed.id, ['p1', 'p3', 'p5'], 'static')
        const gold = await make(group('AND', { type: 'person', key: 'tier', value: 'gold' }))
        await expectMembers(gold, ['p1'], 'person property')
        await expectMembers(await make(group('AND', { type: 'person', key: 'tier', value: 'gold', operator: 'is_not' })), ['p2', 'p3', 'p4', 'p5'], 'is_not: missing counts as not equal')
        await expectMembers(await make(group('OR', { type: 'person', key: 'email', operator: 'is_set' }, { type: 'person', key: 'tier', value: 'silver' })), ['p1', 'p2'], 'OR of person properties')
        await expectMembers(await make(group('AND', purchases('performed_event_multiple', 7, { operator: 'gte', operator_value: 2 }))), ['p1'], 'at least 2 in 7 days')
        const twiceIn14 = await make(group('AND', purchases('performed_event_multiple', 14, { operator: 'gte', operator_value: '2' })))
        await expectMembers(twiceIn14, ['p1', 'p2', 'p4'], 'at least 2 in 14 days')
        const in7 = await make(group('AND', purchases('performed_event', 7)))
        await expectMembers(in7, ['p1', 'p2', 'p4'], 'at least once in 7 days (open window)')
        await expectMembers(await make(group('AND', purchases('performed_event_multiple', 7, { operator: 'lte', operator_value: 1 }))), ['p2', 'p4'], 'at most once, at least once')
        await expectMembers(await make(group('AND', purchases('performed_event_multiple', 7, { operator: 'eq', operator_value: 3 }))), ['p1'], 'exactly 3 times')
        const in2Months = await make(group('AND', { ...purchases('performed_event', 2), time_interval: 'month' }))
        await expectMembers(in2Months, ['p1', 'p2', 'p3', 'p4'], 'calendar months')
        const nested = await make(group('OR', inCohort(gold), inCohort(twiceIn14)))
        await expectMembers(nested, ['p1', 'p2', 'p4'], 'cohorts in a cohort')
        await expectMembers(await make(group('AND', inCohort(in2Months), inCohort(twiceIn14, { negation: true }))), ['p3'], 'negated cohort')
        await expectMembers(await make(group('AND', inCohort(in2Months), inCohort(twiceIn14, { operator: 'not_in' }))), ['p3'], 'not_in cohort')
        // PostHog's check_negation_clause: a negation not paired with a positive criterion in an AND fails the calculation, so no one.
        await expectMembers(await make(group('AND', purchases('performed_event', 30, { negation: true }))), [], 'did not perform, alone')
        await expectMembers(await make(group('AND', { type: 'person', key: 'tier', operator: 'is_set' }, purchases('performed_event', 30, { negation: true }))), [], 'set tier, did not perform: p1 and p2 both did')
        await expectMembers(await make(group('AND', inCohort(in2Months), purchases('performed_event', 7, { negation: true }))), ['p3'], 'did in 2 months, not in 7 days')
        await expectMembers(await make(group('AND')), ['p1', 'p2', 'p3', 'p4', 'p5'], 'no criteria: every person')
        await expectMembers(await make(group('AND', inCohort(nested), inCohort(fixed.id))), ['p1'], 'static in dynamic in dynamic')

        // The `cohort` property-filter type, in an action's step.
        const goldBuys = await s.actions.create(p, { name: 'Gold buys', steps: [{ event: 'purchase', properties: [{ type: 'cohort', key: 'id', value: gold }] }] })
        const otherBuys = await s.actions.create(p, { name: 'Other buys', steps: [{ event: 'purchase', properties: [{ type: 'cohort', key: 'id', value: String(gold), operator: 'not_in' }] }] })
        const viaAction = (id: number) => make(group('AND', { type: 'behavioral', value: 'performed_event', key: id, event_type: 'actions', time_value: 30, time_interval: 'day' }))
        await expectMembers(await viaAction(goldBuys.id), ['p1'], 'cohort filter: in')
        await expectMembers(await viaAction(otherBuys.id), ['p2', 'p4'], 'cohort filter: not_in')

        // Listed persons are added; a soft-deleted cohort still counts where it is named.
        await s.cohorts.update(p, fixed.id, { distinctIds: ['p2'] })
        await expectMembers(fixed.id, ['p1', 'p2', 'p3', 'p5'], 'static, added to')
        expect(await count(e.db, 'cohort_people', 'cohort_id = $1', [fixed.id])).toBe(4)
        await s.cohorts.update(p, gold, { deleted: true })
        await expectMembers(nested, ['p1', 'p2', 'p4'], 'a deleted cohort named by another')

        // Membership is computed when read, relative to the engine clock.
        // Six days later the window starts exactly at p1's and p2's last purchase (excluded), and p4's later one is in it.
        now = new Date(NOW.getTime() + 6 * DAY)
        await expectMembers(in7, ['p4'], 'six days later')
      } finally {
        await e.close()
      }
    }, 60_000)

    conformanceCase(target, 'cohorts are created, listed, updated and soft-deleted in PostHog shape, with activity', async () => {
      const e = await openEngine(target)
      try {
        const ada = await user(e, 'Ada')
        const filters = group('OR', { type: 'person', key: 'plan', value: 'pro' })
        const groups = [{ properties: [{ key: 'plan', value: 'pro', type: 'person' }] }]
        const pro = await e.sightline.cohorts.create(e.projectId, { name: 'Pro', description: 'Paying', groups, filters }, { userId: ada.id })
        expect(pro).toEqual({
          id: pro.id,
          projectId: e.projectId,
          name: 'Pro',
          description: 'Paying',
          groups,
          filters,
          isStatic: false,
          count: 0,
          createdAt: NOW.toISOString().replace('Z', '000Z'),
          createdBy: { id: ada.id, uuid: ada.uuid, distinctId: ada.distinctId, firstName: 'Ada', email: 'ada@acme.io', isEmailVerified: false },
          lastCalculation: NOW.toISOString().replace('Z', '000Z'),
          deleted: false,
        })
        const [row] = await e.db.raw<Record<string, unknown>>('select project_id, name, filters, groups, is_static, deleted, created_by from cohorts where id = $1', [pro.id])
        expect({ ...row, filters: json(row!.filters), groups: json(row!.groups) }).toEqual({ project_id: e.projectId, name: 'Pro', filters, groups, is_static: false, deleted: false, created_by: ada.id })
        const bare = await e.sightline.cohorts.create(e.projectId, {})
        expect(bare).toMatchObject({ name: null, description: '', groups: [], filters: group('AND'), isStatic: false })
        expect((await e.sightline.cohorts.list(e.projectId)).results.map((c) => c.id)).toEqual([bare.id, pro.id])

        await e.sightline.cohorts.update(e.projectId, pro.id, { name: 'Pro users' }, { userId: ada.id })
        await e.sightline.cohorts.update(e.projectId, pro.id, { deleted: true }, { userId: ada.id })
        expect((await e.sightline.cohorts.list(e.projectId)).results.map((c) => c.id)).toEqual([bare.id])
        expect(await e.sightline.cohorts.get(e.projectId, pro.id)).toMatchObject({ name: 'Pro users', deleted: true })
        const log = await e.sightline.activity.list({ projectId: e.projectId, scope: 'Cohort', itemId: pro.id })
        expect(log.results.map((r) => [r.activity, r.detail.changes])).toEqual([
          ['deleted', [{ type: 'Cohort', action: 'changed', field: 'deleted', before: false, after: true }]],
          ['updated', [{ type: 'Cohort', action: 'changed', field: 'name', before: 'Pro', after: 'Pro users' }]],
          ['created', []],
        ])

        const project2 = await e.sightline.projects.create({ organizationId: e.organizationId, name: 'Other' })
        await expect(e.sightline.cohorts.get(project2.id, pro.id)).rejects.toBeInstanceOf(NotFoundError)
        await expect(e.sightline.cohorts.update(project2.id, pro.id, { name: 'x' })).rejects.toBeInstanceOf(NotFoundError)
        await expect(e.sightline.cohorts.persons(project2.id, pro.id)).rejects.toBeInstanceOf(NotFoundError)
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'bad criteria, unknown references and loops are refused at their path, and nothing is written', async () => {
      const e = await openEngine(target)
      try {
        const s = e.sightline
        const a = await s.cohorts.create(e.projectId, { filters: group('AND', { type: 'person', key: 'plan', value: 'pro' }) })
        const b = await s.cohorts.create(e.projectId, { filters: group('AND', inCohort(a.id)) })
        const c = await s.cohorts.create(e.projectId, { filters: group('OR', group('AND', inCohort(b.id)).properties) })
        const deletedAction = await s.actions.create(e.projectId, { name: 'Gone', steps: [{ event: 'x' }] })
        await s.actions.update(e.projectId, deletedAction.id, { deleted: true })
        const project2 = await s.projects.create({ organizationId: e.organizationId, name: 'Other' })
        const elsewhere = await s.cohorts.create(project2.id, {})
        const before = { cohorts: await count(e.db, 'cohorts'), people: await count(e.db, 'cohort_people'), activity: await count(e.db, 'activity_log', "scope = 'Cohort'") }
        const loop = await failure(s.cohorts.update(e.projectId, a.id, { filters: group('AND', inCohort(c.id)) }))
        expect([loop.name, loop.message.endsWith('Cohorts cannot reference other cohorts in a loop.'), loop.attr]).toEqual(['ValidationError', true, 'filters'])
        expect((await failure(s.cohorts.update(e.projectId, a.id, { filters: group('AND', inCohort(a.id)) }))).attr).toBe('filters')
        const v0 = 'filters__properties__values__0'
        for (const [filters, attr] of [
          [group('AND', inCohort(9999)), `${v0}__value`],
          [group('AND', inCohort(elsewhere.id)), `${v0}__value`],
          [group('AND', inCohort(0)), `${v0}__value`],
          [group('OR', { type: 'person', key: 'n', value: 'x', operator: 'gt' }), `${v0}__value`],
          [group('OR', { type: 'person', key: 'n', value: 'x', negation: 'yes' }), `${v0}__negation`],
          [group('AND', { ...purchases('performed_event', 7), value: 'performed_event_sometimes' }), `${v0}__value`],
          [group('AND', { ...purchases('performed_event', 7), value: 'performed_event_sequence' }), `${v0}__seq_event`],
          [group('AND', { ...purchases('performed_event', 7), time_value: 0 }), `${v0}__time_value`],
          [group('AND', { ...purchases('performed_event', 7), time_interval: 'fortnight' }), `${v0}__time_interval`],
          [group('AND', { ...purchases('performed_event', 7), explicit_datetime: 'last tuesday' }), `${v0}__explicit_datetime`],
          [group('AND', purchases('performed_event_multiple', 7, { operator: 'gte' })), `${v0}__operator_value`],
          [group('AND', purchases('performed_event_multiple', 7, { operator: 'between', operator_value: 1 })), `${v0}__operator`],
          [group('AND', { type: 'behavioral', value: 'performed_event', key: deletedAction.id, event_type: 'actions', time_value: 1, time_interval: 'day' }), `${v0}__key`],
          [group('AND', purchases('performed_event', 7, { event_filters: [{ key: '$current_url', value: '(', operator: 'regex' }] })), `${v0}__event_filters__0__value`],
          [group('AND', { type: 'event', key: 'x' }), `${v0}__type`],
          [group('XOR' as 'AND'), 'filters__properties__type'],
          [group('AND', purchases('performed_event', 7, { event_type: 'sessions' })), `${v0}__event_type`],
          [{ properties: 'x' }, 'filters__properties'],
        ] as const) {
          const error = await failure(s.cohorts.create(e.projectId, { filters: filters as never }))
          expect([error.name, error.attr], JSON.stringify(filters)).toEqual(['ValidationError', attr])
        }
        expect((await failure(s.cohorts.create(e.projectId, { distinctIds: ['p1'] }))).attr).toBe('distinctIds')
        expect({ cohorts: await count(e.db, 'cohorts'), people: await count(e.db, 'cohort_people'), activity: await count(e.db, 'activity_log', "scope = 'Cohort'") }).toEqual(before)
      } finally {
        await e.close()
      }
    })
  })
}
