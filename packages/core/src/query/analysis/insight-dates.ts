import type { Interval } from '../dates/interval.js'
import type { PeriodsInput } from '../dates/periods.js'
import type { RetentionWindow, WindowContext } from '../retention/retention-window.js'

/** The analysis behind a saved insight, as PostHog's refresh rules tell them apart. */
export type InsightKind = 'trends' | 'stickiness' | 'lifecycle' | 'funnels' | 'retention' | 'paths'

/**
 * The dates a saved insight reads, as its analysis decoded them: what the
 * insight planner resolves into the insight's range, expiry and refresh basis.
 */
export type InsightDates =
  /** A range of periods, resolved as trends resolve theirs (`trendPeriods`). */
  | { readonly kind: Exclude<InsightKind, 'retention'>; readonly range: PeriodsInput }
  /** Retention's window of cohort periods (reference §13.2), which moves as its bounds resolve to other periods. */
  | {
      readonly kind: 'retention'
      readonly interval: Interval
      readonly dateFrom: string | null
      readonly dateTo: string | null
      window(context: WindowContext): Promise<RetentionWindow>
    }

/** The periods input of an analysis read over one range without comparison (funnels; paths with `interval: 'day'`). */
export const singleRange = (interval: Interval, r: { readonly dateFrom: string | null; readonly dateTo: string | null; readonly explicitDate: boolean }): PeriodsInput => ({
  interval,
  dateFrom: r.dateFrom,
  dateTo: r.dateTo,
  explicitDate: r.explicitDate,
  compare: false,
  compareTo: null,
})
