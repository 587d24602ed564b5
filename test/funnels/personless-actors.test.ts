/**
 * Personless events (`$process_person_profile: false`: no person row for the
 * distinct id) make a person of their own in funnels and correlation. Runs
 * are keyed by a fixed-size person key, under which a personless distinct id
 * stands as the uuid of its md5; the actor lists must still show the
 * distinct id itself, next to real persons, on every storage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'
import { dataset, ev, MARCH, people } from '../reference/funnels/funnel-example-builders.js'
import { openFunnelEngine, type FunnelEngine } from './support/engine.js'
import { loadExample } from './support/load-example.js'

const ghostly = { $process_person_profile: false }
const paramsOf = (url: string): Record<string, unknown> => Object.fromEntries(new URL(url, 'http://x').searchParams)

describePropertySkip()
describe.each(analysisTargets)('personless actors on $name', (target) => {
  let engine: FunnelEngine
  beforeAll(async () => {
    engine = await openFunnelEngine(target)
  })
  afterAll(() => engine?.close())

  it('a personless distinct id converts as a person of its own and is listed as itself', async () => {
    // ghost (personless) and bob (a person) both do signup then purchase; carol only signs up.
    const data = dataset(
      [
        ev('ghost', 'signup', '10:00', ghostly),
        ev('ghost', 'purchase', '10:20', ghostly),
        ev('bob', 'signup', '10:05'),
        ev('bob', 'purchase', '10:30'),
        ev('carol', 'signup', '10:10'),
      ],
      people({ bob: { plan: 'free' }, carol: { plan: 'pro' } }),
    )
    const loaded = await loadExample(engine, data)
    const ghostPerson = await engine.sightline.persons.get(loaded.projectId, 'ghost')
    expect(ghostPerson).toBeNull()
    const params = { ...MARCH, events: [{ id: 'signup' }, { id: 'purchase' }] }
    const { result } = await engine.sightline.query.funnel(loaded.projectId, params)
    expect((result as Array<{ count: number }>).map((s) => s.count)).toEqual([3, 2])

    const converted = await engine.sightline.query.funnelPersons(loaded.projectId, { ...params, funnel_step: 2 }, { limit: 10, offset: 0 })
    const bob = await engine.sightline.persons.get(loaded.projectId, 'bob')
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1)
    expect(converted.count).toBe(2)
    expect([...converted.results].sort(byId)).toEqual(
      [
        { id: bob!.uuid, distinct_ids: ['bob'], properties: { plan: 'free' }, created_at: bob!.createdAt },
        // A personless actor's created_at is its first event in the funnel.
        { id: 'ghost', distinct_ids: ['ghost'], properties: {}, created_at: '2024-03-05T10:00:00.000000Z' },
      ].sort(byId),
    )
  })

  it('correlation lists a personless converter as its distinct id', async () => {
    // ghost, bob and dave convert (signup -> purchase), each viewing pricing in between; erin, fay and gus sign up and stop.
    // pricing: 3 successes, 0 failures of S = F = 3 (a row needs more than 2 actors, and both outcomes in the funnel).
    const data = dataset(
      [
        ev('ghost', 'signup', '10:00', ghostly),
        ev('ghost', 'pricing', '10:05', ghostly),
        ev('ghost', 'purchase', '10:20', ghostly),
        ev('bob', 'signup', '10:00'),
        ev('bob', 'pricing', '10:06'),
        ev('bob', 'purchase', '10:30'),
        ev('dave', 'signup', '10:00'),
        ev('dave', 'pricing', '10:07'),
        ev('dave', 'purchase', '10:40'),
        ev('erin', 'signup', '10:00'),
        ev('fay', 'signup', '10:00'),
        ev('gus', 'signup', '10:00'),
      ],
      people({ bob: {}, dave: {}, erin: {}, fay: {}, gus: {} }),
    )
    const loaded = await loadExample(engine, data)
    const { result } = await engine.sightline.query.funnelCorrelation(loaded.projectId, {
      ...MARCH,
      events: [{ id: 'signup' }, { id: 'purchase' }],
      funnel_correlation_type: 'events',
    })
    const pricing = result.events.find((e) => e.event.event === 'pricing')!
    expect([pricing.success_count, pricing.failure_count]).toEqual([3, 0])
    const listed = await engine.sightline.query.funnelCorrelationPersons(loaded.projectId, paramsOf(pricing.success_people_url), { limit: 10, offset: 0 })
    const bob = await engine.sightline.persons.get(loaded.projectId, 'bob')
    const dave = await engine.sightline.persons.get(loaded.projectId, 'dave')
    expect(listed.count).toBe(3)
    expect(listed.results.map((a) => [a.id, a.distinct_ids]).sort()).toEqual([[bob!.uuid, ['bob']], [dave!.uuid, ['dave']], ['ghost', ['ghost']]].sort())
  })
})
