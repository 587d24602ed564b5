import type { BreakdownSpec } from '../breakdowns/breakdown-spec.js'
import type { Interval } from '../dates/interval.js'
import type { PropertyFilters } from '../filters/property-filters.js'
import type { SeriesEntity } from '../series/series.js'

export type FunnelOrder = 'ordered' | 'strict' | 'unordered'
export type FunnelViz = 'steps' | 'trends' | 'time_to_convert'
export type FunnelAttribution = 'first_touch' | 'last_touch' | 'all_events' | 'step'

/** An entity that, done between two steps of its range, removes the attempt (unordered: resets progress). */
export interface FunnelExclusion {
  /** Event name (null = any event) or action; properties are always empty (the legacy endpoint drops them). */
  readonly entity: SeriesEntity
  /** 0-based steps: the exclusion covers each gap i (between step i-1 and step i) with from < i <= to. */
  readonly from: number
  readonly to: number
}

/** A funnel's breakdown: its dimensions and how a person's value is chosen. */
export interface FunnelBreakdown {
  /** One spec per property (event, person, group, session, hogql), or one cohort spec. */
  readonly dims: ReadonlyArray<BreakdownSpec>
  /** Values are lists (`["Chrome"]`): event, person and hogql breakdowns, and list-valued group ones. */
  readonly boxed: boolean
  /** The request used the `breakdowns` list (PostHog renames `breakdown` to `breakdowns` in its answer). */
  readonly viaBreakdowns: boolean
  /** Values kept before the rest merge into "Other" (steps view of event, person and group breakdowns). */
  readonly limit: number
  readonly attribution: FunnelAttribution
  /** 0-based step of `step` attribution; 0 otherwise. */
  readonly attributionStep: number
}

/** A legacy funnel request, validated and defaulted (PostHog's `filter_to_query` plus DECISIONS.md). */
export interface FunnelRequest {
  /** The request as read (GET text decoded), echoed in the people URLs. */
  readonly params: Readonly<Record<string, unknown>>
  readonly steps: ReadonlyArray<SeriesEntity>
  readonly exclusions: ReadonlyArray<FunnelExclusion>
  readonly order: FunnelOrder
  readonly viz: FunnelViz
  /** Conversion window in microseconds: measured from the step-0 event, inclusive. */
  readonly windowMicros: number
  readonly properties: PropertyFilters
  readonly filterTestAccounts: boolean
  /** null: persons; k: groups of type k. */
  readonly aggregationGroup: number | null
  /** With no group: the HogQL expression whose text is the target (`funnel_aggregate_by_hogql`); null: persons. */
  readonly aggregateByHogql: string | null
  readonly breakdown: FunnelBreakdown | null
  /** Trends and time to convert: 0 and the last step by default (the steps view ignores them). */
  readonly fromStep: number
  readonly toStep: number
  /** Time to convert: clamped to 1..90; null = automatic. */
  readonly binCount: number | null
  /** Trends periods (minute is read as hour, as PostHog's funnels do). */
  readonly interval: Interval
  readonly dateFrom: string | null
  readonly dateTo: string | null
  readonly explicitDate: boolean
}

/**
 * Which actors of a funnel's steps view a people request lists, by the
 * furthest step each reached (1-based, as PostHog's `steps` column):
 * `reachedAtLeast` n lists those at step n or further (`funnel_step` n),
 * `reachedExactly` those whose furthest step is one of the list
 * (`funnel_step` -n is [n-1]; `funnel_custom_steps` is its own list).
 */
export type ActorSteps =
  | { readonly reachedAtLeast: number }
  | { readonly reachedExactly: ReadonlyArray<number> }
  /** The trends view's people (`funnel_viz_type` trends): those who entered in the period starting at `start`, and converted or not. */
  | { readonly period: { readonly start: string; readonly dropOff: boolean } }

/** What the people endpoint adds to a funnel request: which steps, and which breakdown value. */
export interface FunnelActorsRequest extends FunnelRequest {
  /** From `funnel_custom_steps`, else `funnel_step` (PostHog's precedence). */
  readonly actorSteps: ActorSteps
  /** The breakdown value of the clicked series (as the step object shows it); undefined for all. */
  readonly funnelStepBreakdown: unknown
}
