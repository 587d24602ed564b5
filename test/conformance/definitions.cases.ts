import { describe, expect } from 'vitest'
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

        const events = await e.sightline.eventDefinitions.list(e.projectId)
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
