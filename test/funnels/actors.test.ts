/**
 * sightline.query.funnelPersons against the steps view: following each step object's people
 * URLs (as a GET query string, the way a client sends them back) lists as
 * many actors as the step's count (converted) or the previous step's count
 * minus this one (dropped), with or without a breakdown, and
 * `funnel_custom_steps` as many as stopped at the steps it names; and the
 * actors themselves carry the person's uuid, distinct ids and properties.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FunnelPersonsParams } from '@sightline/core'
import { targets } from '../filters/filter-db.js'
import { dataset, ev, MARCH, people } from '../reference/funnels/funnel-example-builders.js'
import { FUNNEL_EXAMPLES } from '../reference/funnels/funnel-examples.js'
import { datasetArb, paramsArb } from './support/arbitraries.js'
import { openFunnelEngine, type FunnelEngine } from './support/engine.js'
import { loadExample } from './support/load-example.js'
import { reportBeforeTimeout } from '../execution/report-before-timeout.js'

type Step = { count: number; converted_people_url: string; dropped_people_url: string | null }

/** The query string of a people URL as the GET parameters a client would send back. */
const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams)
/** The same as the persons method's parameters: text, so the decoder checks it, not the compiler. */
const paramsOf = (url: string) => queryOf(url) as unknown as FunnelPersonsParams

