import { describe, expect, it, vi } from 'vitest'
import fc from 'fast-check'
import { generateSampleData, type SampleData, type SampleDataOptions, type SampleEvent } from '../src/sample-data.js'

// Expectations come from the generator's specification (PostHog-like product data), not from its
// output. Tolerances: at these sizes binomial noise is well under a percentage point, but events
// cluster by person and the busiest 1% of people hold a large share of them, so a fraction moves
// with a few dozen people's choices. Hence about ±10% relative for the big shares and ±20% for
// the rare ones.

const DAY = 86_400_000
const MINUTE = 60_000
/** A Monday at midnight UTC, so the 90-day window holds whole days. */
const END = new Date('2025-06-02T00:00:00.000Z')

interface Collected {
  readonly data: SampleData
  readonly batches: SampleEvent[][]
  readonly events: SampleEvent[]
}

function collect(options: SampleDataOptions): Collected {
  const data = generateSampleData(options)
  const batches = [...data.batches]
  return { data, batches, events: batches.flat() }
}

const cache = new Map<string, Collected>()
function sample(options: SampleDataOptions): Collected {
  const key = JSON.stringify(options)
  let found = cache.get(key)
  if (found === undefined) {
    found = collect(options)
    cache.set(key, found)
  }
  return found
}

const small = (): Collected => sample({ persons: 500, end: END, seed: 7 })
const full = (): Collected => sample({ end: END })

/** Replays $identify the way the engine merges persons: distinct id -> a representative id. */
function personsOf(events: readonly SampleEvent[]): (distinctId: string) => string {
  const parent = new Map<string, string>()
  const find = (id: string): string => {
    let root = id
    while (parent.has(root)) root = parent.get(root) as string
    if (root !== id) parent.set(id, root)
    return root
  }
  for (const e of events) {
    if (e.event !== '$identify') continue
    const anon = e.properties.$anon_distinct_id
    expect(typeof anon).toBe('string')
    const a = find(anon as string)
    const b = find(e.distinctId)
    if (a !== b) parent.set(a, b)
  }
  return find
}

function groupBy<T>(items: Iterable<T>, key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const item of items) {
    const k = key(item)
    const group = groups.get(k)
    if (group === undefined) groups.set(k, [item])
    else group.push(item)
  }
  return groups
}

const ms = (e: SampleEvent): number => Date.parse(e.timestamp)

describe('generateSampleData: determinism', () => {
  it('gives the same events for the same seed and different events for another seed', () => {
    const options = { persons: 300, days: 20, end: END, seed: 11 }
    const a = collect(options)
    const b = collect(options)
    const c = collect({ ...options, seed: 12 })
    expect(a.events.length).toBeGreaterThan(0)
    expect(JSON.stringify(b.events)).toBe(JSON.stringify(a.events))
    expect(b.data.estimatedEvents).toBe(a.data.estimatedEvents)
    expect(JSON.stringify(c.events)).not.toBe(JSON.stringify(a.events))
  })

  it('regenerates the same events when the batches are iterated again', () => {
    const data = generateSampleData({ persons: 200, days: 10, end: END })
    const first = JSON.stringify([...data.batches])
    expect(JSON.stringify([...data.batches])).toBe(first)
  })
})

