/** The units of a behavioral criterion's `time_interval` (PostHog's `INTERVAL_TO_SECONDS` keys). */
export type WindowUnit = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year'

const MILLIS: Readonly<Record<'minute' | 'hour' | 'day' | 'week', number>> = { minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000 }
/** The earliest time a window starts at: the first year every database's timestamps read alike. */
const EARLIEST = Date.UTC(1000, 0, 1)

/**
 * `now - INTERVAL value unit`, as ClickHouse computes PostHog's cohort windows
 * (in UTC): fixed lengths for minutes to weeks; calendar months and years
 * (`addCalendarMonths`). Never before the year 1000.
 */
export function windowStart(now: Date, value: number, unit: WindowUnit): Date {
  if (unit !== 'month' && unit !== 'year') return new Date(Math.max(EARLIEST, now.getTime() - value * MILLIS[unit]))
  const months = unit === 'year' ? value * 12 : value
  // Checked before moving: a million years back is past what a Date holds.
  if (now.getUTCFullYear() * 12 + now.getUTCMonth() - months < 1000 * 12) return new Date(EARLIEST)
  return addCalendarMonths(now, -months)
}

/**
 * `at` plus `months` calendar months (negative: minus) on its UTC date, as
 * ClickHouse's `addMonths`: the time of day kept, the day clamped to the
 * target month's last (31 March minus a month is 28 or 29 February).
 */
export function addCalendarMonths(at: Date, months: number): Date {
  const total = at.getUTCFullYear() * 12 + at.getUTCMonth() + months
  const year = Math.floor(total / 12)
  const month = total - year * 12
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
  const moved = new Date(at.getTime())
  moved.setUTCFullYear(year, month, Math.min(at.getUTCDate(), lastDay))
  return moved
}

/** PostHog's `INTERVAL_TO_SECONDS`: months as 30 days, years as 365; for comparing two spans only. */
const SECONDS: Readonly<Record<WindowUnit, number>> = { minute: 60, hour: 3600, day: 86_400, week: 604_800, month: 2_592_000, year: 31_536_000 }

/** A span in PostHog's seconds (`relative_date_to_seconds`). */
export const secondsOf = (span: { readonly value: number; readonly unit: WindowUnit }): number => span.value * SECONDS[span.unit]
