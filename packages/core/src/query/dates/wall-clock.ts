import { DAY } from './civil.js'
import { offsetAt, zoneSegments, type ZoneSegment } from './zone-transitions.js'

/**
 * A local time the way Python's aware `datetime` holds one, which is how
 * PostHog computes date ranges: wall-clock fields plus PEP 495's `fold`
 * (0 = the first of two readings of a repeated wall time, 1 = the second).
 * `micros` (0..999) carries what a millisecond `wall` cannot.
 */
export interface ZonedTime {
  readonly wall: number
  readonly micros: number
  readonly fold: 0 | 1
}

// Wider than any offset (UTC-12..UTC+14) so the segments around a wall time
// contain every instant that could show it.
export const WINDOW = 2 * DAY

export const toWall = (timeZone: string, ms: number): number => ms + offsetAt(timeZone, ms)

/**
 * The instant of a wall time, with Python's rules: a repeated wall time
 * (autumn) is its first reading for fold 0, its second for fold 1; a skipped
 * wall time (spring) is read with the offset before the change for fold 0
 * (so 02:30 on a 02:00 -> 03:00 night is 03:30 new time) and the offset
 * after it for fold 1.
 */
export function wallToInstant(timeZone: string, wall: number, fold: 0 | 1): number {
  const segments = zoneSegments(timeZone, wall - WINDOW, wall + WINDOW)
  let first: number | undefined
  let last: number | undefined
  for (const s of segments) {
    const t = wall - s.offset
    if (t >= s.start && t < s.end) {
      first ??= t
      last = t
    }
  }
  if (first !== undefined && last !== undefined) return fold === 0 ? first : last
  for (let i = 0; i + 1 < segments.length; i++) {
    const before = segments[i]!
    const after = segments[i + 1]!
    if (wall - before.offset >= before.end && wall - after.offset < after.start) {
      return wall - (fold === 0 ? before.offset : after.offset)
    }
  }
  /* c8 ignore next */
  throw new Error(`no instant for wall time ${new Date(wall).toISOString()} in ${timeZone}`)
}

/**
 * The first instant whose wall clock reads `wall` or later: where a bucket
 * that starts at `wall` starts. A skipped wall time gives the instant of the
 * change (a day that starts in a 00:00 -> 01:00 gap starts at 01:00 new time);
 * a repeated one gives its first reading.
 */
export function startOfWall(timeZone: string, wall: number): number {
  return startOfWallIn(zoneSegments(timeZone, wall - WINDOW, wall + WINDOW), wall).instant
}

/**
 * `startOfWall` against segments that cover every instant that could show
 * `wall` (at least two days either side). Walking wall times upwards, pass
 * back the returned `index` as `from` to scan each segment once.
 */
export function startOfWallIn(segments: ReadonlyArray<ZoneSegment>, wall: number, from = 0): { instant: number; index: number } {
  for (let i = from; i < segments.length; i++) {
    const s = segments[i]!
    if (wall < s.end + s.offset) return { instant: Math.max(s.start, wall - s.offset), index: i }
  }
  /* c8 ignore next */
  throw new Error(`no instant for wall time ${new Date(wall).toISOString()}`)
}

/** An instant as a zoned time (Python's `astimezone`): fold 1 when its wall time was already shown earlier. */
export function zonedFromInstant(timeZone: string, ms: number, micros = 0): ZonedTime {
  const wall = toWall(timeZone, ms)
  return { wall, micros, fold: wallToInstant(timeZone, wall, 0) < ms ? 1 : 0 }
}

/** The instant of a zoned time, in epoch microseconds. */
export const instantOf = (timeZone: string, z: ZonedTime): number => wallToInstant(timeZone, z.wall, z.fold) * 1000 + z.micros
