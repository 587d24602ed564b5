/**
 * Bad input is a ValidationError naming the field, before any SQL runs (one
 * database: nothing here reaches SQL). And the people endpoint's paging and
 * its converted flag: absent lists both sides.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ValidationError, type FunnelCorrelationParams, type FunnelCorrelationPersonsParams } from '@sightline/core'
import { targets } from '../filters/filter-db.js'
import { openFunnelEngine, type FunnelEngine } from '../funnels/support/engine.js'
import { loadExample } from '../funnels/support/load-example.js'
import { Journeys, signupPaid } from './support/journeys.js'

async function fieldOf(run: Promise<unknown>): Promise<string> {
  try {
    await run
  } catch (error) {
    if (error instanceof ValidationError) return error.issues.map((i) => i.path.join('.')).join(',')
    throw error
  }
  throw new Error('expected a ValidationError')
}

describe('funnel correlation validation', () => {
  let engine: FunnelEngine
  let projectId: number
  beforeAll(async () => {
    engine = await openFunnelEngine(targets[0]!)
    const j = new Journeys()
    for (let i = 0; i < 4; i++) {
      j.person(`u${i}`, { plan: i < 2 ? 'pro' : 'free' }).event(`u${i}`, 'user signed up', '2020-01-02T14:00:00Z').event(`u${i}`, 'seen', '2020-01-02T15:00:00Z')
      if (i < 2) j.event(`u${i}`, 'paid', '2020-01-04T14:00:00Z')
    }
    projectId = (await loadExample(engine, j.data())).projectId
  })
  afterAll(() => engine?.close())

  // Parameters as an untyped caller (the HTTP adapter) passes them: the decoder checks them, not the compiler.
  const run = (extra: Record<string, unknown>) => engine.sightline.query.funnelCorrelation(projectId, signupPaid(extra) as FunnelCorrelationParams)
  const people = (extra: Record<string, unknown>, page = { limit: 100, offset: 0 }) =>
    engine.sightline.query.funnelCorrelationPersons(projectId, signupPaid(extra) as FunnelCorrelationPersonsParams, page)

  it('names the field', async () => {
    expect(await fieldOf(run({ funnel_correlation_type: 'nope' }))).toBe('funnel_correlation_type')
    expect(await fieldOf(run({ funnel_correlation_type: 'properties' }))).toBe('funnel_correlation_names')
    expect(await fieldOf(run({ funnel_correlation_type: 'event_with_properties' }))).toBe('funnel_correlation_event_names')
    expect(await fieldOf(run({ funnel_correlation_exclude_event_names: 'x' }))).toBe('funnel_correlation_exclude_event_names')
    expect(await fieldOf(run({ funnel_correlation_names: '[1]', funnel_correlation_type: 'properties' }))).toBe('funnel_correlation_names')
    expect(await fieldOf(run({ funnel_correlation_exclude_names: '[oops' }))).toBe('funnel_correlation_exclude_names')
    expect(await fieldOf(run({ events: [{ id: 'user signed up', order: 0 }] }))).toBe('events')
    expect(await fieldOf(people({}))).toBe('funnel_correlation_person_entity')
    expect(await fieldOf(people({ funnel_correlation_person_entity: { type: 'events' } }))).toBe('funnel_correlation_person_entity.id')
    expect(await fieldOf(people({ funnel_correlation_type: 'properties', funnel_correlation_names: ['plan'] }))).toBe('funnel_correlation_property_values')
    expect(
      await fieldOf(people({ funnel_correlation_type: 'properties', funnel_correlation_names: ['plan'], funnel_correlation_property_values: [{ key: 'plan', value: 'pro', operator: 'icontains' }] })),
    ).toBe('funnel_correlation_property_values.0.operator')
    expect(await fieldOf(people({ funnel_correlation_person_entity: { id: 'seen' } }, { limit: 0, offset: 0 }))).toBe('limit')
  })

  it('people: converted absent lists both sides; text "TrUe" is true; pages by id', async () => {
    const entity = { funnel_correlation_person_entity: JSON.stringify({ id: 'seen', type: 'events' }) }
    expect((await people(entity)).count).toBe(4)
    expect((await people({ ...entity, funnel_correlation_person_converted: 'TrUe' })).count).toBe(2)
    expect((await people({ ...entity, funnel_correlation_person_converted: 'falSE' })).count).toBe(2)
    const all = (await people(entity)).results.map((r) => r.distinct_ids[0])
    const second = await people(entity, { limit: 2, offset: 2 })
    expect(second.count).toBe(4)
    expect(second.results.map((r) => r.distinct_ids[0])).toEqual(all.slice(2))
    const pro = await people({ funnel_correlation_type: 'properties', funnel_correlation_names: ['plan'], funnel_correlation_property_values: [{ key: 'plan', value: 'pro', type: 'person' }] })
    expect(pro.results.map((r) => r.distinct_ids[0]).sort()).toEqual(['u0', 'u1'])
  })
})
