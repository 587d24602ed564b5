import { type Interval, toWall, type WeekStartDay } from '../shared/ref-time.js'

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const DAY_MS = 86_400_000
const pad = (n: number) => String(n).padStart(2, '0')

/** The local wall clock of an instant, as a UTC-read Date. */
const wall = (ms: number, tz: string) => new Date(toWall(tz, ms))
/** A local calendar day as a UTC-midnight ms value. */
const dayOf = (ms: number, tz: string) => Math.floor(toWall(tz, ms) / DAY_MS) * DAY_MS

const dMonY = (d: Date) => `${d.getUTCDate()}-${MONTHS[d.getUTCMonth()]}-${d.getUTCFullYear()}`
const dMon = (d: Date) => `${d.getUTCDate()}-${MONTHS[d.getUTCMonth()]}`

/** Funnel trends `days`: `%Y-%m-%d`, plus ` %H:%M:%S` for hourly periods, in the project's zone. */
export function periodDay(ms: number, interval: Interval, tz: string): string {
  const d = wall(ms, tz)
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
  return interval === 'hour' ? `${date} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}` : date
}

/**
 * Funnel trends `labels` (posthog/hogql_queries/utils/timestamp_utils.py
 * format_label_date): day `1-May-2021`, hour `1-May 13:00`, month `May 2021`;
 * a week is its days clipped to the query's range: `2–8 May`, `29-Apr – 5-May`,
 * `29-Dec-2024 – 4-Jan-2025`, or one day `1-May-2021`.
 */
export function periodLabel(
  ms: number,
  interval: Interval,
  tz: string,
  weekStartDay: WeekStartDay,
  range: { readonly from: Date; readonly to: Date },
): string {
  const d = wall(ms, tz)
  if (interval === 'day') return dMonY(d)
  if (interval === 'hour' || interval === 'minute') return `${dMon(d)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`
  if (interval === 'month') return `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`
  const day = dayOf(ms, tz)
  const back = (new Date(day).getUTCDay() - weekStartDay + 7) % 7
  let start = day - back * DAY_MS
  let end = start + 6 * DAY_MS
  start = Math.max(start, dayOf(range.from.getTime(), tz))
  end = Math.max(Math.min(end, dayOf(range.to.getTime(), tz)), start)
  const a = new Date(start)
  const b = new Date(end)
  if (start === end) return dMonY(a)
  if (a.getUTCFullYear() !== b.getUTCFullYear()) return `${dMonY(a)} – ${dMonY(b)}`
  if (a.getUTCMonth() !== b.getUTCMonth()) return `${dMon(a)} – ${dMon(b)}`
  return `${a.getUTCDate()}–${b.getUTCDate()} ${MONTHS[b.getUTCMonth()]}`
}
