/**
 * Events as the trend reference reads them: the timestamp parsed to
 * microseconds, the person resolved through the distinct id, and the
 * context property filters look at (person, group and cohort facts).
 */
import { parseTimestamp } from '../shared/ref-time.js'
import type { RefDataset, RefEvent } from '../shared/ref-dataset.js'

export interface Row {
  readonly event: RefEvent
  readonly micros: number
  readonly ms: number
  readonly personId: string
  readonly personProperties: Readonly<Record<string, unknown>>
}

/** The person of a distinct id that no person lists: itself, with no properties. */
export const personlessId = (distinctId: string) => `$personless:${distinctId}`

export function readRows(data: RefDataset): Row[] {
  return data.events.map((event) => {
    const micros = parseTimestamp(event.timestamp)
    if (micros === null) throw new Error(`reference: unreadable timestamp ${JSON.stringify(event.timestamp)}`)
    const person = Object.hasOwn(data.persons, event.distinct_id) ? data.persons[event.distinct_id] : undefined
    return {
      event,
      micros,
      ms: Math.floor(micros / 1000),
      personId: person?.id ?? personlessId(event.distinct_id),
      personProperties: person?.properties ?? {},
    }
  })
}

/**
 * Each person's `created_at`, in microseconds: the earliest event of any of
 * its distinct ids, which is what ingestion stores when events arrive in time
 * order (RefPerson carries no created_at of its own).
 */
export function createdAtByPerson(rows: ReadonlyArray<Row>): Map<string, number> {
  const out = new Map<string, number>()
  for (const r of rows) out.set(r.personId, Math.min(out.get(r.personId) ?? Infinity, r.micros))
  return out
}

/** The earliest event after PostHog's EARLIEST_TIMESTAMP (2015-01-01), for `date_from: "all"`. */
export function earliestEvent(rows: ReadonlyArray<Row>): Date | null {
  const floor = Date.UTC(2015, 0, 1)
  let best: number | null = null
  for (const r of rows) if (r.ms > floor && (best === null || r.micros < best)) best = r.micros
  return best === null ? null : new Date(Math.floor(best / 1000))
}
