import { ValidationError } from '../../errors.js'
import { DAY, floorTo, MAX_WALL, MIN_WALL, SUPPORTED_DATES } from './civil.js'
import type { Interval, WeekStartDay } from './interval.js'
import { applyRelativeDate, parseRelativeDate } from './relative-date.js'
import { instantOf, toWall, zonedFromInstant } from './wall-clock.js'

export interface CurrentPeriod {
  readonly fromMicros: number
  readonly toMicros: number
  readonly interval: Interval
  /** The request's `date_from` and `date_to` text (for the -7d kludge). */
  readonly dateFrom: string | null
  readonly dateTo: string | null
  readonly compareTo: string | null
}

const DAY_MICROS = DAY * 1000

/**
 * The previous period of a comparison (reference §9), in wall-clock
 * arithmetic as Python's aware datetimes do it (a difference of two local
 * times ignores the offsets between them). With F and T the current bounds
 * and D = T - F:
 *
 * - `compare: true`: F' = F - D on F's time of day, one day later for
 *   PostHog's "-7d kludge" (day interval, `date_from` `-Nd` with N a multiple
 *   of 7, `date_to` not relative), and T' = F' + D on T's time of day;
 * - `compare_to`: F' = F moved by that relative date, T' = F' + D.
 *
 * Local times that a daylight-saving change repeats are read as their first instant.
 */
export function previousPeriodBounds(current: CurrentPeriod, timeZone: string, weekStartDay: WeekStartDay): { fromMicros: number; toMicros: number } {
  const wallMicros = (micros: number) => {
    const ms = Math.floor(micros / 1000)
    return toWall(timeZone, ms) * 1000 + (micros - ms * 1000)
  }
  const F = wallMicros(current.fromMicros)
  const T = wallMicros(current.toMicros)
  const D = T - F
  const timeOfDay = (w: number) => w - floorTo(w, DAY_MICROS)
  let from: number
  let to: number
  const compareTo = current.compareTo === null ? null : parseRelativeDate(current.compareTo.trim())
  if (compareTo) {
    const ms = Math.floor(current.fromMicros / 1000)
    const moved = applyRelativeDate(compareTo, zonedFromInstant(timeZone, ms, current.fromMicros - ms * 1000), weekStartDay, false)
    if (!moved) throw outOfRange('compare_to')
    from = moved.wall * 1000 + moved.micros
    to = from + D
  } else {
    from = floorTo(F - D, DAY_MICROS) + timeOfDay(F)
    const rel = current.dateFrom === null ? null : parseRelativeDate(current.dateFrom.trim())
    const toIsRelative = current.dateTo !== null && parseRelativeDate(current.dateTo.trim()) !== null
    // PostHog: "-7d" covers 8 days, so the previous week would overlap by two; it moves one day later.
    if (current.interval === 'day' && rel?.unit === 'd' && rel.amount !== null && rel.amount > 0 && rel.amount % 7 === 0 && !toIsRelative) from += DAY_MICROS
    to = floorTo(from + D, DAY_MICROS) + timeOfDay(T)
  }
  if (from < MIN_WALL * 1000 || to > MAX_WALL * 1000 + 999) throw outOfRange(compareTo ? 'compare_to' : 'compare')
  const instant = (wall: number) => {
    const ms = Math.floor(wall / 1000)
    return instantOf(timeZone, { wall: ms, micros: wall - ms * 1000, fold: 0 })
  }
  return { fromMicros: instant(from), toMicros: instant(to) }
}

const outOfRange = (field: string) =>
  new ValidationError([{ path: [field], message: `the previous period would start before or end after the dates an analysis reads (${SUPPORTED_DATES})` }], {
    context: 'invalid date range',
  })