describe.each(targets)('funnel actors on $name', (target) => {
  let engine: FunnelEngine
  beforeAll(async () => {
    engine = await openFunnelEngine(target)
  })
  afterAll(() => engine?.close())

  it('lists the persons of a step with their distinct ids and properties', async () => {
    const data = dataset(
      [ev('anon', 'signup', '10:00'), ev('user', 'purchase', '10:30'), ev('bob', 'signup', '10:00'), ev('loner', 'signup', '10:05')],
      { anon: { id: 'P', properties: { plan: 'pro' } }, user: { id: 'P', properties: { plan: 'pro' } }, ...people({ bob: { plan: 'free' } }) },
    )
    const loaded = await loadExample(engine, data)
    const params = { ...MARCH, events: [{ id: 'signup' }, { id: 'purchase' }] }
    const converted = await engine.sightline.query.funnelPersons(loaded.projectId, { ...params, funnel_step: 2 }, { limit: 10, offset: 0 })
    const p = await engine.sightline.persons.get(loaded.projectId, 'anon')
    expect(converted).toEqual({ count: 1, results: [{ id: p!.uuid, distinct_ids: ['anon', 'user'], properties: { plan: 'pro' }, created_at: p!.createdAt }] })
    const dropped = await engine.sightline.query.funnelPersons(loaded.projectId, { ...params, funnel_step: -2 }, { limit: 10, offset: 0 })
    expect(dropped.count).toBe(2)
    const bob = await engine.sightline.persons.get(loaded.projectId, 'bob')
    const loner = await engine.sightline.persons.get(loaded.projectId, 'loner')
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1)
    expect([...dropped.results].sort(byId)).toEqual(
      [
        { id: bob!.uuid, distinct_ids: ['bob'], properties: { plan: 'free' }, created_at: bob!.createdAt },
        // Capture gave the unknown distinct id a person of its own.
        { id: loner!.uuid, distinct_ids: ['loner'], properties: loner!.properties, created_at: loner!.createdAt },
      ].sort(byId),
    )
    // Paging: one at a time, the same total.
    const first = await engine.sightline.query.funnelPersons(loaded.projectId, { ...params, funnel_step: 1 }, { limit: 1, offset: 0 })
    const past = await engine.sightline.query.funnelPersons(loaded.projectId, { ...params, funnel_step: 1 }, { limit: 1, offset: 5 })
    expect([first.count, first.results.length, past.count, past.results.length]).toEqual([3, 1, 3, 0])
  })

  it('lists a group once per value merged into Other, as Other sums its counts', async () => {
    // The worked example (hand-derived): acme runs under "" (1 -> 1), free (1 -> 1) and pro (1 -> 0); limit 1 keeps "", Other is 2 -> 1.
    const example = FUNNEL_EXAMPLES.find((e) => e.name.startsWith('groups with a person breakdown, step 0 attribution at one instant'))!
    const loaded = await loadExample(engine, example.data)
    const { result } = await engine.sightline.query.funnel(loaded.projectId, loaded.params(example.params))
    const other = (result as unknown as Array<Array<Step & { breakdown_value: unknown }>>).find((s) => JSON.stringify(s[0]!.breakdown_value) === '["Other"]')!
    const list = async (url: string | null) => {
      const page = await engine.sightline.query.funnelPersons(loaded.projectId, paramsOf(url!), { limit: 10, offset: 0 })
      return [page.count, page.results.map((a) => a.id)]
    }
    expect(other.map((s) => s.count)).toEqual([2, 1])
    expect(await list(other[0]!.converted_people_url)).toEqual([2, ['acme', 'acme']])
    expect(await list(other[1]!.converted_people_url)).toEqual([1, ['acme']])
    expect(await list(other[1]!.dropped_people_url)).toEqual([1, ['acme']])
    const onePerPage = await engine.sightline.query.funnelPersons(loaded.projectId, paramsOf(other[0]!.converted_people_url), { limit: 1, offset: 1 })
    expect([onePerPage.count, onePerPage.results.map((a) => a.id)]).toEqual([2, ['acme']])
  })

  it('refuses a missing or impossible funnel_step, naming it', async () => {
    const loaded = await loadExample(engine, dataset([]))
    const params = { ...MARCH, events: [{ id: 'a' }, { id: 'b' }] }
    for (const step of [undefined, 0, -1, 3, -3]) {
      // A missing step on purpose: the types refuse it, so it is cast, as a JavaScript or HTTP caller's would arrive.
      await expect(engine.sightline.query.funnelPersons(loaded.projectId, { ...params, funnel_step: step } as FunnelPersonsParams, { limit: 10, offset: 0 })).rejects.toMatchObject({ attr: 'funnel_step' })
    }
  })

  it("each step's people URLs list as many actors as its counts say", async () => {
    await fc.assert(
      fc.asyncProperty(datasetArb, fc.array(paramsArb(['ordered', 'strict', 'unordered']), { minLength: 2, maxLength: 2 }), async (data, requests) => {
        const loaded = await loadExample(engine, data)
        for (const params of requests) {
          const { result } = await engine.sightline.query.funnel(loaded.projectId, loaded.params(params))
          const series = (Array.isArray((result as unknown[])[0]) ? result : [result]) as Step[][]
          // Two series are enough to follow the breakdown value into the URL.
          for (const steps of series.slice(0, 2)) {
            for (const [i, step] of steps.entries()) {
              const converted = await engine.sightline.query.funnelPersons(loaded.projectId, paramsOf(step.converted_people_url), { limit: 1, offset: 0 })
              expect(converted.count, step.converted_people_url).toBe(step.count)
              if (i === 0) {
                expect(step.dropped_people_url).toBeNull()
                continue
              }
              const dropped = await engine.sightline.query.funnelPersons(loaded.projectId, paramsOf(step.dropped_people_url!), { limit: 1, offset: 0 })
              expect(dropped.count, step.dropped_people_url!).toBe(steps[i - 1]!.count - step.count)
            }
            // funnel_custom_steps lists who stopped at any of the 1-based steps given: at step s, count(s) - count(s + 1) of them
            // (the last step: its count). Here the odd steps, beside the first step's breakdown value. A breakdown that
            // nobody entered answers no series at all (`[]`), so there are no URLs to follow.
            if (steps.length === 0) {
              expect(params.breakdown, 'only a breakdown answers no series').toBeDefined()
              continue
            }
            // Never empty: the steps are, so step 1 is among them.
            const custom = steps.map((_, i) => i + 1).filter((s) => s % 2 === 1) as [number, ...number[]]
            const stoppedAt = (s: number) => steps[s - 1]!.count - (steps[s]?.count ?? 0)
            const { funnel_step: _step, ...base } = queryOf(steps[0]!.converted_people_url)
            const listed = await engine.sightline.query.funnelPersons(loaded.projectId, { ...base, funnel_custom_steps: custom }, { limit: 1, offset: 0 })
            expect(listed.count, JSON.stringify(custom)).toBe(custom.reduce((sum, s) => sum + stoppedAt(s), 0))
          }
        }
      }),
      { numRuns: 8, ...reportBeforeTimeout(120_000) },
    )
  }, 120_000)
})
