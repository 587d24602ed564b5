/**
 * Worked examples' data by hand, PostHog's `journeys_for` style: persons by
 * distinct id, their events in order, loaded as a funnel example (the
 * funnels' loader) into any engine.
 */
import type { FunnelExampleData } from '../../reference/funnels/funnel-dataset.js'
import type { RefEvent, RefPerson } from '../../reference/shared/ref-dataset.js'

export class Journeys {
  private readonly events: RefEvent[] = []
  private readonly persons: Record<string, RefPerson> = {}
  private readonly groups: Record<number, Record<string, Record<string, unknown>>> = {}

  /** A person with one distinct id (its id is the distinct id). */
  person(distinctId: string, properties: Record<string, unknown> = {}): this {
    this.persons[distinctId] = { id: distinctId, properties }
    return this
  }

  group(index: number, key: string, properties: Record<string, unknown>): this {
    this.groups[index] = { ...this.groups[index], [key]: properties }
    return this
  }

  /** An event at `time` (ISO, UTC). */
  event(distinctId: string, event: string, time: string, properties: Record<string, unknown> = {}, extra: Partial<RefEvent> = {}): this {
    const uuid = `00000000-0000-4000-8000-${String(this.events.length + 1).padStart(12, '0')}`
    this.events.push({ uuid, event, distinct_id: distinctId, timestamp: time, properties, ...extra })
    return this
  }

  data(): FunnelExampleData {
    return { events: this.events, persons: this.persons, groups: this.groups, project: { timezone: 'UTC', weekStartDay: 0, testAccountFilters: [] }, now: '2020-02-01T00:00:00Z' }
  }
}

/** The two-step funnel of PostHog's tests: `user signed up` then `paid`, 2020-01-01 to 2020-01-14. */
export const signupPaid = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  events: [
    { id: 'user signed up', type: 'events', order: 0 },
    { id: 'paid', type: 'events', order: 1 },
  ],
  insight: 'FUNNELS',
  date_from: '2020-01-01',
  date_to: '2020-01-14',
  ...extra,
})

/** The people URL's query as the HTTP adapter reads a GET (JSON values parsed). */
export function urlParams(url: string): Record<string, unknown> {
  const query = new URL(url, 'http://x').searchParams
  const out: Record<string, unknown> = {}
  for (const [k, raw] of query) {
    try {
      out[k] = /^[[{\-0-9tfn"]/.test(raw.trim()) && !['date_from', 'date_to'].includes(k) ? JSON.parse(raw) : raw
    } catch {
      out[k] = raw
    }
  }
  return out
}