describe('generateSampleData: window and batches', () => {
  it('keeps every timestamp in [end - days, end), in time order across batches, batches <= batchSize', () => {
    const end = new Date('2024-03-15T13:45:00.000Z') // not midnight: the window must still be exact
    const { batches, events } = collect({ persons: 400, days: 30, end, batchSize: 777 })
    const start = end.getTime() - 30 * DAY
    expect(events.length).toBeGreaterThan(1_000)
    for (const batch of batches) {
      expect(batch.length).toBeGreaterThan(0)
      expect(batch.length).toBeLessThanOrEqual(777)
    }
    let previous = -Infinity
    for (const e of events) {
      const t = ms(e)
      expect(new Date(t).toISOString()).toBe(e.timestamp) // canonical ISO 8601
      expect(t).toBeGreaterThanOrEqual(start)
      expect(t).toBeLessThan(end.getTime())
      expect(t).toBeGreaterThanOrEqual(previous)
      previous = t
      expect('uuid' in e).toBe(false)
    }
  })

  it('holds the window and order invariants for arbitrary small options', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 15 }),
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
        (seed, persons, days, batchSize, endMs) => {
          const data = generateSampleData({ seed, persons, days, batchSize, end: new Date(endMs) })
          let previous = endMs - days * DAY
          for (const batch of data.batches) {
            if (batch.length === 0 || batch.length > batchSize) return false
            for (const e of batch) {
              const t = ms(e)
              if (!(t >= previous && t < endMs)) return false
              previous = t
            }
          }
          return true
        },
      ),
      { numRuns: 40 },
    )
  })

  it('defaults end to the start of the current UTC day', () => {
    // The clock pinned, so a run that straddles midnight UTC cannot see two days.
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(new Date('2025-06-04T17:31:12.345Z'))
      const data = generateSampleData({ persons: 5, days: 1 })
      expect(data.end.toISOString()).toBe('2025-06-04T00:00:00.000Z')
      expect(data.end.getTime() - data.start.getTime()).toBe(DAY)
    } finally {
      vi.useRealTimers()
    }
  })

  it('rejects nonsensical options', () => {
    expect(() => generateSampleData({ persons: 0 })).toThrow(RangeError)
    expect(() => generateSampleData({ days: -1 })).toThrow(RangeError)
    expect(() => generateSampleData({ batchSize: 0 })).toThrow(RangeError)
    expect(() => generateSampleData({ end: new Date('nope') })).toThrow(RangeError)
  })

  it('generates a small data set: 500 persons make over 10,000 events', () => {
    // ~30,000 events. How fast is measured by the benchmarks (which generate sample data), not
    // asserted here: a bound on wall-clock time fails on a loaded shared machine.
    const { events } = collect({ persons: 500, end: END, seed: 3 })
    expect(events.length).toBeGreaterThan(10_000)
  })
})

describe('generateSampleData: size', () => {
  it('hits about 300,000 events by default and estimates its own size', () => {
    const { data, events } = full()
    expect(data.persons).toBe(5_000)
    expect(events.length).toBeGreaterThan(270_000)
    expect(events.length).toBeLessThan(330_000)
    expect(Math.abs(data.estimatedEvents - events.length) / events.length).toBeLessThan(0.05)
  })

  it('scales the persons with targetEvents alone, and the events with persons alone (60 per person)', () => {
    expect(generateSampleData({ targetEvents: 30_000, end: END }).persons).toBe(500)
    expect(generateSampleData({ targetEvents: 3_000_000, end: END }).persons).toBe(50_000)
    expect(generateSampleData({ targetEvents: 10, end: END }).persons).toBe(1)
    const fromPersons = generateSampleData({ persons: 500, end: END })
    expect(Math.abs(fromPersons.estimatedEvents - 30_000) / 30_000).toBeLessThan(0.1)
    // Both given: both kept.
    expect(generateSampleData({ persons: 300, targetEvents: 40_000, end: END }).persons).toBe(300)
    // Neither: 5,000 persons.
    expect(generateSampleData({ end: END }).persons).toBe(5_000)
  })

  it('follows targetEvents', () => {
    const { data, events } = collect({ persons: 300, targetEvents: 40_000, end: END })
    expect(Math.abs(events.length - 40_000) / 40_000).toBeLessThan(0.15)
    expect(Math.abs(data.estimatedEvents - events.length) / events.length).toBeLessThan(0.1)
  })
})

