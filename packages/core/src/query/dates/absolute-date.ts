import { civilMs, DAY, daysInMonth, HOUR, MINUTE } from './civil.js'

/** A date or date-time as written: wall-clock fields, and the offset when the text names one. */
export interface AbsoluteDate {
  /** The written fields as a wall time (see civil.ts). */
  readonly wall: number
  /** Microseconds below `wall`'s millisecond (0..999). */
  readonly micros: number
  /** The written UTC offset in ms (`Z` is 0); undefined for a naive value, which is project-local time. */
  readonly offset: number | undefined
}

// What PostHog's `relative_date_parse` accepts before trying relative forms:
// dateutil's `isoparse` (YYYY, YYYY-MM, YYYY-MM-DD, YYYYMMDD, then optionally
// T/space + hh, hh:mm, hh:mm:ss, fractions, and Z/±hh/±hhmm/±hh:mm), and
// `strptime("%Y-%m-%d")` for unpadded dates such as 2021-1-5. ISO week dates
// (2021-W05-3), which isoparse also reads, are not accepted.
const ISO =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?|(\d{2})(\d{2}))?(?:[Tt ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/
const UNPADDED = /^(\d{4})-(\d{1,2})-(\d{1,2})$/

/** Parses an absolute date; null for anything else, including impossible dates (2021-02-30). */
export function parseAbsoluteDate(text: string): AbsoluteDate | null {
  const iso = ISO.exec(text)
  if (iso) {
    const [, y, mExt, dExt, mBasic, dBasic, h, mi, s, frac, zone] = iso
    // A time needs a full date (no "2021-01T10:00").
    if (h !== undefined && dExt === undefined && dBasic === undefined) return null
    return build(y!, mExt ?? mBasic ?? '1', dExt ?? dBasic ?? '1', h, mi, s, frac, zone)
  }
  const unpadded = UNPADDED.exec(text)
  if (unpadded) return build(unpadded[1]!, unpadded[2]!, unpadded[3]!)
  return null
}

function build(
  y: string,
  mo: string,
  d: string,
  h = '0',
  mi = '0',
  s = '0',
  frac = '',
  zone?: string,
): AbsoluteDate | null {
  const year = Number(y)
  const month = Number(mo)
  const day = Number(d)
  let hour = Number(h)
  const minute = Number(mi)
  const second = Number(s)
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month - 1)) return null
  // isoparse reads 24:00 as midnight of the next day.
  const endOfDay = hour === 24 && minute === 0 && second === 0 && !/[1-9]/.test(frac)
  if (endOfDay) hour = 0
  if (hour > 23 || minute > 59 || second > 59) return null
  const micros6 = Number((frac + '000000').slice(0, 6))
  let offset: number | undefined
  if (zone !== undefined) {
    if (zone === 'Z' || zone === 'z') offset = 0
    else {
      const digits = zone.slice(1).replace(':', '')
      const oh = Number(digits.slice(0, 2))
      const om = digits.length > 2 ? Number(digits.slice(2, 4)) : 0
      if (oh > 23 || om > 59) return null
      offset = (zone[0] === '-' ? -1 : 1) * (oh * HOUR + om * MINUTE)
    }
  }
  const wall =
    civilMs(year, month - 1, day, hour, minute, second, Math.floor(micros6 / 1000)) + (endOfDay ? DAY : 0)
  return { wall, micros: micros6 % 1000, offset }
}
