/**
 * The references' own clock arithmetic, written from PostHog's semantics
 * (trends-retention-paths.md "Dates and time zones") and not from
 * Sightline's: zone offsets read from Intl, wall-clock times as milliseconds
 * of a UTC-like civil clock, Python's fold for repeated and skipped wall
 * times, and ClickHouse's `toStartOfHour/Day/Week/Month` in the team zone for
 * buckets. Nothing here imports packages/.
 */

export const SECOND = 1000
export const MINUTE = 60 * SECOND
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR

export type Interval = 'minute' | 'hour' | 'day' | 'week' | 'month'
export type WeekStartDay = 0 | 1
export const INTERVALS: ReadonlyArray<Interval> = ['minute', 'hour', 'day', 'week', 'month']
export const isInterval = (value: unknown): value is Interval => typeof value === 'string' && (INTERVALS as ReadonlyArray<string>).includes(value)

export const floorTo = (value: number, unit: number): number => Math.floor(value / unit) * unit

/** A wall-clock time as Python's aware datetime holds one: the civil clock's milliseconds, the microseconds below them, PEP 495's fold. */
export interface ZonedTime {
  readonly wall: number
  readonly micros: number
  readonly fold: 0 | 1
}

const formatters = new Map<string, Intl.DateTimeFormat>()
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
    formatters.set(timeZone, f)
  }
  return f
}

/** The zone's offset from UTC at an instant, in milliseconds (whole seconds: Intl shows no less). */
export function offsetAt(timeZone: string, ms: number): number {
  const whole = floorTo(ms, SECOND)
  const parts: Record<string, number> = {}
  for (const p of formatter(timeZone).formatToParts(new Date(whole))) if (p.type !== 'literal') parts[p.type] = Number(p.value)
  const civil = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!)
  return civil - whole
}

/** The wall clock's reading at an instant. */
export const toWall = (timeZone: string, ms: number): number => ms + offsetAt(timeZone, ms)

/** Every instant whose wall clock reads `wall` (none when skipped, two when repeated), in order. */
function readingsOf(timeZone: string, wall: number): number[] {
  // Offsets a day either side cover any change near `wall` (no zone changes twice in two days).
  const offsets = new Set([offsetAt(timeZone, wall - DAY), offsetAt(timeZone, wall), offsetAt(timeZone, wall + DAY)])
  return [...offsets]
    .map((o) => wall - o)
    .filter((ms) => toWall(timeZone, ms) === wall)
    .sort((a, b) => a - b)
}

/**
 * Python's reading of a wall time: a repeated one is its first reading for
 * fold 0 and its second for fold 1; a skipped one is read with the offset
 * before the change for fold 0 (02:30 on a 02:00 -> 03:00 night is 03:30 new
 * time) and the offset after it for fold 1.
 */
export function wallToInstant(timeZone: string, wall: number, fold: 0 | 1): number {
  const readings = readingsOf(timeZone, wall)
  if (readings.length > 0) return readings[fold === 1 ? readings.length - 1 : 0]!
  const before = offsetAt(timeZone, wall - DAY)
  const after = offsetAt(timeZone, wall + DAY)
  return wall - (fold === 1 ? after : before)
}

/** The instant of a zoned time, in epoch microseconds. */
export const instantOf = (timeZone: string, z: ZonedTime): number => wallToInstant(timeZone, z.wall, z.fold) * 1000 + z.micros

/** An instant as a zoned time (Python's astimezone): fold 1 when its wall time was shown before. */
export function zonedFromInstant(timeZone: string, ms: number, micros = 0): ZonedTime {
  const wall = toWall(timeZone, ms)
  const readings = readingsOf(timeZone, wall)
  return { wall, micros, fold: readings.length > 1 && ms === readings[readings.length - 1] ? 1 : 0 }
}

/**
 * The first instant at which the wall clock shows `wall` or later: its first
 * reading, or for a skipped wall time the change that skips it.
 */
