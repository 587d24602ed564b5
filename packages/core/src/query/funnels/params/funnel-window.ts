import type { FunnelFieldsInput } from './funnel-fields.js'
import { invalid } from './legacy-values.js'

/** posthog/utils.py DATERANGE_MAP: absolute seconds, a week is 7 days and a month 31 (no calendar arithmetic). */
const UNITS_IN_SECONDS = {
  second: 1,
  minute: 60,
  hour: 3600,
  day: 86_400,
  week: 7 * 86_400,
  month: 31 * 86_400,
} as const
const UNIT_SECONDS: Readonly<Record<string, number>> = UNITS_IN_SECONDS
/** A conversion window's unit (PostHog's `FunnelConversionWindowTimeUnit`). */
export type FunnelWindowUnit = keyof typeof UNITS_IN_SECONDS
const UNITS = 'SECOND, MINUTE, HOUR, DAY, WEEK or MONTH'
// About 100 years: beyond any date range, and far inside a 64-bit microsecond count.
const MAX_WINDOW_SECONDS = 100 * 366 * 86_400

export type WindowParams = Pick<FunnelFieldsInput, 'funnel_window_interval' | 'funnel_window_interval_type' | 'funnel_window_interval_unit' | 'funnel_window_days'>

/**
 * The conversion window in microseconds. DECISIONS.md: the interface
 * document's `funnel_window_interval_type` wins over PostHog's
 * `funnel_window_interval_unit`, values in any case; `funnel_window_days`
 * (deprecated) counts only when `funnel_window_interval` is absent. Default
 * 14 days. Throws ValidationError naming the field for an unknown unit or a
 * count below 1.
 */
export function windowMicros(p: WindowParams): number {
  const field = p.funnel_window_interval_type != null ? 'funnel_window_interval_type' : 'funnel_window_interval_unit'
  const rawUnit = p[field] ?? 'day'
  const unit = UNIT_SECONDS[rawUnit.trim().toLowerCase()]
  if (unit === undefined) throw invalid([field], `unknown window unit ${JSON.stringify(rawUnit)}; use ${UNITS}`)
  let seconds: number
  if (p.funnel_window_interval != null) {
    if (p.funnel_window_interval < 1) throw invalid(['funnel_window_interval'], 'the window is at least 1')
    seconds = p.funnel_window_interval * unit
  } else if (p.funnel_window_days != null) {
    if (p.funnel_window_days < 1) throw invalid(['funnel_window_days'], 'the window is at least 1 day')
    seconds = p.funnel_window_days * UNIT_SECONDS.day!
  } else {
    seconds = 14 * unit
  }
  if (seconds > MAX_WINDOW_SECONDS) {
    throw invalid([p.funnel_window_interval != null ? 'funnel_window_interval' : 'funnel_window_days'], 'the window is at most 100 years')
  }
  return seconds * 1_000_000
}
