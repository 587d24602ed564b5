import { type Interval } from '../shared/ref-time.js'

/** A funnel request read from PostHog's legacy filter JSON: plain, validated, defaults applied. */
export type OrderType = 'ordered' | 'strict' | 'unordered'
export type VizType = 'steps' | 'trends' | 'time_to_convert'
export type Attribution = 'first_touch' | 'last_touch' | 'all_events' | 'step'

/** A series entity (step or exclusion). `id` null on an event entity = "All events". */
export interface FunnelEntity {
  readonly type: 'events' | 'actions'
  readonly id: string | number | null
  readonly customName: string | null
  /** The entity's own property filters (always none for exclusions: the legacy endpoint drops them). */
  readonly properties: unknown
  /** A first-time step math (the only maths a funnel step keeps); absent otherwise. */
  readonly math?: FirstTimeMath
}

export type FirstTimeMath = 'first_time_for_user' | 'first_time_for_user_with_filters'

export interface FunnelExclusion extends FunnelEntity {
  /** 0-based steps; the exclusion covers gaps i with from < i <= to. */
  readonly from: number
  readonly to: number
}

export interface BreakdownSpec {
  readonly type: 'event' | 'person' | 'group' | 'cohort'
  /** Property keys (event, person, group breakdowns). */
  readonly properties: ReadonlyArray<string>
  /** Values are lists (`["Chrome"]`): event and person breakdowns, and any list-valued `breakdown`. */
  readonly boxed: boolean
  readonly groupTypeIndex: number | null
  /** Cohort breakdowns: the cohort ids, `'all'` for everyone. */
  readonly cohorts: ReadonlyArray<number | 'all'>
  readonly limit: number
  readonly attribution: Attribution
  /** 0-based step for `step` attribution. */
  readonly attributionStep: number
}

export interface FunnelSpec {
  readonly steps: ReadonlyArray<FunnelEntity>
  readonly exclusions: ReadonlyArray<FunnelExclusion>
  readonly orderType: OrderType
  readonly vizType: VizType
  readonly windowMicros: number
  readonly properties: unknown
  readonly filterTestAccounts: boolean
  /** null = persons; k = group type k. */
  readonly aggregationGroup: number | null
  /** `funnel_aggregate_by_hogql` of the form `properties.<key>` (no group): that event property's text is the target; null = not used. */
  readonly aggregateByProperty?: string | null
  readonly breakdown: BreakdownSpec | null
  /** Trends and time to convert only (validated there); 0 and the last step by default. */
  readonly fromStep: number
  readonly toStep: number
  readonly binCount: number | null
  readonly interval: Interval
  readonly dateFrom: string | null
  readonly dateTo: string | null
  readonly explicitDate: boolean
}
