/**
 * The references' own reading of a query's dates, written from PostHog's
 * `relative_date_parse` and `QueryDateRange` as trends-retention-paths.md
 * §2-3 describe them (not from Sightline's resolver), on ref-time.ts's clock.
 *
 * - A date string with `Z` or an offset is an instant; a naive one is the
 *   team's wall-clock time; a bare date is its 00:00.
 * - Anything else is read as PostHog's `re.search` reads it: the first
 *   `-?N?unit(Start|End)?` anywhere in the text, always taken back from now
 *   (`+7d` is `-7d`), as `relativedelta` does it (months and years first, the
 *   day clipped to the month, then days and hours); Start/End set the unit's
 *   first or last reading. A match that maps to nothing (`-3D`, `today`, a
 *   bare `d`) is not a date.
 * - date_from: missing is today's 00:00 less 7 days; `all` the earliest event;
 *   relative ones truncated (to the hour for `-Nh`, else to the day) unless the
 *   interval is minute or the range explicit; then rounded down to its bucket
 *   (a week interval to its day) unless explicit, or relative with an hour or
 *   minute interval, or `-Nh` with a day interval.
 * - date_to: missing is now; with day, week and month intervals extended to
 *   23:59:59.999999 of its day, with hour and minute intervals a missing or
 *   relative one to the end of its hour or minute; explicit ranges as given.
 */
import { bucketOfMs, DAY, floorTo, HOUR, instantOf, isInterval, MINUTE, type Interval, type WeekStartDay, type ZonedTime, zonedFromInstant } from './ref-time.js'

/** What a reference throws where PostHog answers 400: the parameter at fault. */
export class RefValidationError extends Error {
  constructor(
    readonly attr: string,
    message: string,
  ) {
    super(`${attr}: ${message}`)
    this.name = 'RefValidationError'
  }
}

export interface RelativeDate {
  /** N, or null when the text has none (`mStart`). */
  readonly amount: number | null
  readonly unit: 'h' | 'd' | 'w' | 'm' | 'q' | 'y'
  readonly position: 'Start' | 'End' | null
}

export function parseRelativeDate(text: string): RelativeDate | null {
  const m = /-?([0-9]+)?([a-zA-Z])(Start|End)?/.exec(text)
  if (!m) return null
  const unit = m[2]!
  if (!['h', 'd', 'w', 'm', 'q', 'y'].includes(unit)) return null
  const amount = m[1] === undefined ? null : Number(m[1])
  const position = (m[3] as 'Start' | 'End' | undefined) ?? null
  // relativedelta of nothing: PostHog reads now; Sightline and this reference refuse it (DECISIONS: a 400).
  if (amount === null && (position === null || unit === 'q')) return null
  return { amount, unit: unit as RelativeDate['unit'], position }
}

const civil = (wall: number) => new Date(wall)
const clipDay = (year: number, month0: number, day: number) => Math.min(day, new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate())

/** `now - relativedelta(...)` on the wall clock; fold 0, as Python's arithmetic leaves it. Truncated as `always_truncate` asks. */
export function applyRelativeDate(rel: RelativeDate, now: ZonedTime, weekStartDay: WeekStartDay, truncate: boolean): ZonedTime {
  const n = rel.amount ?? 0
  const d = civil(now.wall)
  let year = d.getUTCFullYear()
  let month0 = d.getUTCMonth()
  let day = d.getUTCDate()
  let timeOfDay = now.wall - floorTo(now.wall, DAY)
  let micros = now.micros
  // Absolute fields (Start/End), then relative months and years with the day clipped, then days and hours.
  if (rel.unit === 'm' && rel.position) day = rel.position === 'Start' ? 1 : 31
  if (rel.unit === 'y' && rel.position) [month0, day] = rel.position === 'Start' ? [0, 1] : [11, 31]
  if (rel.unit === 'm') month0 -= n
  if (rel.unit === 'y') year -= n
  const y2 = new Date(Date.UTC(year, month0, 1))
  year = y2.getUTCFullYear()
  month0 = y2.getUTCMonth()
  day = clipDay(year, month0, day)
  if (rel.unit === 'd' && rel.position) [timeOfDay, micros] = rel.position === 'Start' ? [0, 0] : [DAY - 1, 999]
  if (rel.unit === 'h' && rel.position) [timeOfDay, micros] = rel.position === 'Start' ? [floorTo(timeOfDay, HOUR), 0] : [floorTo(timeOfDay, HOUR) + HOUR - 1, 999]
  let wall = Date.UTC(year, month0, day) + timeOfDay
  if (rel.unit === 'd') wall -= n * DAY
  if (rel.unit === 'w') wall -= 7 * n * DAY
  if (rel.unit === 'q') wall -= 13 * 7 * n * DAY
  if (rel.unit === 'h') wall -= n * HOUR
  // Weeks: relativedelta's weekday, applied last, time of day kept: back to the week's first day, or on to its last.
  if (rel.unit === 'w' && rel.position) {
    const weekday = new Date(wall).getUTCDay()
    wall += rel.position === 'Start' ? -((weekday - weekStartDay + 7) % 7) * DAY : ((weekStartDay + 6 - weekday + 7) % 7) * DAY
  }
  if (truncate) {
    if (rel.unit === 'h' && rel.amount !== null) wall = floorTo(wall, HOUR)
    else wall = floorTo(wall, DAY)
    micros = 0
  }
  return { wall, micros, fold: 0 }
}

