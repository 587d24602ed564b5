/**
 * `funnel_aggregate_by_hogql` (issue 20), on every storage: PostHog's
 * `_aggregation_target_expr` makes the expression's value the funnel's
 * target (a group type wins; `person_id` is the person) and
 * `_aggregation_target_filter` drops rows where it is null or ''; the
 * people lists name the targets' persons. Counted by hand below.
 */
import { describe, expect, it } from 'vitest'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'
import type { FunnelPersonsParams } from '@sightline/core'
import { loadedProject } from './support/loaded-project.js'
import { MARCH } from '../reference/funnels/funnel-example-builders.js'
import { SESSIONS } from '../reference/funnels/funnel-examples-aggregation.js'

// a: s1 (signup 10:00, buy 10:05), s2 (signup 12:00); b: s3 (signup 11:00), s4 (buy 11:30); c: '' and no session.
const DATA = SESSIONS
const FUNNEL = { ...MARCH, events: [{ id: 'signup' }, { id: 'buy' }] }
const BY_SESSION = { ...FUNNEL, funnel_aggregate_by_hogql: 'properties.$session_id' }
const PAGE = { limit: 10, offset: 0 }

describePropertySkip()
describe.each(analysisTargets)('funnels aggregated by a HogQL expression on $name', (target) => {
  const project = loadedProject(target, DATA)

  const counts = async (params: Record<string, unknown>) => {
    const { result } = await project().engine.sightline.query.funnel(project().projectId, params)
    return (result as Array<{ count: number; average_conversion_time: number | null }>).map((s) => [s.count, s.average_conversion_time])
  }
  const people = async (params: FunnelPersonsParams) => {
    const page = await project().engine.sightline.query.funnelPersons(project().projectId, params, PAGE)
    return { count: page.count, who: page.results.map((p) => p.distinct_ids[0]).sort() }
  }

  it('counts the expression values as targets, leaving out null and empty ones', async () => {
    // Targets: s1 (signup 10:00, buy 10:05: 2 steps, 300 s), s2 (signup: 1), s3 (signup: 1); s4 has no signup,
    // c's '' and missing sessions take no part. Step 0: s1 + s2 + s3 = 3; step 1: s1 = 1, average 300 s.
    expect(await counts(BY_SESSION)).toEqual([[3, null], [1, 300]])
    // By persons: a (10:00 -> 10:05, 300 s), b (11:00 -> 11:30, 1800 s), c (13:00 -> 13:10, 600 s): 3 and 3,
    // average (300 + 1800 + 600) / 3 = 900 s. "person_id" and an empty expression are the person.
    for (const byPerson of [FUNNEL, { ...FUNNEL, funnel_aggregate_by_hogql: 'person_id' }, { ...FUNNEL, funnel_aggregate_by_hogql: '' }]) {
      expect(await counts(byPerson), JSON.stringify(byPerson)).toEqual([[3, null], [3, 900]])
    }
    // A group type wins over the expression: no event has a $group_0, so nobody enters.
    expect((await counts({ ...BY_SESSION, aggregation_group_type_index: 0 })).map(([c]) => c)).toEqual([0, 0])
    // Any expression of the HogQL subset: the event's distinct id is the person here (one each), as by persons.
    expect(await counts({ ...FUNNEL, funnel_aggregate_by_hogql: 'distinct_id' })).toEqual([[3, null], [3, 900]])
  })

  it('aggregates the trends and time-to-convert views by the expression too', async () => {
    // Trends by day over 2024-03-04..06: on the 5th, 3 sessions entered (s1, s2, s3), 1 converted (s1): 33.33...%.
    const trends = await project().engine.sightline.query.funnel(project().projectId, { ...BY_SESSION, date_from: '2024-03-04', date_to: '2024-03-06', funnel_viz_type: 'trends' })
    const series = trends.result as Array<{ data: number[]; days: string[] }>
    expect(series[0]!.days).toEqual(['2024-03-04', '2024-03-05', '2024-03-06'])
    expect(series[0]!.data.map((v) => Math.round(v * 100) / 100)).toEqual([0, 33.33, 0])
    // Time to convert: one sample, s1's 300 s.
    const ttc = await project().engine.sightline.query.funnel(project().projectId, { ...BY_SESSION, funnel_viz_type: 'time_to_convert' })
    expect((ttc.result as { average_conversion_time: number | null }).average_conversion_time).toBe(300)
  })

  it("lists the targets' persons, each once", async () => {
    // Reached step 1: s1, s2 (a's) and s3 (b's): a once, b.
    expect(await people({ ...BY_SESSION, funnel_step: 1 })).toEqual({ count: 2, who: ['a', 'b'] })
    // Reached step 2: s1: a.
    expect(await people({ ...BY_SESSION, funnel_step: 2 })).toEqual({ count: 1, who: ['a'] })
    // Dropped before step 2: s2 (a) and s3 (b).
    expect(await people({ ...BY_SESSION, funnel_step: -2 })).toEqual({ count: 2, who: ['a', 'b'] })
    // By persons, nobody dropped.
    expect(await people({ ...FUNNEL, funnel_step: -2 })).toEqual({ count: 0, who: [] })
  })

  it('refuses an expression outside the subset, naming the key (correlation: test/correlation/aggregate-by-hogql.test.ts)', async () => {
    await expect(project().engine.sightline.query.funnel(project().projectId, { ...FUNNEL, funnel_aggregate_by_hogql: 'sleep(10)' })).rejects.toMatchObject({ attr: 'funnel_aggregate_by_hogql' })
    await expect(project().engine.sightline.query.funnelCorrelation(project().projectId, { ...FUNNEL, funnel_aggregate_by_hogql: 'sleep(10)' })).rejects.toMatchObject({ attr: 'funnel_aggregate_by_hogql' })
  })
})