export function startOfWall(timeZone: string, wall: number): number {
  const readings = readingsOf(timeZone, wall)
  if (readings.length > 0) return readings[0]!
  // Skipped: the change lies between the readings by the offsets before and after; bisect to the millisecond.
  let lo = wall - offsetAt(timeZone, wall + DAY) - DAY
  let hi = wall - offsetAt(timeZone, wall - DAY) + DAY
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2)
    if (toWall(timeZone, mid) >= wall) hi = mid
    else lo = mid
  }
  return hi
}

/** The wall time that starts the day, week or month holding `wall` (weeks from Sunday, or Monday for 1). */
function truncateWall(wall: number, interval: 'day' | 'week' | 'month', weekStartDay: WeekStartDay): number {
  const day = floorTo(wall, DAY)
  if (interval === 'day') return day
  if (interval === 'week') return day - ((new Date(day).getUTCDay() - weekStartDay + 7) % 7) * DAY
  const d = new Date(day)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)
}

function nextWall(key: number, interval: 'day' | 'week' | 'month'): number {
  if (interval === 'day') return key + DAY
  if (interval === 'week') return key + 7 * DAY
  const d = new Date(key)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)
}

/**
 * The start of the bucket holding an instant. Minutes and hours follow the
 * clock in real time (a repeated hour is two buckets): the instant less its
 * wall clock's minutes and seconds. Days, weeks and months are calendar
 * units that start when the wall clock first reaches their 00:00.
 */
export function bucketOfMs(ms: number, interval: Interval, timeZone: string, weekStartDay: WeekStartDay): number {
  if (interval === 'minute' || interval === 'hour') {
    const unit = interval === 'minute' ? MINUTE : HOUR
    const wall = toWall(timeZone, ms)
    return ms - (wall - floorTo(wall, unit))
  }
  return startOfWall(timeZone, truncateWall(toWall(timeZone, ms), interval, weekStartDay))
}

export const bucketOf = (instant: Date, interval: Interval, timeZone: string, weekStartDay: WeekStartDay): Date =>
  new Date(bucketOfMs(instant.getTime(), interval, timeZone, weekStartDay))

/** Every bucket start from the bucket holding `from` to the one holding `to`, both inclusive (PostHog's all_values()). */
export function bucketStarts(range: { readonly from: Date; readonly to: Date }, interval: Interval, timeZone: string, weekStartDay: WeekStartDay): Date[] {
  const from = range.from.getTime()
  const to = range.to.getTime()
  if (!(from <= to)) return []
  const out: number[] = []
  if (interval === 'minute' || interval === 'hour') {
    const unit = interval === 'minute' ? MINUTE : HOUR
    // A unit of real time on, back to where the wall clock shows a whole unit (a change by half an hour moves it).
    for (let start = bucketOfMs(from, interval, timeZone, weekStartDay); start <= to; start = bucketOfMs(start + unit, interval, timeZone, weekStartDay)) out.push(start)
    return out.map((ms) => new Date(ms))
  }
  let key = truncateWall(toWall(timeZone, from), interval, weekStartDay)
  for (let start = startOfWall(timeZone, key); start <= to; start = startOfWall(timeZone, key)) {
    // Wall times a change skips map to one instant: keep it once.
    if (out.length === 0 || start > out[out.length - 1]!) out.push(start)
    key = nextWall(key, interval)
  }
  return out.map((ms) => new Date(ms))
}

/**
 * An ISO 8601 timestamp as epoch microseconds: a date and a time with up to
 * six fraction digits, `Z` or an offset (none: UTC); null when it is not one.
 */
export function parseTimestamp(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(text.trim())
  if (!m) return null
  const [, y, mo, d, h, mi, s, frac, zone] = m
  const civil = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0))
  const check = new Date(civil)
  if (check.getUTCDate() !== Number(d) || check.getUTCMonth() !== Number(mo) - 1 || Number(h) > 23 || Number(mi) > 59 || Number(s ?? 0) > 59) return null
  let offset = 0
  if (zone && zone !== 'Z') {
    const digits = zone.slice(1).replace(':', '')
    offset = (zone[0] === '-' ? -1 : 1) * (Number(digits.slice(0, 2)) * HOUR + Number(digits.slice(2) || 0) * MINUTE)
  }
  return (civil - offset) * 1000 + Number((frac ?? '').padEnd(6, '0'))
}
