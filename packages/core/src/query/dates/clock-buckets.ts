import { floorTo } from './civil.js'
import { WINDOW } from './wall-clock.js'
import { zoneSegments, type ZoneSegment } from './zone-transitions.js'

/**
 * Minute and hour buckets follow the clock in real time, as ClickHouse's
 * `toStartOfHour` and `+ INTERVAL 1 HOUR` do for PostHog: a bucket starts at
 * every instant the local clock shows a whole minute (hour), and at a change
 * that skips over one. So the hour repeated in autumn is two one-hour buckets
 * (25 on that day in New York), the skipped one in spring is none, and in
 * Australia/Lord_Howe the half-hour change makes one bucket 30 minutes long
 * (spring) and one 90 (autumn).
 */

/** The latest bucket start at or before `ms`; `unit` is one minute or one hour in ms. */
export function clockBucketOf(ms: number, unit: number, timeZone: string): number {
  const segments = zoneSegments(timeZone, ms - WINDOW, ms + 1)
  for (let i = segments.length - 1; i >= 0; i--) {
    const s = segments[i]!
    const t = Math.min(ms, s.end - 1)
    const aligned = t - (t + s.offset - floorTo(t + s.offset, unit))
    if (aligned >= s.start) return aligned
    const before = segments[i - 1]
    if (before && skipsBoundary(before, s, unit)) return s.start
  }
  /* c8 ignore next */
  throw new Error(`no ${unit} ms bucket within two days before ${new Date(ms).toISOString()} in ${timeZone}`)
}

/** Bucket starts in `[first, to]`, where `first` is itself a bucket start; at most `limit + 1` of them. */
export function clockBucketStarts(first: number, to: number, unit: number, timeZone: string, limit = Number.POSITIVE_INFINITY): number[] {
  const out = [first]
  let last = first
  const push = (t: number) => {
    if (t > last && t <= to) {
      out.push(t)
      last = t
    }
  }
  const segments = zoneSegments(timeZone, first, to + 1)
  for (let i = 0; i < segments.length && out.length <= limit; i++) {
    const s = segments[i]!
    const before = segments[i - 1]
    if (before && skipsBoundary(before, s, unit)) push(s.start)
    const startWall = Math.max(s.start, first) + s.offset
    const firstWall = floorTo(startWall, unit) === startWall ? startWall : floorTo(startWall, unit) + unit
    for (let t = firstWall - s.offset; t < s.end && t <= to && out.length <= limit; t += unit) push(t)
  }
  return out
}

/** True when the clock jumps forward at `after.start` over a whole `unit` (NY's 02:00 at 02:00 -> 03:00). */
function skipsBoundary(before: ZoneSegment, after: ZoneSegment, unit: number): boolean {
  const from = after.start + before.offset
  const to = after.start + after.offset
  const next = floorTo(from, unit) === from ? from : floorTo(from, unit) + unit
  return next < to
}
