import type { Expression } from 'kysely'
import type { PropertyFilterSources } from '../filters/compile-property-filters.js'

/**
 * The columns of one scoped event row, as SQL expressions over the aliases of
 * `eventScope` (`e` events, `ov` person overrides, `p` persons, `g0`..`g4`
 * groups). Property filters, actions, breakdowns and HogQL compile against it.
 */
export interface QuerySources extends PropertyFilterSources {
  readonly eventName: Expression<string>
  readonly timestamp: Expression<unknown>
  /** Microseconds since the epoch, a 64-bit integer. */
  readonly timestampMicros: Expression<number>
  readonly uuid: Expression<string>
  readonly distinctId: Expression<string>
  /**
   * The person the event belongs to: its person's uuid, or for a personless
   * event (no distinct-id row) the distinct id itself, which then stands for
   * a person of its own as in PostHog.
   */
  readonly personId: Expression<string>
  readonly sessionId: Expression<string | null>
  /** `$group_N` keys by group type index ('' when the event has none). */
  readonly groupKeys: Readonly<Record<number, Expression<string>>>
  readonly elementsChain: Expression<string>
}
