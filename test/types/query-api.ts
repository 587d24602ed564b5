/**
 * A library user's calls of `sightline.query`, compiled by `pnpm typecheck`
 * (test/tsconfig.json) and never run: each `@ts-expect-error` line must fail
 * to compile, so a parameter type that stops refusing a misspelled key, or a
 * result that stops being typed, fails the typecheck.
 */
import type {
  ActorsResult,
  FunnelBreakdownStep,
  FunnelParams,
  FunnelResult,
  FunnelStep,
  FunnelTimeToConvert,
  FunnelTrendsSeries,
  LifecycleObject,
  PathEdge,
  RetentionRow,
  Sightline,
  StickinessObject,
  TrendPersonsParams,
  TrendResult,
  TrendSeriesObject,
} from '@sightline/core'

/** Fails to compile unless `A` and `B` are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
const same = <A, B>(check: Equal<A, B>): Equal<A, B> => check

export async function consumer(sightline: Sightline, projectId: number): Promise<void> {
  const steps = [
    { id: '$pageview', type: 'events' },
    { id: 'signed_up', type: 'events' },
  ] as const

  // A steps funnel: a list of steps whose `count` is a number.
  const funnel = await sightline.query.funnel(projectId, { events: steps, funnel_window_interval: 14, funnel_window_interval_unit: 'day' })
  same<typeof funnel.result, FunnelStep[]>(true)
  const first: number | undefined = funnel.result[0]?.count
  const conversion: number | null | undefined = funnel.result[1]?.median_conversion_time
  void first, conversion

  // @ts-expect-error a misspelled parameter is a compile error
  await sightline.query.funnel(projectId, { events: steps, funnel_window_intervall: 14 })
  // @ts-expect-error so is a value outside the parameter's choices
  await sightline.query.funnel(projectId, { events: steps, funnel_order_type: 'sorted' })
  // @ts-expect-error a window unit that does not exist
  await sightline.query.funnel(projectId, { events: steps, funnel_window_interval: 2, funnel_window_interval_unit: 'fortnight' })
  // @ts-expect-error and a misspelled key of a step's property filter
  await sightline.query.funnel(projectId, { events: [{ id: 'a', properties: [{ key: '$browser', valeu: 'Chrome' }] }, { id: 'b' }] })
  // @ts-expect-error and a misspelled key of a step
  await sightline.query.funnel(projectId, { events: [{ idd: 'a' }, { id: 'b' }] })

  // With a breakdown: one list of steps per value.
  const byBrowser = await sightline.query.funnel(projectId, { events: steps, breakdown: '$browser', breakdown_type: 'event' })
  same<typeof byBrowser.result, FunnelBreakdownStep[][]>(true)
  const chrome: number | undefined = byBrowser.result[0]?.[0]?.count

  // The other views.
  const trends = await sightline.query.funnel(projectId, { events: steps, funnel_viz_type: 'trends', interval: 'week' })
  same<typeof trends.result, FunnelTrendsSeries[]>(true)
  const timeToConvert = await sightline.query.funnel(projectId, { events: steps, funnel_viz_type: 'time_to_convert', bin_count: 10 })
  same<typeof timeToConvert.result, FunnelTimeToConvert>(true)
  const average: number | null = timeToConvert.result.average_conversion_time
  void chrome, average

  // A view known only at run time: the union.
  const viz = Math.random() > 0.5 ? ('steps' as const) : ('trends' as const)
  const either = await sightline.query.funnel(projectId, { events: steps, funnel_viz_type: viz })
  same<typeof either.result, FunnelResult>(true)
  // PostHog's old trends display without funnel_viz_type: the steps overloads do not claim it.
  const oldTrends = await sightline.query.funnel(projectId, { events: steps, display: 'ActionsLineGraph' })
  same<typeof oldTrends.result, FunnelResult>(true)
  // Parameters built apart from the call are typed by their interface.
  const stored: FunnelParams = { events: steps, exclusions: [{ id: 'cancelled', type: 'events', funnel_from_step: 0, funnel_to_step: 1 }] }
  await sightline.query.funnel(projectId, stored)

  // Trends: the series objects by insight.
  const trend = await sightline.query.trend(projectId, { events: [{ id: '$pageview', math: 'dau' }], interval: 'day', date_from: '-14d', display: 'ActionsBar' })
  same<typeof trend.result, TrendSeriesObject[]>(true)
  const total: number | undefined = trend.result[0]?.count
  const points: number[] | null | undefined = trend.result[0]?.data
  const math = trend.result[0]?.action?.math
  // @ts-expect-error a series' math is one of Sightline's maths, not any text
  if (math === 'median_of_everything') void math
  void total, points
  // @ts-expect-error a misspelled trend parameter
  await sightline.query.trend(projectId, { events: [{ id: '$pageview' }], breakdown_limt: 5 })
  // @ts-expect-error an interval that does not exist
  await sightline.query.trend(projectId, { events: [{ id: '$pageview' }], interval: 'fortnight' })
  const stickiness = await sightline.query.trend(projectId, { insight: 'STICKINESS', events: [{ id: '$pageview' }] })
  same<typeof stickiness.result, StickinessObject[]>(true)
  const lifecycle = await sightline.query.trend(projectId, { insight: 'LIFECYCLE', events: [{ id: '$pageview' }] })
  same<typeof lifecycle.result, LifecycleObject[]>(true)
  const status: 'new' | 'returning' | 'resurrecting' | 'dormant' | undefined = lifecycle.result[0]?.status
  void status
  const anyInsight = await sightline.query.trend(projectId, { insight: Math.random() > 0.5 ? 'TRENDS' : 'LIFECYCLE', events: [{ id: '$pageview' }] })
  same<typeof anyInsight.result, TrendResult>(true)

  // The persons behind a point: the request plus the link's filter.
  const params = { events: [{ id: '$pageview' }] } as const
  const link = trend.result[0]?.persons_urls?.[0]
  if (link) {
    const point: TrendPersonsParams = { ...params, ...link.filter }
    const persons: ActorsResult = await sightline.query.trendPersons(projectId, point, { limit: 100, offset: 0 })
    const count: number = persons.count
    void count
  }
  // @ts-expect-error a funnel's persons need funnel_step
  await sightline.query.funnelPersons(projectId, { events: steps }, { limit: 100, offset: 0 })
  await sightline.query.funnelPersons(projectId, { events: steps, funnel_step: -2 }, { limit: 100, offset: 0 })
  // funnel_custom_steps (non-empty) stands in for funnel_step.
  await sightline.query.funnelPersons(projectId, { events: steps, funnel_custom_steps: [1, 3] }, { limit: 100, offset: 0 })
  // @ts-expect-error an empty list asks for no step
  await sightline.query.funnelPersons(projectId, { events: steps, funnel_custom_steps: [] }, { limit: 100, offset: 0 })

  // Retention, paths and correlation.
  const retention = await sightline.query.retention(projectId, { target_entity: { id: 'signed_up', type: 'events' }, period: 'Week', total_intervals: 8 })
  same<typeof retention.result, RetentionRow[]>(true)
  const cohort: number | undefined = retention.result[0]?.values[0]?.count
  // @ts-expect-error a misspelled retention parameter
  await sightline.query.retention(projectId, { total_interval: 8 })
  await sightline.query.retentionPersons(projectId, { selected_interval: 0, return_interval: 2 }, { limit: 100, offset: 0 })
  const paths = await sightline.query.paths(projectId, { include_event_types: ['$pageview'], start_point: '/pricing', step_limit: 4 })
  same<typeof paths.result, PathEdge[]>(true)
  // @ts-expect-error a path event type that does not exist
  await sightline.query.paths(projectId, { include_event_types: ['$pageviews'] })
  const correlation = await sightline.query.funnelCorrelation(projectId, { events: steps, funnel_correlation_type: 'properties', funnel_correlation_names: ['$browser'] })
  const odds: number | undefined = correlation.result.events[0]?.odds_ratio
  // @ts-expect-error a misspelled correlation parameter
  await sightline.query.funnelCorrelation(projectId, { events: steps, funnel_correlation_name: ['$browser'] })
  void cohort, odds

  // Cancellation names the run by client_query_id.
  await sightline.query.funnel(projectId, { events: steps, client_query_id: 'checkout-funnel' })
  const cancelled: boolean = await sightline.query.cancel(projectId, 'checkout-funnel')
  void cancelled
}
