import { civilMs } from './civil.js'

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    formatters.set(timeZone, f)
  }
  return f
}

/**
 * The zone's offset from UTC at an instant, in milliseconds (east positive),
 * read from Intl on every call (callers cache: see zone-transitions.ts).
 *
 * date-fns-tz does the same internally, but its public `getTimezoneOffset`
 * and `toZonedTime` read a Date's local fields (`getHours`, `setHours`) as a
 * wall time: for the instant 2026-03-08T03:00Z, when New York is still on
 * EST (UTC-5 until 07:00Z), `getTimezoneOffset('America/New_York', date)`
 * answers UTC-4. Sightline needs the offset at an instant on any host, hence
 * Intl directly (test: packages/core/test/dates/host-zone.test.ts).
 */
export function readZoneOffset(timeZone: string, ms: number): number {
  let year = 0
  let month = 0
  let day = 0
  let hour = 0
  let minute = 0
  let second = 0
  for (const part of formatter(timeZone).formatToParts(ms)) {
    switch (part.type) {
      case 'year': year = Number(part.value); break
      case 'month': month = Number(part.value); break
      case 'day': day = Number(part.value); break
      case 'hour': hour = Number(part.value) % 24; break
      case 'minute': minute = Number(part.value); break
      case 'second': second = Number(part.value); break
    }
  }
  return civilMs(year, month - 1, day, hour, minute, second) - Math.floor(ms / 1000) * 1000
}
