/** An analysis naming an action the project does not have is a ValidationError at that entity's path. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openEngine, type Engine } from '../conformance/harness.js'
import { duckdbMemory } from '../targets/duckdb.js'

describe('unknown actions in analyses', () => {
  let engine: Engine & { close(): Promise<void> }
  let known: number
  beforeAll(async () => {
    engine = await openEngine(duckdbMemory)
    known = (await engine.sightline.actions.create(engine.projectId, { name: 'Paid', steps: [{ event: 'paid' }] })).id
  })
  afterAll(() => engine?.close())

  it('names the series of a trend', async () => {
    await expect(engine.sightline.query.trend(engine.projectId, { actions: [{ id: known }, { id: known + 100 }] })).rejects.toMatchObject({
      name: 'ValidationError',
      issues: [{ path: ['actions', 1], message: `Action ID ${known + 100} does not exist!` }],
    })
  })

  it('names the exclusion of a funnel', async () => {
    const params = {
      events: [{ id: 'a', order: 0 }, { id: 'b', order: 1 }],
      exclusions: [{ id: known + 7, type: 'actions', funnel_from_step: 0, funnel_to_step: 1 }],
    }
    await expect(engine.sightline.query.funnel(engine.projectId, params)).rejects.toMatchObject({ name: 'ValidationError', issues: [{ path: ['exclusions', 0] }] })
  })
})
