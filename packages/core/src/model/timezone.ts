import { Schema } from 'effect'

const known = new Map<string, boolean>()

/** True for IANA zone names the runtime knows (`Europe/Berlin`, `UTC`). */
export function isTimeZone(name: string): boolean {
  let ok = known.get(name)
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name })
      ok = name.length > 0
    } catch {
      ok = false
    }
    known.set(name, ok)
  }
  return ok
}

/** An IANA time-zone name. */
export const TimeZone = Schema.String.pipe(
  Schema.check(Schema.makeFilter((s: string) => isTimeZone(s) || `unknown time zone ${JSON.stringify(s)}`)),
)
