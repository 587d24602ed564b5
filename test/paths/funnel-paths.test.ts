/**
 * Funnel paths (issue 20), on every storage: `funnel_paths` with
 * `funnel_filter`, as PostHog's PathsQueryRunner reads them (`handle_funnel`,
 * `funnel_join`, `get_session_threshold_clause`): only the funnel step's
 * persons, their events after the step (a drop-off: after the step they
 * last reached plus one conversion window), before it, or between it and the
 * step before; sessions split at gaps of one funnel window instead of 30
 * minutes. Every edge counted by hand from the events below.
 */
import { describe, expect, it } from 'vitest'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'
import { loadedProject } from '../funnels/support/loaded-project.js'
import { dataset, ev, MARCH } from '../reference/funnels/funnel-example-builders.js'

/**
 * On 2024-03-05 (UTC). p1 converts: home 10:00, signup 10:01, pricing 10:02,
 * buy 10:03, thanks 10:04. p2 drops off after signing up: home 10:00, signup
 * 10:01, about 10:02, docs 10:40 (38 min later), support 11:10 (30 min),
 * leave 11:20. p3 never signs up: home 10:00, docs 10:05. p1 browses with
 * Chrome, p2 with Safari.
 */
const DATA = dataset([
  ev('p1', 'home', '10:00', { $browser: 'Chrome' }),
  ev('p1', 'signup', '10:01', { $browser: 'Chrome' }),
  ev('p1', 'pricing', '10:02', { $browser: 'Chrome' }),
  ev('p1', 'buy', '10:03', { $browser: 'Chrome' }),
  ev('p1', 'thanks', '10:04', { $browser: 'Chrome' }),
  ev('p2', 'home', '10:00', { $browser: 'Safari' }),
  ev('p2', 'signup', '10:01', { $browser: 'Safari' }),
  ev('p2', 'about', '10:02', { $browser: 'Safari' }),
  ev('p2', 'docs', '10:40', { $browser: 'Safari' }),
  ev('p2', 'support', '11:10', { $browser: 'Safari' }),
  ev('p2', 'leave', '11:20', { $browser: 'Safari' }),
  ev('p3', 'home', '10:00'),
  ev('p3', 'docs', '10:05'),
])
/** signup -> buy within one hour: p1 converts (signup 10:01, buy 10:03), p2 stops at signup (10:01). */
const FUNNEL = { ...MARCH, events: [{ id: 'signup', order: 0 }, { id: 'buy', order: 1 }], funnel_window_interval: 1, funnel_window_interval_unit: 'hour' as const }
const PATHS = { ...MARCH, include_event_types: ['custom_event' as const] }
const MIN = 60_000

