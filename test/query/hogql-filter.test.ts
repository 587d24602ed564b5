/** `type: 'hogql'` property filters inside an analysis, on every storage target. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openEngine, type Engine } from '../conformance/harness.js'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'

describePropertySkip()
describe.each(analysisTargets)('HogQL filters in a trend on $name', (target) => {
  let engine: Engine & { close(): Promise<void> }
  beforeAll(async () => {
    engine = await openEngine(target)
    await engine.sightline.persons.upsert(engine.projectId, { distinctIds: ['ada'], properties: { email: 'ada@acme.io' } })
    await engine.sightline.capture(engine.projectId, [
      { event: 'buy', distinctId: 'ada', timestamp: '2026-02-27T10:00:00Z', properties: { amount: 30 } },
      { event: 'buy', distinctId: 'ada', timestamp: '2026-02-27T11:00:00Z', properties: { amount: 5 } },
      { event: 'buy', distinctId: 'bob', timestamp: '2026-02-27T12:00:00Z', properties: { amount: 50 } },
    ])
  })
  afterAll(() => engine?.close())

  const count = async (expression: string): Promise<number> => {
    const { result } = await engine.sightline.query.trend(engine.projectId, {
      events: [{ id: 'buy' }],
      date_from: '2026-02-27',
      date_to: '2026-02-27',
      properties: [{ type: 'hogql', key: expression }],
    })
    return (result as Array<{ count: number }>)[0]!.count
  }

  it('reads event properties, person properties and arithmetic', async () => {
    expect(await count('properties.amount * 2 > 20')).toBe(2) // 30 and 50
    expect(await count("person.properties.email like '%@acme.io'")).toBe(2) // ada's two
    expect(await count("distinct_id = 'bob' or properties.amount < 10")).toBe(2) // bob's 50 and ada's 5
  })

  it('refuses what is outside the subset with a 400-style error naming the filter', async () => {
    await expect(count('(select 1)')).rejects.toMatchObject({ name: 'ValidationError', issues: [{ path: ['properties', 0] }] })
  })
})
