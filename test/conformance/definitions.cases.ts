import { describe, expect } from 'vitest'
import { ConflictError, NotFoundError, ValidationError } from '@sightline/core'
import { conformanceCase } from './case.js'
import { NOW, openEngine } from './harness.js'
import type { ConformanceTarget } from './target.js'

export function definitionCases(target: ConformanceTarget): void {
  describe('definitions', () => {
    conformanceCase(target, 'event and property definitions are maintained on ingest, with inferred types', async () => {
      let now = NOW
      const e = await openEngine(target, () => now)
      try {
        await e.sightline.capture(e.projectId, [
          {
            event: '$pageview',
            distinctId: 'u',
            properties: {
              $browser: 'Firefox',
              load_time_ms: 120,
              is_beta: 'true',
              signed_up_at: '2026-01-01T10:00:00Z',
              last_seen_time: 1772000000, // a unix time within six months of the clock
              tags: ['a'],
              nothing: null,
              utm_campaign: '2026-01-01',
              $set: { plan: 'pro', seats: 3 },
              $set_once: { first_plan: 'free' },
            },
          },
          { event: '$identify', distinctId: 'u', properties: { $anon_distinct_id: 'a' } },
          { event: '$groupidentify', distinctId: 'u', properties: { $group_type: 'company', $group_key: 'acme', $group_set: { industry: 'tools', employees: 50 } } },
        ])
        // A later batch: the first type of a property wins; a type unknown so far is filled in; last_seen_at moves.
        now = new Date(NOW.getTime() + 3600_000)
        await e.sightline.capture(e.projectId, [{ event: '$pageview', distinctId: 'u', properties: { load_time_ms: 'slow', nothing: 5 } }])

        const { results: events } = await e.sightline.eventDefinitions.list(e.projectId)
        expect(events.map((d) => d.name)).toEqual(['$groupidentify', '$identify', '$pageview'])
        const pageview = events.find((d) => d.name === '$pageview')!
        expect(pageview).toMatchObject({ createdAt: '2026-03-01T12:00:00.000000Z', lastSeenAt: '2026-03-01T13:00:00.000000Z', tags: [], postToSlack: false })

        const props = await e.sightline.propertyDefinitions.list(e.projectId)
        const byKey = Object.fromEntries(props.map((p) => [`${p.type}:${p.name}`, [p.propertyType, p.groupTypeIndex]]))
        expect(byKey).toEqual({
          'event:$browser': ['String', null],
          'event:load_time_ms': ['Numeric', null],
          'event:is_beta': ['Boolean', null],
          'event:signed_up_at': ['DateTime', null],
          'event:last_seen_time': ['DateTime', null],
          'event:tags': [null, null],
          'event:nothing': ['Numeric', null],
          'event:utm_campaign': ['String', null],
          'event:$anon_distinct_id': ['String', null],
          'person:plan': ['String', null],
          'person:seats': ['Numeric', null],
          'person:first_plan': ['String', null],
          'person:$browser': ['String', null],
          'person:$initial_browser': ['String', null],
          // utm_* are copied to the person like $browser (PostHog's automatic person properties).
          'person:utm_campaign': ['String', null],
          'person:$initial_utm_campaign': ['String', null],
          'group:industry': ['String', 0],
          'group:employees': ['Numeric', 0],
        })
        expect(props.find((p) => p.name === 'load_time_ms')?.isNumerical).toBe(true)
        const [raw] = await e.db.raw<{ n: number }>("select count(*) as n from property_definitions where name = 'load_time_ms' and property_type = 'Numeric' and is_numerical")
        expect(Number(raw!.n)).toBe(1)
      } finally {
        await e.close()
      }
    })
  })
}

export function eventDefinitionEditCases(target: ConformanceTarget): void {
  describe('event definitions', () => {
    conformanceCase(target, 'event definitions page, update with an activity entry, and delete until the event comes again', async () => {
      const e = await openEngine(target)
      try {
        const user = await e.sightline.users.create({ email: 'ed@acme.io', firstName: 'Ed', organizationIds: [e.organizationId] })
        await e.sightline.capture(e.projectId, ['b', 'a', 'c', 'a_b'].map((event) => ({ event, distinctId: 'u' })))
        const page = await e.sightline.eventDefinitions.list(e.projectId, { limit: 2, offset: 1 })
        expect(page.count).toBe(4)
        expect(page.results.map((d) => d.name)).toEqual(['a_b', 'b'])
        expect((await e.sightline.eventDefinitions.list(e.projectId, { search: '_' })).results.map((d) => d.name)).toEqual(['a_b'])
        const a = (await e.sightline.eventDefinitions.list(e.projectId, { limit: 1 })).results[0]!
        const updated = await e.sightline.eventDefinitions.update(
          e.projectId,
          a.id,
          { tags: ['core', 'core'], postToSlack: true, description: 'the A event', lastSeenAt: '2026-01-02T03:04:05Z' },
          { userId: user.id },
        )
        expect(updated).toMatchObject({ name: 'a', tags: ['core'], postToSlack: true, description: 'the A event', lastSeenAt: '2026-01-02T03:04:05.000000Z', lastUpdatedAt: '2026-03-01T12:00:00.000000Z' })
        const log = await e.sightline.activity.list({ projectId: e.projectId, scope: 'EventDefinition', itemId: a.id })
        expect(log.count).toBe(1)
        expect(log.results[0]).toMatchObject({ userId: user.id, activity: 'updated', detail: { name: 'a' } })
        expect(log.results[0]!.detail.changes.map((c) => c.field)).toEqual(['description', 'tags', 'postToSlack', 'lastSeenAt'])
        expect(log.results[0]!.detail.changes.find((c) => c.field === 'tags')).toMatchObject({ before: [], after: ['core'] })
        await expect(e.sightline.eventDefinitions.update(e.projectId, a.id, { name: 'b' })).rejects.toBeInstanceOf(ConflictError)
        await expect(e.sightline.eventDefinitions.update(e.projectId, a.id, { createdAt: 'then' })).rejects.toBeInstanceOf(ValidationError)
        await expect(e.sightline.eventDefinitions.get(e.projectId, 'not-a-uuid')).rejects.toBeInstanceOf(NotFoundError)
        await e.sightline.eventDefinitions.delete(e.projectId, a.id, { userId: user.id })
        await expect(e.sightline.eventDefinitions.get(e.projectId, a.id)).rejects.toBeInstanceOf(NotFoundError)
        expect((await e.sightline.eventDefinitions.list(e.projectId)).count).toBe(3)
        await e.sightline.capture(e.projectId, [{ event: 'a', distinctId: 'u' }])
        expect((await e.sightline.eventDefinitions.list(e.projectId)).count).toBe(4)
        expect((await e.sightline.activity.list({ projectId: e.projectId, scope: 'EventDefinition' })).results.map((x) => x.activity)).toEqual(['deleted', 'updated'])
      } finally {
        await e.close()
      }
    })
  })
}
