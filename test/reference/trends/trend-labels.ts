/**
 * How PostHog writes a bucket: `days` (§3.4), `labels` (format_label_date,
 * week labels clipped to the range), and the ISO datetimes of `action.days`
 * and `filter` (Python's isoformat through DRF's encoder, `Z` for UTC).
 */
import { DAY, floorTo, toWall } from '../shared/ref-time.js'
import type { Period } from './trend-period.js'

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const pad = (n: number, width = 2) => String(n).padStart(width, '0')

interface Fields {
  y: number
  mo: number
  d: number
  h: number
  mi: number
  s: number
}
const fields = (wall: number): Fields => {
  const t = new Date(wall)
  return { y: t.getUTCFullYear(), mo: t.getUTCMonth(), d: t.getUTCDate(), h: t.getUTCHours(), mi: t.getUTCMinutes(), s: t.getUTCSeconds() }
}
const isoDate = (f: Fields) => `${pad(f.y, 4)}-${pad(f.mo + 1)}-${pad(f.d)}`
const dayLabel = (f: Fields) => `${f.d}-${MONTHS[f.mo]}-${f.y}`

export function dayOf(period: Period, start: number): string {
  const f = fields(toWall(period.timeZone, start))
  return period.interval === 'hour' || period.interval === 'minute' ? `${isoDate(f)} ${pad(f.h)}:${pad(f.mi)}:${pad(f.s)}` : isoDate(f)
}

export function labelOf(period: Period, start: number): string {
  const f = fields(toWall(period.timeZone, start))
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
      const a = fields(Math.max(weekStart, first))
      const b = fields(Math.min(weekStart + 6 * DAY, last))
      if (a.y === b.y && a.mo === b.mo && a.d === b.d) return dayLabel(a)
      if (a.y !== b.y) return `${dayLabel(a)} – ${dayLabel(b)}`
      if (a.mo !== b.mo) return `${a.d}-${MONTHS[a.mo]} – ${b.d}-${MONTHS[b.mo]}`
      return `${a.d}–${b.d} ${MONTHS[a.mo]}`
    }
  }
}

/** Python's `datetime.isoformat()` in the zone, with DRF's `+00:00` -> `Z`. */
export function isoInZone(timeZone: string, micros: number): string {
  const ms = Math.floor(micros / 1000)
  const wall = toWall(timeZone, ms)
  const f = fields(wall)
  const sub = (wall - floorTo(wall, 1000)) * 1000 + (micros - ms * 1000)
  const offset = Math.round((wall - ms) / 60000)
  const zone = offset === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`
  return `${isoDate(f)}T${pad(f.h)}:${pad(f.mi)}:${pad(f.s)}${sub === 0 ? '' : `.${pad(sub, 6)}`}${zone}`
}