describe('generateSampleData: event mix and properties', () => {
  it('has the specified event mix', () => {
    const { events } = full()
    const counts = new Map<string, number>()
    for (const e of events) counts.set(e.event, (counts.get(e.event) ?? 0) + 1)
    const share = (name: string): number => (counts.get(name) ?? 0) / events.length
    expect(share('$pageview')).toBeGreaterThan(0.45) // "about half"
    expect(share('$pageview')).toBeLessThan(0.55)
    expect(share('$autocapture')).toBeGreaterThan(0.14) // ~16%
    expect(share('$autocapture')).toBeLessThan(0.18)
    expect(share('purchase')).toBeGreaterThan(0.0144) // ~1.8%, ±20%
    expect(share('purchase')).toBeLessThan(0.0216)
    const others = ['$pageleave', 'signup_started', 'signup', 'onboarding_completed', 'feature_used', 'invite_sent']
    for (const name of [...others, 'subscription_cancelled', '$identify', '$groupidentify']) {
      expect(counts.get(name) ?? 0, name).toBeGreaterThan(0)
    }
    // The rest of the mix is pages and clicks: custom events stay a minority.
    expect(share('$pageview') + share('$pageleave') + share('$autocapture')).toBeGreaterThan(0.8)
  })

  it('gives pageviews, clicks and purchases their properties', () => {
    const { events } = small()
    const pageviews = events.filter((e) => e.event === '$pageview')
    const browsers = new Map<unknown, number>()
    let withUtm = 0
    for (const e of pageviews) {
      const p = e.properties
      const url = new URL(String(p.$current_url))
      expect(url.origin).toBe('https://app.example.com')
      expect(p.$pathname).toBe(url.pathname)
      expect(['Chrome', 'Safari', 'Firefox', 'Edge']).toContain(p.$browser)
      expect(typeof p.$browser_version).toBe('number')
      expect(typeof p.$os).toBe('string')
      expect(['Desktop', 'Mobile', 'Tablet']).toContain(p.$device_type)
      expect(p.$geoip_country_code).toMatch(/^[A-Z]{2}$/)
      expect(typeof p.$referring_domain).toBe('string')
      expect(typeof p.load_time_ms).toBe('number')
      expect(p.load_time_ms as number).toBeGreaterThan(0)
      if (p.utm_source !== undefined) {
        withUtm++
        expect(url.searchParams.get('utm_source')).toBe(p.utm_source)
      }
      browsers.set(p.$browser, (browsers.get(p.$browser) ?? 0) + 1)
    }
    expect(withUtm).toBeGreaterThan(0) // "sometimes"
    expect(withUtm / pageviews.length).toBeLessThan(0.2)
    const chrome = browsers.get('Chrome') ?? 0
    for (const other of ['Safari', 'Firefox', 'Edge']) {
      expect(browsers.get(other) ?? 0, other).toBeGreaterThan(0)
      expect(browsers.get(other) ?? 0, other).toBeLessThan(chrome) // Chrome leads
    }

    for (const e of events.filter((x) => x.event === '$autocapture')) {
      expect(e.properties.$event_type).toBe('click')
      expect(typeof e.properties.$el_text).toBe('string')
    }
    const purchases = events.filter((e) => e.event === 'purchase')
    expect(purchases.length).toBeGreaterThan(0)
    for (const e of purchases) {
      expect(typeof e.properties.amount).toBe('number')
      expect(e.properties.amount as number).toBeGreaterThan(0)
      expect(e.properties.currency).toMatch(/^[A-Z]{3}$/)
      expect(['starter', 'pro', 'enterprise']).toContain(e.properties.plan)
      expect(e.distinctId).toMatch(/^user-\d+$/) // buying needs an account
    }
    for (const e of events.filter((x) => x.event === 'feature_used')) expect(typeof e.properties.feature).toBe('string')
  })

  it('puts more traffic on weekdays and in daytime UTC', () => {
    const { events } = full()
    let weekday = 0
    let weekend = 0
    let daytime = 0
    for (const e of events) {
      const d = new Date(e.timestamp)
      const dow = d.getUTCDay()
      if (dow === 0 || dow === 6) weekend++
      else weekday++
      const hour = d.getUTCHours()
      if (hour >= 8 && hour < 20) daytime++
    }
    // 90 whole days ending on a Monday: 12 full weeks plus 6 days (Tue..Sun) -> 65 weekdays, 25 weekend days.
    expect(weekday / 65).toBeGreaterThan(1.3 * (weekend / 25))
    expect(daytime / events.length).toBeGreaterThan(0.6) // 12 of 24 hours
  })
})

