import { describe, expect } from 'vitest'
import { ClosedError, createSightline, NotFoundError, StorageError, ValidationError, type StorageAdapter } from '@sightline/core'
import { conformanceCase } from './case.js'
import { count, NOW, NOW_MICROS, openEngine } from './harness.js'
import type { ConformanceTarget } from './target.js'

const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v)
const HOUR = 3600 * 1_000_000

export function captureCases(target: ConformanceTarget): void {
  describe('capture', () => {
    conformanceCase(target, 'stores each event exactly, microseconds included', async () => {
      const e = await openEngine(target)
      try {
        const props = { $browser: 'Firefox', nested: { list: [1, 'two', null, true] }, quote: "it's \"quoted\" -- ; drop table events", emoji: 'Grüße 🎉', $session_id: 's-1' }
        const result = await e.sightline.capture(e.projectId, [
          { event: '$pageview', distinctId: 'ada', timestamp: '2026-02-27T10:00:00.123456Z', properties: props, uuid: '0190f5a0-0000-7000-8000-000000000001' },
          { event: 'signup', distinctId: 'bob', timestamp: '2026-02-27T11:30:00+01:00' },
        ])
        expect(result).toEqual({ stored: 2, duplicates: 0, warnings: [] })
        const rows = await e.db.raw<Record<string, unknown>>(
          `select uuid, event, distinct_id, ${e.db.epochMicros('timestamp')} as us, properties, session_id, group_0, project_id from events order by ${e.db.epochMicros('timestamp')}`,
        )
        expect(rows).toHaveLength(2)
        expect(rows[0]).toMatchObject({ uuid: '0190f5a0-0000-7000-8000-000000000001', event: '$pageview', distinct_id: 'ada', session_id: 's-1', group_0: '', project_id: e.projectId })
        // 2026-02-27T10:00:00Z = 1772186400 s since the epoch.
        expect(Number(rows[0]!.us)).toBe(1772186400_123456)
        expect(json(rows[0]!.properties)).toEqual(props)
        expect(Number(rows[1]!.us)).toBe(1772188200_000000) // 11:30+01:00 is 10:30Z
        expect(rows[1]!.session_id).toBeNull()
        expect(String(rows[1]!.uuid)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
        const listed = await e.sightline.events.list(e.projectId)
        expect(listed.map((x) => x.event)).toEqual(['signup', '$pageview'])
        expect(listed[1]).toMatchObject({ timestamp: '2026-02-27T10:00:00.123456Z', properties: props, sessionId: 's-1', groups: [null, null, null, null, null] })
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'event time: the clock, sent_at skew, offset and the 23-hour rule', async () => {
      const e = await openEngine(target)
      try {
        const result = await e.sightline.capture(e.projectId, [
          { event: 'no-time', distinctId: 'a' },
          // The client clock runs one hour fast: it stamped 13:00 and sent at 13:05 while the server's now is 12:00.
          { event: 'skewed', distinctId: 'a', timestamp: '2026-03-01T13:00:00Z', sentAt: '2026-03-01T13:05:00Z' },
          { event: 'ignored-sent-at', distinctId: 'a', timestamp: '2026-03-01T13:00:00Z', sentAt: '2026-03-01T13:05:00Z', properties: { $ignore_sent_at: true } },
          { event: 'offset', distinctId: 'a', timestamp: '2020-01-01T00:00:00Z', offset: 90_000 },
          { event: 'future', distinctId: 'a', timestamp: '2026-03-02T12:00:01Z' },
          { event: 'near-future', distinctId: 'a', timestamp: '2026-03-02T10:00:00Z' },
        ])
        expect(result.stored).toBe(6)
        expect(result.warnings).toEqual([expect.objectContaining({ index: 4, type: 'event_timestamp_in_future' })])
        const rows = await e.db.raw<{ event: string; us: number }>(`select event, ${e.db.epochMicros('timestamp')} as us from events`)
        const at = Object.fromEntries(rows.map((r) => [r.event, Number(r.us)]))
        expect(at['no-time']).toBe(NOW_MICROS)
        expect(at['skewed']).toBe(NOW_MICROS - 5 * 60 * 1_000_000)
        expect(at['ignored-sent-at']).toBe(NOW_MICROS + HOUR)
        expect(at['offset']).toBe(NOW_MICROS - 90 * 1_000_000)
        expect(at['future']).toBe(NOW_MICROS)
        expect(at['near-future']).toBe(NOW_MICROS + 22 * HOUR)
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'an event uuid seen twice is stored once', async () => {
      const e = await openEngine(target)
      try {
        const uuid = '0190f5a0-0000-7000-8000-0000000000aa'
        const first = await e.sightline.capture(e.projectId, [
          { event: 'a', distinctId: 'x', uuid },
          { event: 'a-again', distinctId: 'x', uuid: uuid.toUpperCase() },
        ])
        expect(first).toMatchObject({ stored: 1, duplicates: 1 })
        const second = await e.sightline.capture(e.projectId, [{ event: 'a', distinctId: 'x', uuid }, { event: 'b', distinctId: 'x' }])
        expect(second).toMatchObject({ stored: 1, duplicates: 1 })
        expect(await count(e.db, 'events')).toBe(2)
        expect(await count(e.db, 'events', 'event = $1', ['a'])).toBe(1)
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'a batch with one bad event is refused whole, naming index and field', async () => {
      const e = await openEngine(target)
      try {
        const good = { event: 'ok', distinctId: 'x', properties: { $set: { plan: 'pro' } } }
        const cases: Array<[unknown[], Array<string | number>]> = [
          [[good, { event: '', distinctId: 'x' }, good], [1, 'event']],
          [[good, good, { event: 'e', distinctId: 42 }], [2, 'distinctId']],
          [[good, { event: 'e', distinctId: 'x', timestamp: 'yesterday-ish' }], [1, 'timestamp']],
          [[good, { event: 'e', distinctId: 'x', properties: { n: Number.NaN } }], [1, 'properties', 'n']],
          [[{ event: 'e', distinctId: 'x', uuid: 'not-a-uuid' }], [0, 'uuid']],
          [[good, 'not an event'], [1]],
        ]
        for (const [batch, path] of cases) {
          const error = await e.sightline.capture(e.projectId, batch as never).catch((x) => x)
          expect(error).toBeInstanceOf(ValidationError)
          expect(error.issues[0].path).toEqual(path)
          expect(error.message).toContain(`[${path[0]}]`)
        }
        await expect(e.sightline.capture(e.projectId, 'nope' as never)).rejects.toBeInstanceOf(ValidationError)
        for (const table of ['events', 'persons', 'person_distinct_ids', 'event_definitions', 'property_definitions']) {
          expect(await count(e.db, table)).toBe(0)
        }
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'an event without a name or with a blank distinct id is refused, naming index and field; nothing is stored', async () => {
      const e = await openEngine(target)
      try {
        const good = { event: 'ok', distinctId: 'x' }
        const cases: Array<[unknown, Array<string | number>]> = [
          [{ distinctId: 'x' }, [2, 'event']],
          [{ event: null, distinctId: 'x' }, [2, 'event']],
          [{ event: '', distinctId: 'x' }, [2, 'event']],
          [{ event: false, distinctId: 'x' }, [2, 'event']],
          [{ event: 'e', distinctId: '' }, [2, 'distinctId']],
          [{ event: 'e', distinctId: '  ' }, [2, 'distinctId']],
          [{ event: 'e', distinctId: '\t\n\u00a0\u3000' }, [2, 'distinctId']],
        ]
        for (const [bad, path] of cases) {
          const error = await e.sightline.capture(e.projectId, [good, good, bad] as never).catch((x) => x)
          expect(error, JSON.stringify(bad)).toBeInstanceOf(ValidationError)
          expect(error.issues[0].path).toEqual(path)
        }
        for (const table of ['events', 'persons', 'person_distinct_ids', 'event_definitions']) {
          expect(await count(e.db, table)).toBe(0)
        }
        // A distinct id with whitespace around other characters is kept as sent.
        expect((await e.sightline.capture(e.projectId, [{ event: 'ok', distinctId: ' a ' }])).stored).toBe(1)
        expect(await e.db.raw<{ distinct_id: string }>('select distinct_id from events')).toEqual([{ distinct_id: ' a ' }])
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'an unknown project is NotFoundError and stores nothing', async () => {
      const e = await openEngine(target)
      try {
        await expect(e.sightline.capture(e.projectId + 1000, [{ event: 'a', distinctId: 'x' }])).rejects.toBeInstanceOf(NotFoundError)
        expect(await count(e.db, 'events')).toBe(0)
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'a failure while writing stores nothing at all', async () => {
      const db = await target.fresh()
      const base = db.storage()
      const failing: StorageAdapter = {
        ...base,
        async open() {
          const driver = await base.open()
          return {
            ...driver,
            dialect: driver.dialect,
            close: () => driver.close(),
            insertEvents: async () => {
              throw new Error('disk full')
            },
          }
        },
      }
      const sightline = await createSightline({ storage: failing, clock: () => NOW })
      try {
        const org = await sightline.organizations.create({ name: 'A' })
        const project = await sightline.projects.create({ organizationId: org.id, name: 'P' })
        const error = await sightline
          .capture(project.id, [{ event: '$identify', distinctId: 'u', properties: { $anon_distinct_id: 'anon', $set: { a: 1 } } }, { event: '$groupidentify', distinctId: 'u', properties: { $group_type: 'company', $group_key: 'c', $group_set: { n: 1 } } }])
          .catch((x) => x)
        expect(error).toBeInstanceOf(StorageError)
        expect(error.message).toContain('disk full')
        for (const table of ['events', 'persons', 'person_distinct_ids', 'groups', 'group_types', 'event_definitions', 'property_definitions']) {
          expect(await count(db, table)).toBe(0)
        }
      } finally {
        await sightline.close()
        await db.dispose()
      }
    })

    conformanceCase(target, 'a closed engine refuses work with ClosedError; close is safe twice', async () => {
      const e = await openEngine(target)
      await e.sightline.close()
      await e.sightline.close()
      await expect(e.sightline.capture(e.projectId, [{ event: 'a', distinctId: 'x' }])).rejects.toBeInstanceOf(ClosedError)
      await expect(e.sightline.projects.get(e.projectId)).rejects.toBeInstanceOf(ClosedError)
      await e.db.dispose()
    })

    conformanceCase(target, 'events.list filters and pages newest first', async () => {
      const e = await openEngine(target)
      try {
        await e.sightline.capture(
          e.projectId,
          Array.from({ length: 10 }, (_, i) => ({ event: i % 2 ? 'odd' : 'even', distinctId: i < 5 ? 'a' : 'b', timestamp: `2026-02-${String(i + 1).padStart(2, '0')}T00:00:00Z` })),
        )
        const evens = await e.sightline.events.list(e.projectId, { event: 'even' })
        expect(evens.map((x) => x.timestamp.slice(0, 10))).toEqual(['2026-02-09', '2026-02-07', '2026-02-05', '2026-02-03', '2026-02-01'])
        const window = await e.sightline.events.list(e.projectId, { after: '2026-02-02T00:00:00Z', before: '2026-02-05T00:00:00Z', distinctId: 'a' })
        expect(window.map((x) => x.timestamp.slice(0, 10))).toEqual(['2026-02-04', '2026-02-03'])
        expect(await e.sightline.events.list(e.projectId, { limit: 3 })).toHaveLength(3)
        expect(await e.sightline.events.list(e.projectId, { distinctId: 'a\u0000', event: '\ud800' })).toEqual([])
        await expect(e.sightline.events.list(e.projectId, { after: 'soon' })).rejects.toBeInstanceOf(ValidationError)
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'stats.project counts what the project stores', async () => {
      const e = await openEngine(target)
      try {
        const empty = await e.sightline.stats.project(e.projectId)
        expect(empty).toEqual({ events: 0, persons: 0, identifiedPersons: 0, distinctIds: 0, groups: 0, firstEventAt: null, lastEventAt: null, topEvents: [] })
        await e.sightline.capture(e.projectId, [
          { event: 'pv', distinctId: 'a', timestamp: '2026-02-01T00:00:00Z' },
          { event: 'pv', distinctId: 'b', timestamp: '2026-02-03T00:00:00Z' },
          { event: 'click', distinctId: 'b', timestamp: '2026-02-02T00:00:00Z' },
          { event: '$identify', distinctId: 'u', timestamp: '2026-02-02T00:00:00Z', properties: { $anon_distinct_id: 'a' } },
          { event: '$groupidentify', distinctId: 'u', timestamp: '2026-02-02T00:00:00Z', properties: { $group_type: 'org', $group_key: 'o' } },
        ])
        // Persons: a+u (identified) and b; distinct ids a, b, u; one group.
        expect(await e.sightline.stats.project(e.projectId, { topEvents: 2 })).toEqual({
          events: 5,
          persons: 2,
          identifiedPersons: 1,
          distinctIds: 3,
          groups: 1,
          firstEventAt: '2026-02-01T00:00:00.000000Z',
          lastEventAt: '2026-02-03T00:00:00.000000Z',
          topEvents: [{ event: 'pv', count: 2 }, { event: '$groupidentify', count: 1 }],
        })
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'a database that fails under a running engine gives StorageError with the SQL, and stores nothing', async () => {
      const e = await openEngine(target)
      try {
        // The table vanishing under the engine stands for any failure after open (an outage, a DBA's mistake).
        await e.db.raw('drop table events')
        const error = await e.sightline.capture(e.projectId, [{ event: 'pv', distinctId: 'u', properties: { $set: { a: 1 } } }]).catch((x) => x)
        expect(error).toBeInstanceOf(StorageError)
        expect(error.cause).toBeDefined()
        expect(await count(e.db, 'persons')).toBe(0)
        expect(await count(e.db, 'event_definitions')).toBe(0)
        const listError = await e.sightline.events.list(e.projectId).catch((x) => x)
        expect(listError).toBeInstanceOf(StorageError)
        expect(listError.sql).toMatch(/from "events"/)
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'autocapture elements are stored as the elements chain, outside the properties', async () => {
      const e = await openEngine(target)
      try {
        // posthog-js's $elements: the clicked element first, then its ancestors.
        const elements = [
          { tag_name: 'a', $el_text: 'Sign up', classes: ['btn-primary', 'btn'], attr__class: 'btn-primary btn', attr__href: '/signup', nth_child: 2, nth_of_type: 1 },
          { tag_name: 'div', classes: ['hero'], attr__class: 'hero', nth_child: 1, nth_of_type: 1 },
          { tag_name: 'button', $el_text: 'Say "hi"', attr__id: 'x' },
        ]
        await e.sightline.capture(e.projectId, [
          { event: '$autocapture', distinctId: 'u', timestamp: '2026-02-27T10:00:01Z', properties: { $event_type: 'click', $elements: elements } },
          { event: '$autocapture', distinctId: 'u', timestamp: '2026-02-27T10:00:02Z', properties: { $elements_chain: 'span:text="sent"', $elements: elements } },
          { event: '$pageview', distinctId: 'u', timestamp: '2026-02-27T10:00:03Z', properties: { $elements_chain: 42 } },
        ])
        const rows = await e.db.raw<{ elements_chain: string; properties: unknown }>(
          `select elements_chain, properties from events order by ${e.db.epochMicros('timestamp')}`,
        )
        // Derived by hand from PostHog's elementsToString: classes sorted, attributes sorted by key, quotes escaped.
        const chain =
          'a.btn.btn-primary:attr__class="btn-primary btn"attr__href="/signup"href="/signup"nth-child="2"nth-of-type="1"text="Sign up";' +
          'div.hero:attr__class="hero"nth-child="1"nth-of-type="1";' +
          'button:attr__id="x"attr_id="x"nth-child="0"nth-of-type="0"text="Say \\"hi\\""'
        expect(rows.map((r) => r.elements_chain)).toEqual([chain, 'span:text="sent"', ''])
        expect(rows.map((r) => json(r.properties))).toEqual([{ $event_type: 'click' }, {}, {}])
        const listed = await e.sightline.events.list(e.projectId)
        expect(listed.map((x) => x.elementsChain)).toEqual(['', 'span:text="sent"', chain])
      } finally {
        await e.close()
      }
    })
  })
}
