/**
 * A reference for the tests, written apart from the code under test: what a
 * clock in a zone shows at an instant, straight from Intl, with no offsets
 * and no wall-time arithmetic.
 */

const formats = new Map<string, Intl.DateTimeFormat>()
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']

export interface LocalClock {
  /** YYYY-MM-DD */
  readonly date: string
  /** HH:MM:SS */
  readonly time: string
  /** 0 = Sunday */
  readonly weekday: number
}

export function localClock(ms: number, timeZone: string): LocalClock {
  let f = formats.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    formats.set(timeZone, f)
  }
  const p = Object.fromEntries(f.formatToParts(ms).map((x) => [x.type, x.value]))
  return {
    date: `${p.year}-${p.month}-${p.day}`,
    time: `${p.hour}:${p.minute}:${p.second}`,
    weekday: WEEKDAYS.indexOf(p.weekday!),
  }
}

/** A calendar date N days after `date` (YYYY-MM-DD), by the proleptic Gregorian calendar. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number)
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10)
}

/**
 * The first instant at which the zone's calendar shows `date` (or a later
 * one): where that local day starts. Binary search over the ±15 hours that
 * any offset can put between local and UTC midnight.
 */
export function startOfLocalDate(date: string, timeZone: string): number {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`)
  let lo = utcMidnight - 15 * 3_600_000
  let hi = utcMidnight + 15 * 3_600_000
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2)
    if (localClock(mid, timeZone).date >= date) hi = mid
    else lo = mid
  }
  return hi
}
