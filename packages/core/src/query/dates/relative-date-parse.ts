import { parseAbsoluteDate } from './absolute-date.js'
import { MAX_WALL, MIN_WALL } from './civil.js'
import type { WeekStartDay } from './interval.js'
import { applyRelativeDate, parseRelativeDate, type RelativeDate } from './relative-date.js'
import { zonedFromInstant, type ZonedTime } from './wall-clock.js'

export interface ParsedDate {
  readonly time: ZonedTime
  /** The relative form, or null for an absolute date (PostHog's `delta_mapping is None`). */
  readonly relative: RelativeDate | null
}

export interface ParseOptions {
  readonly timeZone: string
  readonly now: ZonedTime
  readonly weekStartDay: WeekStartDay
  readonly alwaysTruncate: boolean
}

/**
 * PostHog's `relative_date_parse_with_delta_mapping`: an absolute date first
 * (naive = wall-clock time in the project's zone, with an offset = that
 * instant; never truncated), else a relative one. Null for anything else,
 * where PostHog would silently answer "now".
 */
export function relativeDateParse(text: string, options: ParseOptions): ParsedDate | null {
  const absolute = parseAbsoluteDate(text)
  if (absolute) {
    if (absolute.offset === undefined) return { time: { wall: absolute.wall, micros: absolute.micros, fold: 0 }, relative: null }
    const time = zonedFromInstant(options.timeZone, absolute.wall - absolute.offset, absolute.micros)
    return time.wall >= MIN_WALL && time.wall <= MAX_WALL ? { time, relative: null } : null
  }
  const relative = parseRelativeDate(text)
  if (!relative) return null
  const time = applyRelativeDate(relative, options.now, options.weekStartDay, options.alwaysTruncate)
  return time && { time, relative }
}