describe('generateSampleData: persons, sessions, groups', () => {
  it('gives identified persons several distinct ids, merged by $identify', () => {
    const { events } = small()
    const personOf = personsOf(events)
    const idsByPerson = groupBy(new Set(events.map((e) => e.distinctId)), personOf)
    for (const id of new Set(events.map((e) => e.distinctId))) expect(id).toMatch(/^(anon-[0-9a-f]{16}|user-\d+)$/)
    const identified = [...idsByPerson.values()].filter((ids) => ids.some((id) => id.startsWith('user-')))
    expect(idsByPerson.size).toBeGreaterThan(400) // nearly all 500 people show up
    expect(identified.length / idsByPerson.size).toBeGreaterThan(0.3) // "about 40% identify"
    expect(identified.length / idsByPerson.size).toBeLessThan(0.5)
    for (const ids of identified) expect(ids.filter((id) => id.startsWith('user-'))).toHaveLength(1)
    const maxIds = Math.max(...[...idsByPerson.values()].map((ids) => ids.length))
    expect(maxIds).toBeGreaterThanOrEqual(3) // a second device
    expect(identified.filter((ids) => ids.length >= 3).length).toBeGreaterThan(5)
  })

  it('stops using an anonymous id once it is identified, and sets person properties on signup', () => {
    const { events } = small()
    const identifiedAt = new Map<string, number>()
    const firstIdentify = new Map<string, SampleEvent>()
    for (const e of events) {
      if (e.event !== '$identify') continue
      identifiedAt.set(e.properties.$anon_distinct_id as string, ms(e))
      if (!firstIdentify.has(e.distinctId)) firstIdentify.set(e.distinctId, e)
    }
    for (const e of events) {
      const at = identifiedAt.get(e.distinctId)
      if (at !== undefined) expect(ms(e)).toBeLessThanOrEqual(at)
    }
    expect(firstIdentify.size).toBeGreaterThan(0)
    for (const e of firstIdentify.values()) {
      const set = e.properties.$set as Record<string, unknown>
      expect(set.email).toMatch(/^[^@\s]+@[a-z0-9.-]+$/)
      expect(typeof set.name).toBe('string')
      expect(['free', 'starter', 'pro', 'enterprise']).toContain(set.plan)
      expect((e.properties.$set_once as Record<string, unknown>).first_seen_country).toMatch(/^[A-Z]{2}$/)
    }
  })

  it('has a heavy-tailed number of events per person', () => {
    const { events } = full()
    const personOf = personsOf(events)
    const perPerson = [...groupBy(events, (e) => personOf(e.distinctId)).values()].map((list) => list.length)
    perPerson.sort((a, b) => b - a)
    const median = perPerson[Math.floor(perPerson.length / 2)] as number
    expect(median).toBeGreaterThanOrEqual(6) // "median ~10"
    expect(median).toBeLessThanOrEqual(15)
    const top = perPerson.slice(0, Math.ceil(perPerson.length / 100)).reduce((a, b) => a + b, 0)
    expect(top / events.length).toBeGreaterThan(0.2) // the top 1% hold a large share (20x their head count)
  })

  it('splits activity into sessions after 30 minutes idle', () => {
    const { events } = small()
    const personOf = personsOf(events)
    const sessions = groupBy(events, (e) => String(e.properties.$session_id))
    expect(sessions.has('undefined')).toBe(false)
    for (const [id, list] of sessions) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
      expect(new Set(list.map((e) => personOf(e.distinctId))).size).toBe(1)
      for (let i = 1; i < list.length; i++) {
        expect(ms(list[i] as SampleEvent) - ms(list[i - 1] as SampleEvent)).toBeLessThan(30 * MINUTE)
      }
    }
    const mean = events.length / sessions.size
    expect(mean).toBeGreaterThan(2) // "several events"
    expect(mean).toBeLessThan(30)
    // A person's consecutive sessions are separated by 30+ minutes without events.
    for (const list of groupBy(events, (e) => personOf(e.distinctId)).values()) {
      for (let i = 1; i < list.length; i++) {
        const a = list[i - 1] as SampleEvent
        const b = list[i] as SampleEvent
        if (a.properties.$session_id !== b.properties.$session_id) expect(ms(b) - ms(a)).toBeGreaterThanOrEqual(30 * MINUTE)
      }
    }
  })

  it('attaches companies to identified users and identifies each company once', () => {
    const { events } = small()
    const used = new Set<string>()
    for (const e of events) {
      const groups = e.properties.$groups as Record<string, string> | undefined
      if (groups === undefined) continue
      expect(e.distinctId).toMatch(/^user-/)
      expect(groups.company).toMatch(/^company-\d+$/)
      used.add(groups.company as string)
    }
    const identifies = events.filter((e) => e.event === '$groupidentify')
    expect(used.size).toBeGreaterThan(1)
    expect(new Set(identifies.map((e) => e.properties.$group_key))).toEqual(used)
    expect(identifies).toHaveLength(used.size)
    for (const e of identifies) {
      expect(e.properties.$group_type).toBe('company')
      const set = e.properties.$group_set as Record<string, unknown>
      expect(typeof set.name).toBe('string')
      expect(typeof set.industry).toBe('string')
      expect(Number.isInteger(set.seats)).toBe(true)
    }
  })
})

