import { DAY, floorTo } from './civil.js'
import { toWall } from './wall-clock.js'
import type { Period } from './periods.js'

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const pad = (n: number, width = 2) => String(n).padStart(width, '0')

interface Fields {
  readonly y: number
  readonly mo: number
  readonly d: number
  readonly h: number
  readonly mi: number
  readonly s: number
}
const fieldsOf = (wall: number): Fields => {
  const t = new Date(wall)
  return { y: t.getUTCFullYear(), mo: t.getUTCMonth(), d: t.getUTCDate(), h: t.getUTCHours(), mi: t.getUTCMinutes(), s: t.getUTCSeconds() }
}
const isoDate = (f: Fields) => `${pad(f.y, 4)}-${pad(f.mo + 1)}-${pad(f.d)}`
const dayLabel = (f: Fields) => `${f.d}-${MONTHS[f.mo]}-${f.y}`

/** `days[i]` (reference §3.4): the bucket's local start, `YYYY-MM-DD`, or `YYYY-MM-DD HH:MM:SS` for hours and minutes. */
export function bucketDay(period: Period, start: number): string {
  const f = fieldsOf(toWall(period.timeZone, start))
  return period.interval === 'hour' || period.interval === 'minute' ? `${isoDate(f)} ${pad(f.h)}:${pad(f.mi)}:${pad(f.s)}` : isoDate(f)
}

/**
 * `labels[i]` (PostHog's `format_label_date`): `2-Jan 05:00` for hours and
 * minutes, `2-Jan-2020` for days, `Jun 2020` for months; a week is its days
 * clipped to the period (`29–31 Oct` with an en dash, `29-Oct – 4-Nov`,
 * `29-Dec-2019 – 4-Jan-2020`, or one day `4-Jan-2020`).
 */
export function bucketLabel(period: Period, start: number): string {
  const f = fieldsOf(toWall(period.timeZone, start))
  switch (period.interval) {
    case 'minute':
    case 'hour':
      return `${f.d}-${MONTHS[f.mo]} ${pad(f.h)}:${pad(f.mi)}`
    case 'day':
      return dayLabel(f)
    case 'month':
      return `${MONTHS[f.mo]} ${f.y}`
    case 'week': {
      const first = floorTo(toWall(period.timeZone, period.dateFromMs), DAY)
      const last = floorTo(toWall(period.timeZone, Math.floor(period.toMicros / 1000)), DAY)
      const weekStart = floorTo(toWall(period.timeZone, start), DAY)
      const a = fieldsOf(Math.max(weekStart, first))
      const b = fieldsOf(Math.min(weekStart + 6 * DAY, last))
      if (a.y === b.y && a.mo === b.mo && a.d === b.d) return dayLabel(a)
      if (a.y !== b.y) return `${dayLabel(a)} – ${dayLabel(b)}`
      if (a.mo !== b.mo) return `${a.d}-${MONTHS[a.mo]} – ${b.d}-${MONTHS[b.mo]}`
      return `${a.d}–${b.d} ${MONTHS[a.mo]}`
    }
  }
}

/**
 * An instant as Python's `isoformat()` writes an aware datetime in the zone,
 * with DRF's `Z` for a zero offset: `2020-01-02T00:00:00-05:00` (the form of
 * `action.days` and of persons URL dates).
 */
export function isoInZone(timeZone: string, micros: number): string {
  const ms = Math.floor(micros / 1000)
  const wall = toWall(timeZone, ms)
  const f = fieldsOf(wall)
  const sub = (wall - floorTo(wall, 1000)) * 1000 + (micros - ms * 1000)
  const offset = Math.round((wall - ms) / 60000)
  const zone = offset === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`
  return `${isoDate(f)}T${pad(f.h)}:${pad(f.mi)}:${pad(f.s)}${sub === 0 ? '' : `.${pad(sub, 6)}`}${zone}`
}
