import { parseAbsoluteDate } from './absolute-date.js'
import { MAX_WALL, MIN_WALL, SUPPORTED_DATES } from './civil.js'
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
 * where PostHog would silently answer "now", and for dates outside
 * `SUPPORTED_DATES` (see `dateProblem` for the words of the error).
 */
export function relativeDateParse(text: string, options: ParseOptions): ParsedDate | null {
  const absolute = parseAbsoluteDate(text)
  if (absolute) {
    const time =
      absolute.offset === undefined
        ? { wall: absolute.wall, micros: absolute.micros, fold: 0 as const }
        : absolute.wall - absolute.offset >= MIN_WALL && absolute.wall - absolute.offset <= MAX_WALL
          ? zonedFromInstant(options.timeZone, absolute.wall - absolute.offset, absolute.micros)
          : null
    return time && time.wall >= MIN_WALL && time.wall <= MAX_WALL ? { time, relative: null } : null
  }
  const relative = parseRelativeDate(text)
  if (!relative) return null
  const time = applyRelativeDate(relative, options.now, options.weekStartDay, options.alwaysTruncate)
  return time && { time, relative }
}

/**
 * Why `relativeDateParse` refused `text`, in words for a 400: a date outside
 * the supported range, or text that is no date (`forms` lists what is).
 */
export function dateProblem(text: string, forms: string): string {
  const readable = parseAbsoluteDate(text) !== null || parseRelativeDate(text) !== null
  return readable ? `${JSON.stringify(text)} is outside the dates an analysis reads (${SUPPORTED_DATES})` : `cannot read ${JSON.stringify(text)}; use ${forms}`
}