describe('generateSampleData: signup funnel', () => {
  it('loses people at every step, in order', () => {
    const { events } = full()
    const personOf = personsOf(events)
    const steps: readonly ((e: SampleEvent) => boolean)[] = [
      (e) => e.event === '$pageview' && e.properties.$pathname === '/signup',
      (e) => e.event === 'signup_started',
      (e) => e.event === 'signup',
      (e) => e.event === 'onboarding_completed',
    ]
    const firstAt = steps.map(() => new Map<string, number>())
    for (const e of events) {
      steps.forEach((matches, i) => {
        const person = personOf(e.distinctId)
        if (matches(e) && !(firstAt[i] as Map<string, number>).has(person)) (firstAt[i] as Map<string, number>).set(person, ms(e))
      })
    }
    const counts = firstAt.map((m) => m.size)
    // Persons doing each step at all (in any order): strictly fewer at each step.
    for (let i = 1; i < counts.length; i++) expect(counts[i] as number).toBeLessThan(counts[i - 1] as number)
    // And whoever did a step had done the previous one before.
    for (let i = 1; i < steps.length; i++) {
      for (const [person, at] of firstAt[i] as Map<string, number>) {
        const before = (firstAt[i - 1] as Map<string, number>).get(person)
        expect(before).toBeDefined()
        expect(before as number).toBeLessThanOrEqual(at)
      }
    }
    const conversion = (counts[3] as number) / (counts[0] as number)
    expect(conversion).toBeGreaterThan(0.1)
    expect(conversion).toBeLessThan(0.9)
    // signup is one per identified person: about 40% of the 5,000.
    expect(counts[2] as number).toBeGreaterThan(0.3 * 5_000)
    expect(counts[2] as number).toBeLessThan(0.5 * 5_000)
    expect(events.filter((e) => e.event === 'signup')).toHaveLength(counts[2] as number)
  })
})
