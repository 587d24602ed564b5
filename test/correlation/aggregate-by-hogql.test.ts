/**
 * Correlation of a funnel aggregated by a HogQL expression
 * (`funnel_aggregate_by_hogql`, issue 20), on every storage. PostHog's
 * correlation (`funnel_correlation_query_runner.py`, and the ClickHouse
 * `funnel_correlation.py` before it) takes the funnel's actors as they are,
 * `actor_id` being the expression's value, and reads their events by
 * `event.person_id = actor_id` and their properties by `persons.id =
 * actor_id` (an inner join): an expression whose values are person ids
 * (`person.id`) correlates as the persons do; one whose values are not
 * (sessions) leaves only the totals. Counted by hand below.
 */
import { describe, expect, it } from 'vitest'
import type { CorrelationRow } from '@sightline/core'
import { targets } from '../filters/filter-db.js'
import { loadedProject } from '../funnels/support/loaded-project.js'
import { dataset, ev, MARCH, people } from '../reference/funnels/funnel-example-builders.js'
import { urlParams } from './support/journeys.js'

// On 2024-03-05, one session each: a and b sign up, watch and buy; c signs up and watches; d signs up and reads.
const DATA = dataset(
  [
    ev('a', 'signup', '10:00', { $session_id: 's1' }),
    ev('a', 'watch', '10:01', { $session_id: 's1' }),
    ev('a', 'buy', '10:05', { $session_id: 's1' }),
    ev('b', 'signup', '11:00', { $session_id: 's2' }),
    ev('b', 'watch', '11:01', { $session_id: 's2' }),
    ev('b', 'buy', '11:10', { $session_id: 's2' }),
    ev('c', 'signup', '12:00', { $session_id: 's3' }),
    ev('c', 'watch', '12:01', { $session_id: 's3' }),
    ev('d', 'signup', '13:00', { $session_id: 's4' }),
    ev('d', 'read', '13:01', { $session_id: 's4' }),
  ],
  people({ a: { plan: 'pro' }, b: { plan: 'pro' }, c: { plan: 'free' }, d: { plan: 'pro' } }),
)
const FUNNEL = { ...MARCH, events: [{ id: 'signup', order: 0 }, { id: 'buy', order: 1 }] }
const PROPERTIES = { funnel_correlation_type: 'properties', funnel_correlation_names: ['plan'] }
const PAGE = { limit: 10, offset: 0 }

describe.each(targets)('correlation of a funnel aggregated by a HogQL expression on $name', (target) => {
  const project = loadedProject(target, DATA)

  const correlate = async (params: Record<string, unknown>) => (await project().engine.sightline.query.funnelCorrelation(project().projectId, params)).result
  const rows = (events: ReadonlyArray<CorrelationRow>) => events.map((e) => [e.event.event, e.success_count, e.failure_count, e.correlation_type])
  const people = async (url: string) => {
    const page = await project().engine.sightline.query.funnelCorrelationPersons(project().projectId, urlParams(url), PAGE)
    return page.results.map((p) => p.distinct_ids[0]).sort()
  }

  it('person.id: the values are person ids, so events and properties count as by persons', async () => {
    // Actors a, b (converted: S = 2), c, d (F = 2); 4 actors, so a row needs min(25, 2% of 4) = 0.08 actors.
    // watch: a, b converted, c not: s = 2, f = 1, odds (2+1)(2-1+1) / ((2-2+1)(1+1)) = 6/2 = 3, success.
    // read: d: s = 0, f = 1, odds (0+1)(2-1+1) / ((2-0+1)(1+1)) = 2/6 = 1/3, failure.
    for (const params of [FUNNEL, { ...FUNNEL, funnel_aggregate_by_hogql: 'person.id' }]) {
      const result = await correlate(params)
      expect(rows(result.events), JSON.stringify(params)).toEqual([
        ['watch', 2, 1, 'success'],
        ['read', 0, 1, 'failure'],
      ])
      expect(result.events[0]!.odds_ratio).toBeCloseTo(3, 12)
      expect(result.events[1]!.odds_ratio).toBeCloseTo(1 / 3, 12)
      expect(result.skewed).toBe(false)
      expect(await people(result.events[0]!.success_people_url)).toEqual(['a', 'b'])
      expect(await people(result.events[0]!.failure_people_url)).toEqual(['c'])
    }
    // plan: pro for a, b (converted) and d; free for c. pro: s = 2, f = 1, odds 3; free: s = 0, f = 1, odds 1/3.
    const byPlan = await correlate({ ...FUNNEL, ...PROPERTIES, funnel_aggregate_by_hogql: 'person.id' })
    expect(rows(byPlan.events)).toEqual([
      ['plan::pro', 2, 1, 'success'],
      ['plan::free', 0, 1, 'failure'],
    ])
    expect(await people(byPlan.events[0]!.success_people_url)).toEqual(['a', 'b'])
    expect(await people(byPlan.events[0]!.failure_people_url)).toEqual(['d'])
  })

  it('sessions: no event has a session as its person_id and no person that id, so only the totals count', async () => {
    // Actors s1, s2 (converted), s3, s4: S = 2, F = 2, not skewed; watch and read are events of persons a..d,
    // whose ids are not s1..s4, so no row. By the person behind each session they would be the rows above.
    const bySession = { ...FUNNEL, funnel_aggregate_by_hogql: 'properties.$session_id' }
    expect(await correlate(bySession)).toEqual({ events: [], skewed: false })
    expect(await correlate({ ...bySession, ...PROPERTIES })).toEqual({ events: [], skewed: false })
    // A last step nobody reaches: S = 0, F = 4 sessions: no rows, skewed (as PostHog answers when either total is 0).
    expect(await correlate({ ...bySession, events: [{ id: 'signup', order: 0 }, { id: 'nothing', order: 1 }] })).toEqual({ events: [], skewed: true })
  })
})
