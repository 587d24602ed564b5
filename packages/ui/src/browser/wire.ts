/**
 * The parts of Sightline's analysis answers (PostHog's legacy insight
 * results) that the views read. Loose on purpose: a view draws what it finds
 * and ignores the rest, so a host can pass answers of an older or newer server.
 */

/** A link the server gives to list the persons behind a point, step or cell. */
export interface PersonsLink {
  readonly url: string
}

/** One series of a trend, stickiness or lifecycle answer. */
export interface TrendSeries {
  readonly label?: string
  readonly data?: ReadonlyArray<number>
  readonly days?: ReadonlyArray<string | number>
  readonly labels?: ReadonlyArray<string>
  readonly count?: number
  readonly aggregated_value?: number
  readonly breakdown_value?: unknown
  readonly compare?: boolean
  readonly compare_label?: 'current' | 'previous' | null
  readonly status?: string
  readonly action?: { readonly custom_name?: string | null; readonly name?: string | null } | null
  readonly persons_urls?: ReadonlyArray<PersonsLink>
  readonly persons?: PersonsLink
}

/** One step of a funnel. */
export interface FunnelStep {
  readonly name?: string
  readonly custom_name?: string | null
  readonly order?: number
  readonly count: number
  readonly average_conversion_time?: number | null
  readonly median_conversion_time?: number | null
  readonly converted_people_url?: string | null
  readonly dropped_people_url?: string | null
  readonly breakdown_value?: unknown
}

/** The answer of a time-to-convert funnel: bins of [seconds, persons]. */
export interface TimeToConvert {
  readonly bins: ReadonlyArray<readonly [number, number]>
  readonly average_conversion_time?: number | null
}

/** One cohort row of a retention answer. */
export interface RetentionRow {
  readonly label?: string
  readonly date?: string
  readonly breakdown_value?: unknown
  readonly people_url?: string
  readonly values: ReadonlyArray<{ readonly count: number; readonly label?: string; readonly people_url?: string }>
}

/** One edge of a paths answer; nodes are named `<step>_<name>`. */
export interface PathEdge {
  readonly source: string
  readonly target: string
  readonly value: number
  readonly average_conversion_time?: number | null
}

/** An insight's legacy filters, as far as the views and the page read them. */
export interface InsightFilters {
  readonly insight?: string
  readonly display?: string
  readonly funnel_viz_type?: string
  readonly interval?: string
  readonly date_from?: string | null
  readonly date_to?: string | null
  readonly breakdown?: unknown
  readonly breakdown_type?: string
  readonly compare?: boolean
  readonly formula?: string
  readonly [key: string]: unknown
}

/** An analysis answer (`{result, is_cached, last_refresh}`) or a saved insight (which adds `filters`, `name`, `id`). */
export interface InsightAnswer {
  readonly result: unknown
  readonly filters?: InsightFilters
  readonly is_cached?: boolean | string
  readonly last_refresh?: string | null
  readonly timezone?: string
  readonly name?: string | null
  readonly derived_name?: string | null
  readonly id?: number
}
