import { describe, expect } from 'vitest'
import { ConflictError } from '@sightline/core'
import { conformanceCase } from './case.js'
import { count, openEngine } from './harness.js'
import type { ConformanceTarget } from './target.js'

const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v)

export function groupCases(target: ConformanceTarget): void {
  describe('groups', () => {
    conformanceCase(target, '$groupidentify sets group properties; $groups fills the group columns by type index', async () => {
      const e = await openEngine(target)
      try {
        await e.sightline.capture(e.projectId, [
          { event: '$groupidentify', distinctId: 'u', timestamp: '2026-02-01T00:00:00Z', properties: { $group_type: 'company', $group_key: 'acme', $group_set: { name: 'Acme', seats: 10 }, $set: { ignored: true } } },
          { event: 'pv', distinctId: 'u', timestamp: '2026-02-01T00:01:00Z', properties: { $groups: { project: 'p-1', company: 'acme' } } },
          { event: '$groupidentify', distinctId: 'u', timestamp: '2026-01-01T00:00:00Z', properties: { $group_type: 'company', $group_key: 'acme', $group_set: { seats: 12 } } },
        ])
        const types = await e.db.raw<{ group_type: string; group_type_index: number }>('select group_type, group_type_index from group_types order by group_type_index')
        expect(types).toEqual([
          { group_type: 'company', group_type_index: 0 },
          { group_type: 'project', group_type_index: 1 },
        ])
        const [group] = await e.db.raw<Record<string, unknown>>(`select properties, ${e.db.epochMicros('created_at')} as us from groups where group_key = 'acme'`)
        expect(json(group!.properties)).toEqual({ name: 'Acme', seats: 12 })
        expect(Number(group!.us)).toBe(Date.parse('2026-01-01T00:00:00Z') * 1000) // the earliest $groupidentify
        expect(await count(e.db, 'groups')).toBe(1) // $groups on events does not create groups
        const [pv] = await e.db.raw<Record<string, unknown>>("select group_0, group_1, group_2 from events where event = 'pv'")
        expect(pv).toEqual({ group_0: 'acme', group_1: 'p-1', group_2: '' })
        const person = await e.sightline.persons.get(e.projectId, 'u')
        expect(person?.properties).not.toHaveProperty('ignored')
        expect(await e.sightline.groups.get(e.projectId, 0, 'acme')).toMatchObject({ groupType: 'company', properties: { name: 'Acme', seats: 12 } })
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'a sixth group type is ignored, as in PostHog', async () => {
      const e = await openEngine(target)
      try {
        const groups = Object.fromEntries(['t0', 't1', 't2', 't3', 't4', 't5'].map((t) => [t, `${t}-key`]))
        await e.sightline.capture(e.projectId, [{ event: 'pv', distinctId: 'u', properties: { $groups: groups } }])
        expect((await e.sightline.groups.types(e.projectId)).map((t) => [t.groupType, t.groupTypeIndex])).toEqual([
          ['t0', 0], ['t1', 1], ['t2', 2], ['t3', 3], ['t4', 4],
        ])
        const [pv] = await e.db.raw<Record<string, unknown>>('select group_0, group_4 from events')
        expect(pv).toEqual({ group_0: 't0-key', group_4: 't4-key' })
        await expect(e.sightline.groups.upsert(e.projectId, { groupType: 't5', groupKey: 'k' })).rejects.toBeInstanceOf(ConflictError)
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'groups.upsert registers a type at a chosen index and sets properties', async () => {
      const e = await openEngine(target)
      try {
        const g = await e.sightline.groups.upsert(e.projectId, { groupTypeIndex: 3, groupType: 'team', groupKey: 'core', properties: { size: 4 } })
        expect(g).toMatchObject({ groupTypeIndex: 3, groupType: 'team', groupKey: 'core', properties: { size: 4 } })
        const again = await e.sightline.groups.upsert(e.projectId, { groupType: 'team', groupKey: 'core', properties: { lead: 'ada' } })
        expect(again.properties).toEqual({ size: 4, lead: 'ada' })
        await expect(e.sightline.groups.upsert(e.projectId, { groupTypeIndex: 3, groupType: 'other', groupKey: 'x' })).rejects.toBeInstanceOf(ConflictError)
        await e.sightline.capture(e.projectId, [{ event: 'pv', distinctId: 'u', properties: { $groups: { company: 'acme', team: 'core' } } }])
        const [pv] = await e.db.raw<Record<string, unknown>>('select group_0, group_3 from events')
        expect(pv).toEqual({ group_0: 'acme', group_3: 'core' }) // company takes the lowest free index
      } finally {
        await e.close()
      }
    })
  })
}
