/**
 * Postgres's ISO text form of dates and timestamps, rewritten as Sightline's
 * one textual form. Done with integer arithmetic on the fields, not with
 * `Date`, which keeps milliseconds only and cannot hold Postgres's whole range.
 */

// `2026-01-01 10:00:00.1234+05:30`, `0044-03-15 12:00:00+00 BC`. The offset
// can carry seconds (`+00:53:28`, a historical local mean time). The `T` is
// accepted too, though Postgres prints a space under DateStyle ISO.
const TIMESTAMP =
  /^(\d{4,})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?:([+-])(\d{2})(?::(\d{2}))?(?::(\d{2}))?)?( BC)?$/

const DATE = /^(\d{4,})-(\d{2})-(\d{2})( BC)?$/

const SECONDS_PER_DAY = 86_400

/**
 * Converts a `timestamptz` or `timestamp` in Postgres's ISO text form to ISO
 * 8601 UTC with exactly six fractional digits: `2026-01-01T10:00:00.123456Z`.
 * A value without an offset (`timestamp`) is taken as UTC. Postgres's
 * `infinity` and `-infinity` pass through unchanged.
 */
export function isoFromPgTimestamp(text: string): string {
  if (text === 'infinity' || text === '-infinity') return text

  const match = TIMESTAMP.exec(text)
  if (!match) throw new TypeError(`not a Postgres ISO timestamp: '${text}'`)

  const [, y, mo, d, h, mi, s, fraction = '', sign, oh = '0', om = '0', os = '0', bc] = match
  const days = daysFromCivil(astronomicalYear(Number(y), bc), Number(mo), Number(d))
  const offset = (sign === '-' ? -1 : 1) * (Number(oh) * 3600 + Number(om) * 60 + Number(os))
  // Whole seconds since the epoch stay exact as a number for every year Postgres allows.
  const seconds = days * SECONDS_PER_DAY + Number(h) * 3600 + Number(mi) * 60 + Number(s) - offset

  const utcDays = Math.floor(seconds / SECONDS_PER_DAY)
  const secondOfDay = seconds - utcDays * SECONDS_PER_DAY
  const time = [Math.floor(secondOfDay / 3600), Math.floor(secondOfDay / 60) % 60, secondOfDay % 60]
    .map(pad2)
    .join(':')

  return `${formatDate(civilFromDays(utcDays))}T${time}.${fraction.padEnd(6, '0')}Z`
}

/**
 * Converts a `date` in Postgres's ISO text form to `YYYY-MM-DD`. Years before
 * 1 AD or after 9999 take ISO 8601's expanded form, as `Date#toISOString`
 * writes them (44 BC is `-000043-03-15`). `infinity` and `-infinity` pass
 * through unchanged.
 */
export function isoFromPgDate(text: string): string {
  if (text === 'infinity' || text === '-infinity') return text

  const match = DATE.exec(text)
  if (!match) throw new TypeError(`not a Postgres ISO date: '${text}'`)

  const [, y, mo, d, bc] = match
  return formatDate([astronomicalYear(Number(y), bc), Number(mo), Number(d)])
}

// Postgres counts 1 BC, 2 BC ...; ISO 8601 counts 0, -1 ...
function astronomicalYear(year: number, bc: string | undefined): number {
  return bc === undefined ? year : 1 - year
}

function formatDate([year, month, day]: readonly [number, number, number]): string {
  const yyyy =
    year >= 0 && year <= 9999
      ? String(year).padStart(4, '0')
      : `${year < 0 ? '-' : '+'}${String(Math.abs(year)).padStart(6, '0')}`
  return `${yyyy}-${pad2(month)}-${pad2(day)}`
}

function pad2(value: number): string {
  return String(value).padStart(2, '0')
}

// Days since 1970-01-01 in the proleptic Gregorian calendar, and back
// (Howard Hinnant's algorithms, "chrono-Compatible Low-Level Date Algorithms").
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146_097 + dayOfEra - 719_468
}

function civilFromDays(days: number): [number, number, number] {
  const z = days + 719_468
  const era = Math.floor(z / 146_097)
  const dayOfEra = z - era * 146_097
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  )
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const mp = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  return [yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day]
}