/** An absolute date or date-time: an instant when it carries a zone, else a wall time; null when it is not one. */
function parseAbsolute(text: string, timeZone: string): ZonedTime | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(text)
  if (!m) return null
  const [, y, mo, d, h, mi, s, frac, zone] = m
  const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0))
  const check = new Date(wall)
  if (check.getUTCDate() !== Number(d) || check.getUTCMonth() !== Number(mo) - 1 || Number(h ?? 0) > 23 || Number(mi ?? 0) > 59 || Number(s ?? 0) > 59) return null
  const fraction = (frac ?? '').padEnd(6, '0')
  const ms = Number(fraction.slice(0, 3))
  const micros = Number(fraction.slice(3))
  if (!zone) return { wall: wall + ms, micros, fold: 0 }
  let offset = 0
  if (zone !== 'Z') {
    const digits = zone.slice(1).replace(':', '')
    offset = (zone[0] === '-' ? -1 : 1) * (Number(digits.slice(0, 2)) * HOUR + Number(digits.slice(2) || 0) * MINUTE)
  }
  return zonedFromInstant(timeZone, wall + ms - offset, micros)
}

export interface ParsedDate {
  readonly time: ZonedTime
  readonly relative: RelativeDate | null
}

// Sightline reads dates from 1900 to 2199 only (packages/core/README.md, limits); outside them a date is a 400 as an unreadable one is.
const FIRST_WALL = Date.UTC(1900, 0, 1)
const LAST_WALL = Date.UTC(2200, 0, 1) - 1

export function parseDate(text: string, timeZone: string, now: ZonedTime, weekStartDay: WeekStartDay, truncate: boolean): ParsedDate | null {
  const relative = parseAbsolute(text, timeZone) ? null : parseRelativeDate(text)
  const time = relative ? applyRelativeDate(relative, now, weekStartDay, truncate) : parseAbsolute(text, timeZone)
  return time && time.wall >= FIRST_WALL && time.wall <= LAST_WALL ? { time, relative } : null
}

export interface RefDateRange {
  readonly from: Date
  readonly to: Date
  readonly fromMicros: number
  readonly toMicros: number
  /** date_from before its rounding to the interval. */
  readonly dateFrom: Date
  readonly interval: Interval
}

export interface RefDateInput {
  readonly dateFrom?: string | null | undefined
  readonly dateTo?: string | null | undefined
  readonly explicitDate?: boolean | null | undefined
  readonly interval?: Interval | null | undefined
}

export interface RefDateContext {
  readonly timezone: string
  readonly weekStartDay: WeekStartDay
  readonly now: Date
  /** The project's earliest event (null: none), read for `all` only. */
  readonly earliestEvent?: () => Promise<Date | null>
}

const blank = (text: string | null | undefined): string | null => (text?.trim() ? text.trim() : null)

/** The last microsecond of the wall-clock unit holding `time` (Python's replace keeps fold). */
const endOf = (time: ZonedTime, unit: number): ZonedTime => ({ wall: floorTo(time.wall, unit) + unit - 1, micros: 999, fold: time.fold })

export async function resolveDateRange(input: RefDateInput, context: RefDateContext): Promise<RefDateRange> {
  const interval = input.interval ?? 'day'
  if (!isInterval(interval)) throw new RefValidationError('interval', `unknown interval ${JSON.stringify(interval)}`)
  const tz = context.timezone
  const nowMs = context.now.getTime()
  const now = zonedFromInstant(tz, nowMs)
  const explicit = input.explicitDate === true
  const fromText = blank(input.dateFrom)
  const toText = blank(input.dateTo)

  let dateFrom: number
  let fromRelative: RelativeDate | null = null
  let fromIsRelative = false
  if (fromText === null) dateFrom = instantOf(tz, { wall: floorTo(now.wall, DAY) - 7 * DAY, micros: 0, fold: 0 })
  else if (fromText === 'all') {
    const earliest = context.earliestEvent ? await context.earliestEvent() : null
    dateFrom = (earliest ? earliest.getTime() : nowMs - 7 * DAY) * 1000
    fromIsRelative = true
  } else {
    const parsed = parseDate(fromText, tz, now, context.weekStartDay, !(interval === 'minute' || explicit))
    if (!parsed) throw new RefValidationError('date_from', `not a date: ${JSON.stringify(fromText)}`)
    dateFrom = instantOf(tz, parsed.time)
    fromRelative = parsed.relative
    fromIsRelative = parsed.relative !== null
  }

  let to = now
  let toIsRelative = true
  if (toText !== null) {
    const parsed = parseDate(toText, tz, now, context.weekStartDay, false)
    if (!parsed) throw new RefValidationError('date_to', `not a date: ${JSON.stringify(toText)}`)
    to = parsed.time
    toIsRelative = parsed.relative !== null
  }
  if (!explicit) {
    if (interval === 'day' || interval === 'week' || interval === 'month') to = endOf(to, DAY)
    else if (toIsRelative) to = endOf(to, interval === 'hour' ? HOUR : MINUTE)
  }
  const toMicros = instantOf(tz, to)

  const fromHasHours = fromRelative !== null && fromRelative.unit === 'h' && fromRelative.amount !== null
  const round = !explicit && (fromText === null || !fromIsRelative || (interval !== 'hour' && interval !== 'minute' && !(interval === 'day' && fromHasHours)))
  const fromMicros = round ? bucketOfMs(Math.floor(dateFrom / 1000), interval === 'week' ? 'day' : interval, tz, context.weekStartDay) * 1000 : dateFrom
  return {
    from: new Date(Math.floor(fromMicros / 1000)),
    to: new Date(Math.floor(toMicros / 1000)),
    fromMicros,
    toMicros,
    dateFrom: new Date(Math.floor(dateFrom / 1000)),
    interval,
  }
}
