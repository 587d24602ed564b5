import { describe, expect } from 'vitest'
import { createSightline } from '@sightline/core'
import { conformanceCase } from './case.js'
import { count, NOW, openEngine, type Engine } from './harness.js'
import type { ConformanceTarget } from './target.js'

const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v)

async function personOf(e: Engine, distinctId: string): Promise<string | undefined> {
  const rows = await e.db.raw<{ person_uuid: string }>('select person_uuid from person_distinct_ids where project_id = $1 and distinct_id = $2', [e.projectId, distinctId])
  return rows[0]?.person_uuid
}

async function personRow(e: Engine, uuid: string) {
  const [row] = await e.db.raw<Record<string, unknown>>(`select properties, is_identified, ${e.db.epochMicros('created_at')} as created_us from persons where uuid = $1`, [uuid])
  return row && { properties: json(row.properties), isIdentified: row.is_identified, createdUs: Number(row.created_us) }
}

const U1 = '0190f5a0-0000-7000-8000-000000000101'
const at = (minute: number) => `2026-02-01T10:${String(minute).padStart(2, '0')}:00Z`
const micros = (minute: number) => (1769940000 + minute * 60) * 1_000_000 // 2026-02-01T10:00:00Z = 1769940000 s

export function personCases(target: ConformanceTarget): void {
  describe('persons', () => {
    for (const split of [false, true]) {
      conformanceCase(target, `$set, $set_once, $unset and automatic properties apply in order${split ? ' across batches' : ''}`, async () => {
        const e = await openEngine(target)
        try {
          const events = [
            { event: 'pv', distinctId: 'a', timestamp: at(1), uuid: U1, properties: { $set: { plan: 'free', name: 'A' }, $set_once: { first: 'x' } } },
            { event: 'pv', distinctId: 'a', timestamp: at(2), properties: { $set: { plan: 'pro' }, $set_once: { first: 'y', other: 1 }, $unset: ['name'] } },
            { event: 'pv', distinctId: 'a', timestamp: at(3), properties: { $browser: 'Chrome', $current_url: 'https://a.io/' } },
            { event: 'pv', distinctId: 'a', timestamp: at(4), properties: { $browser: 'Safari', $set: { $browser: 'Set wins' } } },
          ]
          if (split) {
            await e.sightline.capture(e.projectId, events.slice(0, 2))
            await e.sightline.capture(e.projectId, events.slice(2))
          } else {
            await e.sightline.capture(e.projectId, events)
          }
          expect(await count(e.db, 'persons')).toBe(1)
          const person = await personRow(e, (await personOf(e, 'a'))!)
          expect(person).toEqual({
            properties: {
              first: 'x',
              plan: 'pro',
              other: 1,
              $creator_event_uuid: U1,
              $browser: 'Set wins',
              $initial_browser: 'Chrome',
              $current_url: 'https://a.io/',
              $initial_current_url: 'https://a.io/',
            },
            isIdentified: false,
            createdUs: micros(1),
          })
          expect((await e.sightline.persons.get(e.projectId, 'a'))?.properties.plan).toBe('pro')
        } finally {
          await e.close()
        }
      })
    }

    conformanceCase(target, '$identify merges the anonymous person into the identified one, and past events follow', async () => {
      const e = await openEngine(target)
      try {
        await e.sightline.capture(e.projectId, [
          { event: 'pv', distinctId: 'anon-1', timestamp: at(1), properties: { $set: { a_only: 1, shared: 'anon' } } },
          { event: 'pv', distinctId: 'user-1', timestamp: at(2), properties: { $set: { u_only: 2, shared: 'user' } } },
        ])
        const userPerson = (await personOf(e, 'user-1'))!
        const anonPerson = (await personOf(e, 'anon-1'))!
        expect(userPerson).not.toBe(anonPerson)
        const r = await e.sightline.capture(e.projectId, [
          { event: '$identify', distinctId: 'user-1', timestamp: at(3), properties: { $anon_distinct_id: 'anon-1', $set: { email: 'u@acme.io' } } },
        ])
        expect(r.warnings).toEqual([])
        expect(await personOf(e, 'anon-1')).toBe(userPerson)
        expect(await count(e.db, 'persons')).toBe(1)
        expect(await personRow(e, userPerson)).toEqual({
          properties: expect.objectContaining({ a_only: 1, u_only: 2, shared: 'user', email: 'u@acme.io' }),
          isIdentified: true,
          createdUs: micros(1),
        })
        // A second device: a new anonymous id identifies to the same user.
        await e.sightline.capture(e.projectId, [
          { event: 'pv', distinctId: 'anon-2', timestamp: at(5), properties: { $set: { device: 2 } } },
          { event: '$identify', distinctId: 'user-1', timestamp: at(6), properties: { $anon_distinct_id: 'anon-2' } },
        ])
        expect(await personOf(e, 'anon-2')).toBe(userPerson)
        expect((await e.sightline.persons.get(e.projectId, 'anon-2'))?.distinctIds).toEqual(['anon-1', 'anon-2', 'user-1'])
        // Persons are resolved at query time: every past event now belongs to one person.
        const owners = await e.db.raw<{ person_uuid: string }>(
          'select distinct pdi.person_uuid from events e join person_distinct_ids pdi on pdi.project_id = e.project_id and pdi.distinct_id = e.distinct_id',
        )
        expect(owners).toEqual([{ person_uuid: userPerson }])
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'an identified person is not merged by $identify, but is by $merge_dangerously', async () => {
      const e = await openEngine(target)
      try {
        await e.sightline.capture(e.projectId, [
          { event: '$identify', distinctId: 'user-1', timestamp: at(1), properties: { $anon_distinct_id: 'anon-1' } },
          { event: 'pv', distinctId: 'user-2', timestamp: at(2) },
        ])
        const p1 = (await personOf(e, 'user-1'))!
        const p2 = (await personOf(e, 'user-2'))!
        const refused = await e.sightline.capture(e.projectId, [
          { event: '$identify', distinctId: 'user-2', timestamp: at(3), properties: { $anon_distinct_id: 'user-1', $set: { seen: true } } },
        ])
        expect(refused.warnings).toEqual([expect.objectContaining({ index: 0, type: 'cannot_merge_already_identified' })])
        expect(await personOf(e, 'user-1')).toBe(p1)
        expect(await count(e.db, 'persons')).toBe(2)
        expect(await personRow(e, p2)).toMatchObject({ isIdentified: true, properties: { seen: true } })
        await e.sightline.capture(e.projectId, [{ event: '$merge_dangerously', distinctId: 'user-2', timestamp: at(4), properties: { alias: 'user-1' } }])
        expect(await count(e.db, 'persons')).toBe(1)
        for (const id of ['user-1', 'anon-1', 'user-2']) expect(await personOf(e, id)).toBe(p2)
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'identify and alias when one side or neither has a person; illegal ids are never merged', async () => {
      const e = await openEngine(target)
      try {
        const r = await e.sightline.capture(e.projectId, [
          { event: '$identify', distinctId: 'u-9', timestamp: at(1), properties: { $anon_distinct_id: 'anon-9', $set: { x: 1 } } },
          { event: 'pv', distinctId: 'anon-8', timestamp: at(2) },
          { event: '$identify', distinctId: 'u-8', timestamp: at(3), properties: { $anon_distinct_id: 'anon-8' } },
          { event: '$create_alias', distinctId: 'u-8', timestamp: at(4), properties: { alias: 'legacy-8' } },
          { event: '$identify', distinctId: 'u-7', timestamp: at(5), properties: { $anon_distinct_id: 'null' } },
          { event: '$identify', distinctId: 'u-6', timestamp: at(6), properties: { $anon_distinct_id: 'Anonymous' } },
        ])
        expect(r.warnings.map((w) => [w.index, w.type])).toEqual([
          [4, 'cannot_merge_with_illegal_distinct_id'],
          [5, 'cannot_merge_with_illegal_distinct_id'],
        ])
        const p9 = (await personOf(e, 'u-9'))!
        expect(await personOf(e, 'anon-9')).toBe(p9)
        expect(await personRow(e, p9)).toMatchObject({ isIdentified: true, properties: { x: 1 }, createdUs: micros(1) })
        const p8 = (await personOf(e, 'anon-8'))!
        expect(await personOf(e, 'u-8')).toBe(p8)
        expect(await personOf(e, 'legacy-8')).toBe(p8)
        expect(await personOf(e, 'null')).toBeUndefined()
        expect(await personOf(e, 'Anonymous')).toBeUndefined()
        expect(await personRow(e, (await personOf(e, 'u-7'))!)).toMatchObject({ isIdentified: false })
        expect(await count(e.db, 'persons')).toBe(4) // u-9, anon-8, u-7, u-6
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'personless events store no person and drop person updates', async () => {
      const e = await openEngine(target)
      try {
        const r = await e.sightline.capture(e.projectId, [
          { event: 'pv', distinctId: 'ghost', properties: { $process_person_profile: false, $set: { a: 1 }, keep: true } },
          { event: '$identify', distinctId: 'ghost', properties: { $process_person_profile: false, $anon_distinct_id: 'x' } },
        ])
        expect(r).toMatchObject({ stored: 1, duplicates: 0, warnings: [expect.objectContaining({ index: 1, type: 'invalid_event_when_process_person_profile_is_false' })] })
        expect(await count(e.db, 'persons')).toBe(0)
        const [row] = await e.db.raw<{ properties: unknown }>('select properties from events')
        expect(json(row!.properties)).toEqual({ $process_person_profile: false, keep: true })
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'persons.upsert imports a person and merges the ids it names', async () => {
      const e = await openEngine(target)
      try {
        const person = await e.sightline.persons.upsert(e.projectId, { distinctIds: ['host-1', 'anon-h'], properties: { plan: 'pro' }, createdAt: '2025-01-01T00:00:00Z' })
        expect(person).toMatchObject({ distinctIds: ['anon-h', 'host-1'], properties: { plan: 'pro' }, isIdentified: true, createdAt: '2025-01-01T00:00:00.000000Z' })
        await e.sightline.capture(e.projectId, [{ event: 'pv', distinctId: 'anon-h' }, { event: 'pv', distinctId: 'other' }])
        expect(await count(e.db, 'persons')).toBe(2)
        const merged = await e.sightline.persons.upsert(e.projectId, { distinctIds: ['host-1', 'other'], properties: { seats: 3 } })
        expect(merged.uuid).toBe(person.uuid)
        expect(merged.distinctIds).toEqual(['anon-h', 'host-1', 'other'])
        expect(merged.properties).toMatchObject({ plan: 'pro', seats: 3 })
        expect(await count(e.db, 'persons')).toBe(1)
        expect(await e.sightline.persons.get(e.projectId, 'nobody')).toBeNull()
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'two engines writing one database at once lose no person and no update', async () => {
      const db = await target.fresh()
      const [a, b] = [await createSightline({ storage: db.storage(), clock: () => NOW }), await createSightline({ storage: db.storage(), clock: () => NOW })]
      try {
        const org = await a.organizations.create({ name: 'Shared' })
        const project = await a.projects.create({ organizationId: org.id, name: 'P' })
        // Each batch creates new persons that the other engine's batches create too, and sets its own key on one shared person.
        const batch = (i: number) => [
          { event: 'pv', distinctId: 'shared', properties: { $set: { [`k${i}`]: i } } },
          { event: 'pv', distinctId: `new-${i % 4}` },
          { event: 'pv', distinctId: `new-${(i + 1) % 4}` },
        ]
        const rounds = 12
        await Promise.all(Array.from({ length: rounds }, (_, i) => (i % 2 === 0 ? a : b).capture(project.id, batch(i))))
        const persons = await db.raw<{ n: number }>('select count(*) as n from persons')
        expect(Number(persons[0]!.n)).toBe(5) // shared, new-0 .. new-3
        const shared = await a.persons.get(project.id, 'shared')
        const { $creator_event_uuid, ...keys } = shared!.properties
        expect(typeof $creator_event_uuid).toBe('string')
        expect(keys).toEqual(Object.fromEntries(Array.from({ length: rounds }, (_, i) => [`k${i}`, i])))
        expect(Number((await db.raw<{ n: number }>('select count(*) as n from events'))[0]!.n)).toBe(3 * rounds)
      } finally {
        await Promise.all([a.close(), b.close()])
        await db.dispose()
      }
    }, 60_000)
  })
}
