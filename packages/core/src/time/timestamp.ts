/**
 * Timestamps inside Sightline are integers: microseconds since the Unix epoch,
 * UTC. JavaScript's Date keeps milliseconds only, so parsing and formatting are
 * done here, keeping the microseconds clients send and databases store.
 */

/** Microseconds since 1970-01-01T00:00:00Z. Safe as a JS number until the year 2255. */
export type EpochMicros = number

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/

/**
 * Parses an ISO 8601 date or date-time. A value without a zone is UTC, as in
 * PostHog. Returns null for anything else (including impossible dates such
 * as February 30th).
 */
export function parseTimestamp(text: string): EpochMicros | null {
  const m = ISO.exec(text.trim())
  if (!m) return null
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m
  const year = Number(y)
  const month = Number(mo)
  const day = Number(d)
  const hour = Number(h)
  const minute = Number(mi)
  const second = Number(s)
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null
  const ms = Date.UTC(year, month - 1, day, hour, minute, second)
  const check = new Date(ms)
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return null
  const micros = Number((frac + '000000').slice(0, 6))
  let offsetMinutes = 0
  if (zone && zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1
    const digits = zone.slice(1).replace(':', '')
    const oh = Number(digits.slice(0, 2))
    const om = digits.length > 2 ? Number(digits.slice(2, 4)) : 0
    if (oh > 23 || om > 59) return null
    offsetMinutes = sign * (oh * 60 + om)
  }
  return (ms - offsetMinutes * 60_000) * 1000 + micros
}

const DAY_MICROS = 86_400_000_000
let cachedDay = Number.NaN
let cachedPrefix = ''
const pad = (n: number, width: number) => String(n).padStart(width, '0')

/** `2026-01-01T10:00:00.123456Z`: the one textual form Sightline emits. */
export function formatTimestamp(micros: EpochMicros): string {
  // Events of a batch mostly share a day: its `YYYY-MM-DDT` prefix is computed once.
  const day = Math.floor(micros / DAY_MICROS)
  if (day !== cachedDay) {
    cachedDay = day
    cachedPrefix = new Date(day * 86_400_000).toISOString().slice(0, 11)
  }
  const inDay = micros - day * DAY_MICROS
  const seconds = Math.floor(inDay / 1_000_000)
  return `${cachedPrefix}${pad(Math.floor(seconds / 3600), 2)}:${pad(Math.floor(seconds / 60) % 60, 2)}:${pad(seconds % 60, 2)}.${pad(inDay - seconds * 1_000_000, 6)}Z`
}

export const dateToMicros = (date: Date): EpochMicros => date.getTime() * 1000
export const microsToDate = (micros: EpochMicros): Date => new Date(Math.floor(micros / 1000))

/** The clock's now in Sightline's textual form. */
export const nowIso = (clock: () => Date): string => formatTimestamp(dateToMicros(clock()))
