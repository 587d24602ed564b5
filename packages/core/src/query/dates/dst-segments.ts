import { zoneSegments } from './zone-transitions.js'

/** A part of a range over which the zone's UTC offset does not change. */
export interface DstSegment {
  /** Inclusive. */
  readonly from: Date
  /** Exclusive (the next segment's `from`), except the last segment's, which is the range's own inclusive `to`. */
  readonly to: Date
  /** Local time minus UTC, e.g. 330 for Asia/Kolkata, -240 for America/New_York in summer (fractional only for pre-1900 local mean time). */
  readonly offsetMinutes: number
}

/**
 * The range `[from, to]` cut where the zone's offset changes, in order. With
 * it the compiler can bucket integer epochs, `(epoch + offset) div interval`
 * per segment, instead of converting every row's time zone.
 */
export function dstSegments(range: { readonly from: Date; readonly to: Date }, timeZone: string): DstSegment[] {
  const from = range.from.getTime()
  const to = range.to.getTime()
  if (!(from <= to)) return []
  // `to` is inclusive: a change at exactly `to` opens a one-instant segment.
  const segments = zoneSegments(timeZone, from, to + 1)
  return segments.map((s, i) => ({
    from: new Date(s.start),
    to: new Date(i === segments.length - 1 ? to : s.end),
    offsetMinutes: s.offset / 60_000,
  }))
}
