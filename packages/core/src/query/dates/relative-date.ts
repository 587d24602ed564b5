import { civilMs, DAY, daysInMonth, floorTo, HOUR, MAX_WALL, MAX_YEAR, MIN_WALL, MIN_YEAR, MINUTE, SECOND } from './civil.js'
import type { WeekStartDay } from './interval.js'
import type { ZonedTime } from './wall-clock.js'
import { weekdayIndex } from './wall-interval.js'

/**
 * A relative date in PostHog's notation (`posthog/utils.py`,
 * `relative_date_parse_with_delta_mapping` and `get_delta_mapping_for`):
 * `[-][N]unit[Start|End]`, found by `re.search` anywhere in the text, so
 * PostHog reads the first such match and ignores the rest: `-14days` is
 * `-14d`, `+7d` and `7d` are `-7d` (the sign is never read), `-1dStarts` is
 * `-1dStart`, `-7dstart` is `-7d` (the position is case-sensitive).
 *
 * | unit | meaning | Start | End |
 * |---|---|---|---|
 * | `h` | hours | minute 0 | minute 59:59.999999 |
 * | `d` | days | 00:00 | 23:59:59.999999 |
 * | `w` | weeks | back to the week start day | on to the week's last day |
 * | `m` | months | day 1 | day 31, clamped to the month |
 * | `q` | 13 weeks | ignored | ignored |
 * | `y` | years | January 1 | December 31 |
 * | `M` | minutes | ignored | ignored |
 * | `s` | seconds | ignored | ignored |
 *
 * When that first match maps to no change at all, PostHog answers "now"
 * whatever the text said: the units `H`, `D`, `W`, `Q` and `Y`, which its
 * pattern matches but its mapping has no branch for (`-3D`), and a unit
 * without a number or a position it reads (`yesterday` is `y`, `today` is
 * `d`, `soon` is `s`, `qStart`). Text with no match at all is "now" too.
 * Sightline refuses all of these rather than answer for a date nobody asked
 * for (README, divergences).
 */
export interface RelativeDate {
  /** N; null when the text has no number (`mStart`), which is not the same as 0 for `h` (see `hasHours`). */
  readonly amount: number | null
  readonly unit: 'h' | 'd' | 'w' | 'm' | 'q' | 'y' | 'M' | 's'
  readonly position: 'Start' | 'End' | null
}

// PostHog's pattern, unanchored as re.search uses it; exec finds the same leftmost match.
const RELATIVE = /-?([0-9]+)?([hdwmqysHDWMQY])(Start|End)?/
// The units whose Start and End PostHog's mapping reads (w: see applyRelativeDate).
const POSITIONED: ReadonlySet<string> = new Set(['h', 'd', 'w', 'm', 'y'])

export function parseRelativeDate(text: string): RelativeDate | null {
  const m = RELATIVE.exec(text)
  if (!m) return null
  const unit = m[2]!
  const amount = m[1] === undefined ? null : Number(m[1])
  const position = (m[3] as RelativeDate['position'] | undefined) ?? null
  if (!'hdwmqysM'.includes(unit)) return null
  if (amount === null && !(position !== null && POSITIONED.has(unit))) return null
  return { amount, unit: unit as RelativeDate['unit'], position }
}

/**
 * True when PostHog's delta mapping has an `hours` key (an `h` unit with a
 * number): such a date is truncated to the hour rather than the day, and a
 * daily series then does not round it down to midnight.
 */
export const hasHours = (rel: RelativeDate): boolean => rel.unit === 'h' && rel.amount !== null

/**
 * `now` minus the relative date, on the wall clock as Python's `datetime`
 * minus `relativedelta` computes it: months and years move the calendar
 * month and clamp the day (Mar 31 - 1m = Feb 28); days, weeks, hours,
 * minutes and seconds move the wall clock too, so `-1d` and even `-24h` at
 * 14:00 on the day after a change are 14:00 the day before, 23 or 25 real
 * hours earlier. With `alwaysTruncate` the result is cut to the hour (an
 * `hours` delta) or to the day (anything else), as QueryDateRange asks for
 * date_from except with minute intervals or an explicit range.
 *
 * Returns null when the result leaves the supported years (civil.ts `MIN_WALL`..`MAX_WALL`).
 */
export function applyRelativeDate(
  rel: RelativeDate,
  now: ZonedTime,
  weekStartDay: WeekStartDay,
  alwaysTruncate: boolean,
): ZonedTime | null {
  const n = rel.amount ?? 0
  let wall = now.wall
  if (rel.unit === 'w' && rel.position !== null) {
    // get_weekday_index reads the weekday of `now`, then moves by whole days.
    const index = weekdayIndex(now.wall, weekStartDay)
    wall += (rel.position === 'Start' ? -index : 6 - index) * DAY
  }
  const d = new Date(wall)
  let year = d.getUTCFullYear()
  let month0 = d.getUTCMonth()
  let day = d.getUTCDate()
  let timeOfDay = wall - floorTo(wall, DAY)
  let micros = now.micros
  let years = 0
  let months = 0
  let shift = 0
  switch (rel.unit) {
    case 'h':
      shift = n * HOUR
      // Start and End replace minute, second and microsecond: xx:00:00.000000 or xx:59:59.999999.
      if (rel.position !== null) [timeOfDay, micros] = rel.position === 'Start' ? [floorTo(timeOfDay, HOUR), 0] : [floorTo(timeOfDay, HOUR) + HOUR - 1, 999]
      break
    case 'd':
      shift = n * DAY
      if (rel.position !== null) [timeOfDay, micros] = rel.position === 'Start' ? [0, 0] : [DAY - 1, 999]
      break
    case 'w':
      shift = n * 7 * DAY
      break
    case 'm':
      months = n
      if (rel.position === 'Start') day = 1
      if (rel.position === 'End') day = 31
      break
    case 'q':
      shift = n * 13 * 7 * DAY
      break
    case 'y':
      years = n
      if (rel.position === 'Start') [month0, day] = [0, 1]
      // PostHog's current code sets only day=31 for yEnd, which is the end of
      // the current month; its older code (and the obvious meaning) is Dec 31.
      if (rel.position === 'End') [month0, day] = [11, 31]
      break
    case 'M':
      shift = n * MINUTE
      break
    case 's':
      shift = n * SECOND
      break
  }
  const totalMonths = (year - years) * 12 + month0 - months
  year = Math.floor(totalMonths / 12)
  month0 = totalMonths - year * 12
  if (year < MIN_YEAR - 1 || year > MAX_YEAR + 1) return null
  day = Math.min(day, daysInMonth(year, month0))
  wall = civilMs(year, month0, day) + timeOfDay - shift
  if (alwaysTruncate) {
    wall = hasHours(rel) ? floorTo(wall, HOUR) : floorTo(wall, DAY)
    micros = 0
  }
  if (!(wall >= MIN_WALL && wall <= MAX_WALL)) return null
  // Python's datetime arithmetic always yields fold 0: a repeated wall time is its first reading.
  return { wall, micros, fold: 0 }
}
