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

/** The wall times Python's `datetime` can hold (years 1 to 9999), the range PostHog works in. */
export const MIN_WALL = civilMs(1, 0, 1)
export const MAX_WALL = civilMs(10000, 0, 1) - 1

export const floorTo = (value: number, unit: number): number => Math.floor(value / unit) * unit