describePropertySkip()
describe.each(analysisTargets)('funnel paths on $name', (target) => {
  const project = loadedProject(target, DATA)

  const edges = async (type: string, funnelStep: number, extra: Record<string, unknown> = {}) => {
    const { result } = await project().engine.sightline.query.paths(project().projectId, { ...PATHS, ...extra, funnel_paths: type as never, funnel_filter: { ...FUNNEL, funnel_step: funnelStep } })
    return result.map((e) => [e.source, e.target, e.value, e.average_conversion_time])
  }

  it('after, before and between the step of those who reached it', async () => {
    // funnel_step 2 lists p1 (buy at 10:03). After: buy 10:03, thanks 10:04.
    expect(await edges('funnel_path_after_step', 2)).toEqual([['1_buy', '2_thanks', 1, MIN]])
    // Before: home, signup, pricing, buy (up to 10:03 inclusive).
    expect(await edges('funnel_path_before_step', 2)).toEqual([
      ['1_home', '2_signup', 1, MIN],
      ['2_signup', '3_pricing', 1, MIN],
      ['3_pricing', '4_buy', 1, MIN],
    ])
    // Between signup (10:01) and buy (10:03): signup, pricing, buy.
    expect(await edges('funnel_path_between_steps', 2)).toEqual([
      ['1_signup', '2_pricing', 1, MIN],
      ['2_pricing', '3_buy', 1, MIN],
    ])
  })

  it('after a drop-off, from the last step reached; before it, up to one window past that step', async () => {
    // funnel_step -2 lists p2 (dropped before buy; signup at 10:01). After: from 10:01: signup, about, docs, support,
    // leave, one session (gaps of 1, 38, 30 and 10 minutes, all under the one-hour window).
    expect(await edges('funnel_path_after_step', -2)).toEqual([
      ['1_signup', '2_about', 1, MIN],
      ['2_about', '3_docs', 1, 38 * MIN],
      ['3_docs', '4_support', 1, 30 * MIN],
      ['4_support', '5_leave', 1, 10 * MIN],
    ])
    // Before: up to 10:01 + 1 h = 11:01, when p2 counts as dropped: home, signup, about, docs (10:40).
    expect(await edges('funnel_path_before_step', -2)).toEqual([
      ['1_home', '2_signup', 1, MIN],
      ['2_signup', '3_about', 1, MIN],
      ['3_about', '4_docs', 1, 38 * MIN],
    ])
  })

  it('lists the persons funnel_custom_steps names, timed by funnel_step', async () => {
    // [1]: those whose furthest step is 1, p2 alone (p1 reached 2); funnel_step 1 times them at signup (10:01):
    // p2's five nodes, as after its drop-off above. [2] is p1 from signup: signup, pricing, buy, thanks.
    const steps = async (custom: number[]) => {
      const { result } = await project().engine.sightline.query.paths(project().projectId, {
        ...PATHS,
        funnel_paths: 'funnel_path_after_step',
        funnel_filter: { ...FUNNEL, funnel_step: 1, funnel_custom_steps: custom as [number] },
      })
      return result.map((e) => `${e.source}>${e.target}`)
    }
    expect(await steps([1])).toEqual(['1_signup>2_about', '2_about>3_docs', '3_docs>4_support', '4_support>5_leave'])
    expect(await steps([2])).toEqual(['1_signup>2_pricing', '2_pricing>3_buy', '3_buy>4_thanks'])
  })

  it("keeps one breakdown value's persons with funnel_step_breakdown", async () => {
    const steps = async (extra: Record<string, unknown>) => {
      const { result } = await project().engine.sightline.query.paths(project().projectId, {
        ...PATHS,
        funnel_paths: 'funnel_path_after_step',
        funnel_filter: { ...FUNNEL, funnel_step: 1, breakdown_type: 'event', breakdown: '$browser', ...extra } as never,
      })
      return result.map((e) => `${e.source}>${e.target}`)
    }
    // Safari is p2: its five nodes from signup; Chrome is p1: its four.
    expect(await steps({ funnel_step_breakdown: 'Safari' })).toEqual(['1_signup>2_about', '2_about>3_docs', '3_docs>4_support', '4_support>5_leave'])
    expect(await steps({ funnel_step_breakdown: ['Chrome'] })).toEqual(['1_signup>2_pricing', '2_pricing>3_buy', '3_buy>4_thanks'])
    // No value: both, as without the breakdown.
    expect((await steps({})).length).toBe(7)
  })

  it("splits sessions at the funnel's window, not at 30 minutes", async () => {
    // funnel_step 1 lists p1 and p2, events from their signup (10:01). p2's gaps (1, 38, 30, 10 min) are all under
    // the one-hour window: one session signup, about, docs, support, leave (30-minute sessions would split it twice).
    // p1: signup, pricing, buy, thanks. Every edge once; by source, then target.
    expect(await edges('funnel_path_after_step', 1)).toEqual([
      ['1_signup', '2_about', 1, MIN],
      ['1_signup', '2_pricing', 1, MIN],
      ['2_about', '3_docs', 1, 38 * MIN],
      ['2_pricing', '3_buy', 1, MIN],
      ['3_buy', '4_thanks', 1, MIN],
      ['3_docs', '4_support', 1, 30 * MIN],
      ['4_support', '5_leave', 1, 10 * MIN],
    ])
    // Plain paths of the same range, two nodes each: everyone (p3 too), 30-minute sessions. p2 splits before docs
    // (38 min) and before support (30 min): home, signup | docs | support, leave. So: home -> signup (p1, p2),
    // home -> docs (p3), support -> leave (p2's third session); by count, then source and target.
    const { result } = await project().engine.sightline.query.paths(project().projectId, { ...PATHS, step_limit: 2 })
    expect(result.map((e) => [e.source, e.target, e.value])).toEqual([
      ['1_home', '2_signup', 2],
      ['1_home', '2_docs', 1],
      ['1_support', '2_leave', 1],
    ])
  })

  it("lists the persons of a funnel path's node", async () => {
    const people = async (keys: Record<string, string>) => {
      const page = await project().engine.sightline.query.pathPersons(
        project().projectId,
        { ...PATHS, ...keys, funnel_paths: 'funnel_path_after_step', funnel_filter: { ...FUNNEL, funnel_step: 1 } },
        { limit: 10, offset: 0 },
      )
      return page.results.map((p) => p.distinct_ids[0]).sort()
    }
    expect(await people({ path_start_key: '1_signup' })).toEqual(['p1', 'p2'])
    expect(await people({ path_end_key: '5_leave' })).toEqual(['p2'])
    expect(await people({ path_dropoff_key: '4_thanks' })).toEqual(['p1'])
  })

  it('computes a saved PathsQuery with a funnelPathsFilter, as its legacy filters', async () => {
    // PostHog's node: the funnel as a FunnelsQuery, the step and type beside it; the same as funnel_step 2, before.
    const funnelSource = {
      kind: 'FunnelsQuery',
      series: [{ kind: 'EventsNode', event: 'signup' }, { kind: 'EventsNode', event: 'buy' }],
      dateRange: { date_from: MARCH.date_from, date_to: MARCH.date_to },
      funnelsFilter: { funnelWindowInterval: 1, funnelWindowIntervalUnit: 'hour' },
    }
    const query = {
      kind: 'InsightVizNode',
      source: {
        kind: 'PathsQuery',
        dateRange: { date_from: MARCH.date_from, date_to: MARCH.date_to },
        pathsFilter: { includeEventTypes: ['custom_event'] },
        funnelPathsFilter: { funnelPathType: 'funnel_path_before_step', funnelStep: 2, funnelSource },
      },
    }
    const insight = await project().engine.sightline.insights.create(project().projectId, { query } as never)
    const got = await project().engine.sightline.insights.get(project().projectId, insight.id, { refresh: 'force_blocking' })
    // p1 up to buy (10:03): home, signup, pricing, buy.
    expect((got.result as Array<{ source: string; target: string; value: number }>).map((e) => [e.source, e.target, e.value])).toEqual([
      ['1_home', '2_signup', 1],
      ['2_signup', '3_pricing', 1],
      ['3_pricing', '4_buy', 1],
    ])
  })

  it('refuses what is not a funnel path request, naming the key', async () => {
    const attr = async (params: Record<string, unknown>) =>
      project().engine.sightline.query.paths(project().projectId, { ...PATHS, ...params } as never).then(
        () => null,
        (e: { attr?: string }) => e.attr,
      )
    expect(await attr({ funnel_paths: 'funnel_path_after_step' })).toBe('funnel_filter')
    expect(await attr({ funnel_paths: 'funnel_path_around_step', funnel_filter: { ...FUNNEL, funnel_step: 1 } })).toBe('funnel_paths')
    expect(await attr({ funnel_paths: 'funnel_path_after_step', funnel_filter: { ...FUNNEL } })).toBe('funnel_filter__funnel_step')
    expect(await attr({ funnel_paths: 'funnel_path_after_step', funnel_filter: { ...FUNNEL, events: [{ id: 'signup' }], funnel_step: 1 } })).toBe('funnel_filter__events')
    // Between needs a step before the target: funnel_step 1 (and -2, whose last step is the first) has none.
    expect(await attr({ funnel_paths: 'funnel_path_between_steps', funnel_filter: { ...FUNNEL, funnel_step: 1 } })).toBe('funnel_filter__funnel_step')
    expect(await attr({ funnel_paths: 'funnel_path_between_steps', funnel_filter: { ...FUNNEL, funnel_step: -2 } })).toBe('funnel_filter__funnel_step')
    expect(await attr({ funnel_paths: 'funnel_path_after_step', funnel_filter: { ...FUNNEL, funnel_step: 1, aggregation_group_type_index: 0 } })).toBe('funnel_filter__aggregation_group_type_index')
    // funnel_filter alone is checked, and changes nothing (PostHog reads it only with funnel_paths).
    expect(await attr({ funnel_filter: 'not json' })).toBe('funnel_filter')
    expect(await attr({ funnel_filter: { ...FUNNEL, funnel_step: 1 } })).toBeNull()
  })
})
