/**
 * Calendar arithmetic on "wall" times: a local date and time encoded as the
 * milliseconds at which a UTC clock would show the same fields. Adding days
 * to a wall time is calendar arithmetic (the next day at the same clock
 * time), whatever the zone's offset does in between.
 */

export const SECOND = 1000
export const MINUTE = 60 * SECOND
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR

/** Milliseconds for the given UTC fields; month is 0-based and may overflow, as in `Date.UTC`. */
export function civilMs(year: number, month0: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  if (year >= 100) return Date.UTC(year, month0, day, hour, minute, second, ms)
  // Date.UTC reads years 0..99 as 1900..1999.
  const d = new Date(0)
  d.setUTCFullYear(year, month0, day)
  d.setUTCHours(hour, minute, second, ms)
  return d.getTime()
}

export function daysInMonth(year: number, month0: number): number {
  return new Date(civilMs(year, month0 + 1, 1) - DAY).getUTCDate()
}

/**
 * The wall times an analysis reads: 1900-01-01 to 2199-12-31. PostHog's
 * parser reads years 1 to 9999, but its events are ClickHouse `DateTime64`
 * (1900 to 2299), and Sightline counts time in epoch microseconds, exact
 * only from about 1685 to 2255: a wider range would give wrong buckets or a
 * `RangeError` deep in a query instead of a 400 naming the date.
 */
export const MIN_YEAR = 1900
export const MAX_YEAR = 2199
export const MIN_WALL = civilMs(MIN_YEAR, 0, 1)
export const MAX_WALL = civilMs(MAX_YEAR + 1, 0, 1) - 1
/** How an error names the range, e.g. "1900-01-01 to 2199-12-31". */
export const SUPPORTED_DATES = `${MIN_YEAR}-01-01 to ${MAX_YEAR}-12-31`

export const floorTo = (value: number, unit: number): number => Math.floor(value / unit) * unit
