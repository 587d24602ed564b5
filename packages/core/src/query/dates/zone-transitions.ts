import { civilMs, DAY, SECOND } from './civil.js'
import { readZoneOffset } from './zone-offset.js'

/** From `at` (inclusive) on, the zone is `offset` ms ahead of UTC. */
export interface Transition {
  readonly at: number
  readonly offset: number
}

/** A stretch of time over which the zone's offset is constant: `[start, end)` in epoch ms. */
export interface ZoneSegment {
  readonly start: number
  readonly end: number
  readonly offset: number
}

interface ZoneYear {
  readonly startOffset: number
  readonly transitions: ReadonlyArray<Transition>
}

// One entry per (zone, UTC year) ever asked for; a year costs about 370 Intl
// calls (~1 ms) to scan, then every lookup in it is arithmetic.
const years = new Map<string, ZoneYear>()
const MAX_CACHED_YEARS = 4096

/**
 * Scans a UTC year day by day and pins every change of offset to the second
 * (tz data has second resolution). A zone that changes offset and changes
 * back within one day would be missed; no zone does that in the tz database.
 */
function zoneYear(timeZone: string, year: number): ZoneYear {
  const key = `${timeZone}\u0000${year}`
  const cached = years.get(key)
  if (cached) return cached
  const start = civilMs(year, 0, 1)
  const end = civilMs(year + 1, 0, 1)
  const startOffset = readZoneOffset(timeZone, start)
  const transitions: Transition[] = []
  let lo = start
  let loOffset = startOffset
  while (lo < end) {
    const hi = Math.min(lo + DAY, end)
    const hiOffset = readZoneOffset(timeZone, hi)
    // Two changes between lo and hi (a -> b -> c) are found one after the other.
    while (hiOffset !== loOffset) {
      const at = firstChange(timeZone, lo, loOffset, hi)
      const offset = readZoneOffset(timeZone, at)
      transitions.push({ at, offset })
      lo = at
      loOffset = offset
    }
    lo = hi
    loOffset = hiOffset
  }
  const entry = { startOffset, transitions }
  if (years.size >= MAX_CACHED_YEARS) years.delete(years.keys().next().value as string)
  years.set(key, entry)
  return entry
}

/** The first whole second in `(lo, hi]` whose offset is not `loOffset`; `hi`'s offset differs. */
function firstChange(timeZone: string, lo: number, loOffset: number, hi: number): number {
  while (hi - lo > SECOND) {
    const mid = lo + Math.floor((hi - lo) / (2 * SECOND)) * SECOND
    if (readZoneOffset(timeZone, mid) === loOffset) lo = mid
    else hi = mid
  }
  return hi
}

const utcYear = (ms: number) => new Date(ms).getUTCFullYear()

/** The zone's offset from UTC at an instant, in ms (east positive). */
export function offsetAt(timeZone: string, ms: number): number {
  const { startOffset, transitions } = zoneYear(timeZone, utcYear(ms))
  let offset = startOffset
  for (const t of transitions) {
    if (t.at > ms) break
    offset = t.offset
  }
  return offset
}

/** The offset changes at instants in `(from, to]`, in order. */
export function transitionsBetween(timeZone: string, from: number, to: number): Transition[] {
  const out: Transition[] = []
  for (let year = utcYear(from); year <= utcYear(to); year++) {
    for (const t of zoneYear(timeZone, year).transitions) if (t.at > from && t.at <= to) out.push(t)
  }
  return out
}

/** `[from, to)` cut where the offset changes; the last segment ends at `to`. */
export function zoneSegments(timeZone: string, from: number, to: number): ZoneSegment[] {
  const out: ZoneSegment[] = []
  let start = from
  let offset = offsetAt(timeZone, from)
  for (const t of transitionsBetween(timeZone, from, to)) {
    if (t.at === to) break
    out.push({ start, end: t.at, offset })
    start = t.at
    offset = t.offset
  }
  out.push({ start, end: to, offset })
  return out
}
