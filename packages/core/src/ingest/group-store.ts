import type { Kysely } from 'kysely'
import type { Properties } from '../model/json.js'
import type { SightlineDatabase, StorageCapabilities } from '../storage.js'
import { formatTimestamp, parseTimestamp, type EpochMicros } from '../time/timestamp.js'
import type { ChangedGroup } from '../db/person-row-changes.js'

/** PostHog's MAX_GROUP_TYPES_PER_TEAM. */
export const MAX_GROUP_TYPES = 5

interface GroupState {
  properties: Properties
  createdAt: EpochMicros
  version: number
  isNew: boolean
  changed: boolean
}

/**
 * Group types and groups touched by one write. Group type indexes are given
 * first come, first served (the lowest free index, 0..4); a sixth type is
 * ignored, as PostHog does. Groups are created and updated by `$groupidentify`
 * (`$group_set` is set-only) or by `groups.upsert`.
 */
export class GroupStore {
  readonly #db: Kysely<SightlineDatabase>
  readonly #projectId: number
  #types: Map<string, number> | undefined
  readonly #newTypes: Array<{ type: string; index: number }> = []
  readonly #groups = new Map<string, GroupState>()
  /** Group keys whose stored rows (of any type) were loaded by `preload`: absent means new. */
  readonly #preloaded = new Set<string>()

  readonly #rowLocks: boolean
  #changes: ChangedGroup[] = []

  constructor(db: Kysely<SightlineDatabase>, projectId: number, capabilities: StorageCapabilities) {
    this.#db = db
    this.#projectId = projectId
    this.#rowLocks = capabilities.rowLocks
  }

  async #loadTypes(): Promise<Map<string, number>> {
    if (!this.#types) {
      const rows = await this.#db
        .selectFrom('group_types')
        .select(['group_type', 'group_type_index'])
        .where('project_id', '=', this.#projectId)
        .execute()
      this.#types = new Map(rows.map((r) => [r.group_type, r.group_type_index]))
    }
    return this.#types
  }

  /**
   * The index of a group type, creating it if there is room. Null when the
   * project already has five types, or when `wanted` is taken by another type.
   */
  async typeIndex(groupType: string, wanted?: number): Promise<number | null> {
    const types = await this.#loadTypes()
    const known = types.get(groupType)
    if (known !== undefined) return wanted === undefined || wanted === known ? known : null
    const used = new Set(types.values())
    let index = wanted
    if (index === undefined) {
      index = 0
      while (used.has(index)) index++
    } else if (used.has(index)) {
      return null
    }
    if (index >= MAX_GROUP_TYPES) return null
    types.set(groupType, index)
    this.#newTypes.push({ type: groupType, index })
    return index
  }

  /** Loads the stored groups with these keys in one query, so `set` need not ask per group. */
  async preload(groupKeys: Iterable<string>): Promise<void> {
    const keys = [...new Set(groupKeys)].filter((k) => !this.#preloaded.has(k))
    for (let i = 0; i < keys.length; i += 1000) {
      const part = keys.slice(i, i + 1000)
      let query = this.#db
        .selectFrom('groups')
        .select(['group_type_index', 'group_key', 'properties', 'created_at', 'version'])
        .where('project_id', '=', this.#projectId)
        .where('group_key', 'in', part)
      if (this.#rowLocks) query = query.forUpdate()
      const rows = await query.execute()
      for (const row of rows) {
        this.#groups.set(`${row.group_type_index}\u0000${row.group_key}`, {
          properties: row.properties,
          createdAt: parseTimestamp(row.created_at)!,
          version: row.version,
          isNew: false,
          changed: false,
        })
      }
      for (const k of part) this.#preloaded.add(k)
    }
  }

  /** `$set`s properties on a group, creating it at `at` if it does not exist. */
  async set(groupTypeIndex: number, groupKey: string, properties: Properties, at: EpochMicros): Promise<void> {
    const key = `${groupTypeIndex}\u0000${groupKey}`
    let group = this.#groups.get(key)
    if (!group && this.#preloaded.has(groupKey)) {
      group = { properties: {}, createdAt: at, version: 0, isNew: true, changed: true }
      this.#groups.set(key, group)
    }
    if (!group) {
      let query = this.#db
        .selectFrom('groups')
        .select(['properties', 'created_at', 'version'])
        .where('project_id', '=', this.#projectId)
        .where('group_type_index', '=', groupTypeIndex)
        .where('group_key', '=', groupKey)
      if (this.#rowLocks) query = query.forUpdate()
      const row = await query.executeTakeFirst()
      group = row
        ? { properties: row.properties, createdAt: parseTimestamp(row.created_at)!, version: row.version, isNew: false, changed: false }
        : { properties: {}, createdAt: at, version: 0, isNew: true, changed: true }
      this.#groups.set(key, group)
    }
    if (at < group.createdAt) {
      group.createdAt = at
      group.changed = true
    }
    for (const [k, v] of Object.entries(properties)) {
      if (!(k in group.properties) || JSON.stringify(group.properties[k]) !== JSON.stringify(v)) {
        group.properties = { ...group.properties, [k]: v }
        group.changed = true
      }
    }
  }

  /** The groups the last `flush` wrote, with the versions written. */
  changes(): ReadonlyArray<ChangedGroup> {
    return this.#changes
  }

  async flush(): Promise<void> {
    this.#changes = []
    if (this.#newTypes.length > 0) {
      await this.#db
        .insertInto('group_types')
        .values(this.#newTypes.map((t) => ({ project_id: this.#projectId, group_type: t.type, group_type_index: t.index, name_singular: null, name_plural: null })))
        .execute()
    }
    const inserts: Array<{ project_id: number; group_type_index: number; group_key: string; properties: string; created_at: string; version: number }> = []
    for (const [key, g] of this.#groups) {
      if (!g.changed) continue
      const sep = key.indexOf('\u0000')
      const groupTypeIndex = Number(key.slice(0, sep))
      const groupKey = key.slice(sep + 1)
      const properties = JSON.stringify(g.properties)
      const createdAt = formatTimestamp(g.createdAt)
      this.#changes.push({ group_type_index: groupTypeIndex, group_key: groupKey, properties, created_at: createdAt, version: g.isNew ? 0 : g.version + 1, deleted: false })
      if (g.isNew) {
        inserts.push({ project_id: this.#projectId, group_type_index: groupTypeIndex, group_key: groupKey, properties, created_at: createdAt, version: 0 })
      } else {
        await this.#db
          .updateTable('groups')
          .set({ properties, created_at: createdAt, version: g.version + 1 })
          .where('project_id', '=', this.#projectId)
          .where('group_type_index', '=', groupTypeIndex)
          .where('group_key', '=', groupKey)
          .execute()
      }
    }
    for (let i = 0; i < inserts.length; i += 500) {
      await this.#db.insertInto('groups').values(inserts.slice(i, i + 500)).execute()
    }
  }
}
