import type { Interval, WeekStartDay } from '../../dates/interval.js'
import { DAY } from '../../dates/civil.js'
import { toWall } from '../../dates/wall-clock.js'

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const pad = (n: number) => String(n).padStart(2, '0')

/** The wall clock of an instant in `zone`, read as UTC fields. */
const wall = (ms: number, zone: string) => new Date(toWall(zone, ms))
/** The local calendar day of an instant, as a UTC-midnight ms value. */
const dayOf = (ms: number, zone: string) => Math.floor(toWall(zone, ms) / DAY) * DAY
const dMonY = (d: Date) => `${d.getUTCDate()}-${MONTHS[d.getUTCMonth()]}-${d.getUTCFullYear()}`
const dMon = (d: Date) => `${d.getUTCDate()}-${MONTHS[d.getUTCMonth()]}`

/** A funnel trends period's `days` entry: `%Y-%m-%d`, plus ` %H:%M:%S` for hourly periods, in the project's zone. */
export function periodDay(ms: number, interval: Interval, zone: string): string {
  const d = wall(ms, zone)
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
  return interval === 'hour' || interval === 'minute' ? `${date} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}` : date
}

/**
 * A funnel trends period's `labels` entry (PostHog's `format_label_date`):
 * day `1-May-2021`, hour `1-May 13:00`, month `May 2021`; a week is its days
 * clipped to the query's range, `2–8 May`, `29-Apr – 5-May`,
 * `29-Dec-2024 – 4-Jan-2025`, or one day `1-May-2021`.
 */
export function periodLabel(ms: number, interval: Interval, zone: string, weekStartDay: WeekStartDay, range: { readonly from: Date; readonly to: Date }): string {
  const d = wall(ms, zone)
  if (interval === 'day') return dMonY(d)
  if (interval === 'hour' || interval === 'minute') return `${dMon(d)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`
  if (interval === 'month') return `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`
  const day = dayOf(ms, zone)
  const back = (new Date(day).getUTCDay() - weekStartDay + 7) % 7
  const start = Math.max(day - back * DAY, dayOf(range.from.getTime(), zone))
  const end = Math.max(Math.min(day - back * DAY + 6 * DAY, dayOf(range.to.getTime(), zone)), start)
  const a = new Date(start)
  const b = new Date(end)
  if (start === end) return dMonY(a)
  if (a.getUTCFullYear() !== b.getUTCFullYear()) return `${dMonY(a)} – ${dMonY(b)}`
  if (a.getUTCMonth() !== b.getUTCMonth()) return `${dMon(a)} – ${dMon(b)}`
  return `${a.getUTCDate()}–${b.getUTCDate()} ${MONTHS[b.getUTCMonth()]}`
}
