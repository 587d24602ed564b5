import { sql, type Expression, type Kysely, type SqlBool } from 'kysely'
import type { Properties } from '../model/json.js'
import type { SightlineDatabase, SqlHooks, StorageCapabilities } from '../storage.js'
import { formatTimestamp, parseTimestamp, type EpochMicros } from '../time/timestamp.js'
import { chunk } from '../util/chunk.js'
import { personUuidFor } from '../util/uuidv5.js'
import { applyPersonPropertyUpdates, type PersonPropertyUpdates } from './person-property-updates.js'
import type { ChangedDistinctId, ChangedOverride, ChangedPerson, ChangedPersonless } from '../db/person-row-changes.js'

/** A person as the store holds it while a batch is processed. */
export interface PersonState {
  readonly uuid: string
  properties: Properties
  isIdentified: boolean
  createdAt: EpochMicros
  version: number
  /** Not yet in the database. */
  readonly isNew: boolean
  /** Merged into another person: to delete. */
  deleted: boolean
  /** A change worth writing happened (see FILTERED_PERSON_UPDATE_PROPERTIES). */
  significant: boolean
  /** Distinct ids of this person that the batch has seen. */
  readonly distinctIds: Set<string>
}

/** A distinct id with its person, as `load` reads them. */
interface PersonRow {
  readonly distinct_id: string
  readonly id: number
  readonly uuid: string
  readonly properties: Properties
  readonly is_identified: boolean
  readonly created_at: string
  readonly version: number
}

interface Original {
  readonly properties: Properties
  readonly isIdentified: boolean
  readonly createdAt: EpochMicros
}

/** Bind-parameter-friendly size of `IN (...)` lists. */
const IN_LIST = 1000
/** Distinct ids per list parameter (`SqlHooks.textInList`). */
const ID_LIST = 5000

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * `column in ('…', '…')` of person uuids as literals, which DuckDB answers
 * from the column's unique index (bound parameters: twice as slow). Each
 * value is checked to be a uuid's text, so nothing else reaches the SQL.
 */
function uuidIn(column: Expression<unknown>, uuids: ReadonlyArray<string>): Expression<SqlBool> {
  for (const uuid of uuids) if (!UUID_TEXT.test(uuid)) throw new Error(`not a uuid: ${JSON.stringify(uuid)}`)
  return sql<SqlBool>`${column} in (${sql.join(uuids.map((uuid) => sql.lit(uuid)))})`
}

/**
 * The persons touched by one write (a capture batch or a person upsert): loads
 * them in a few queries, changes them in memory in event order, and writes the
 * changes back in `flush`. Person identity follows PostHog: a distinct id maps
 * to one person; merging moves every distinct id of the source to the target.
 */
export class PersonStore {
  readonly #db: Kysely<SightlineDatabase>
  readonly #projectId: number
  readonly #byDistinctId = new Map<string, PersonState>()
  /** Persons loaded from the database, by uuid. */
  readonly #byUuid = new Map<string, PersonState>()
  readonly #originals = new Map<string, Original>()
  /** Distinct ids whose mapping row is new or changed. */
  readonly #mappingChanges = new Map<string, { isNew: boolean }>()
  /** Merges in the order they happened: `[source, target]` person uuids. */
  readonly #merges: Array<readonly [string, string]> = []
  /** Distinct ids of personless events of this write (`markPersonless`). */
  readonly #personless = new Set<string>()

  readonly #capabilities: StorageCapabilities

  readonly #hooks: SqlHooks

  /** Person ids (the table's sequence) by uuid: loaded, or returned by `flush`'s inserts. */
  readonly #ids = new Map<string, number>()
  /** Whether `flush` records the rows it changes (`changes`); else it reads nothing back. */
  readonly #recordChanges: boolean
  #changes: PersonStoreChanges = NO_CHANGES

  /**
   * The capabilities give the JSON column type (for the bulk update's casts) and whether rows can be
   * locked; the hooks spell the distinct-id lists of `load`. With `recordChanges`, `flush` also reads
   * back what it cannot know in memory (the ids of inserted persons, the distinct ids a merge moved),
   * for `changes`: for a driver that is told them (`StorageDriver.personRowsChanged`). Default false.
   */
  constructor(db: Kysely<SightlineDatabase>, projectId: number, capabilities: StorageCapabilities, hooks: SqlHooks, recordChanges = false) {
    this.#db = db
    this.#projectId = projectId
    this.#capabilities = capabilities
    this.#hooks = hooks
    this.#recordChanges = recordChanges
  }

  /** The rows the last `flush` changed, when the store records them (else none). */
  changes(): PersonStoreChanges {
    return this.#changes
  }

  /**
   * Loads the persons of these distinct ids, in order of distinct id.
   *
   * Where indexes serve joins (Postgres), one read per 5,000 ids joins each
   * distinct id to its person. Where they serve only lists of keys
   * (`indexesNeedKeyLists`, DuckDB), that join scanned every person's
   * properties for each batch (100 to 250 ms at 170,000 persons, growing
   * with the table), so two narrow reads replace it: the distinct ids' rows,
   * then their persons by uuid through the table's unique index.
   */
  async load(distinctIds: Iterable<string>): Promise<void> {
    // Sorted, so that concurrent writers lock rows in the same order and rarely deadlock.
    const wanted = [...new Set(distinctIds)].filter((id) => !this.#byDistinctId.has(id)).sort()
    if (wanted.length === 0) return
    const rows = this.#capabilities.indexesNeedKeyLists ? await this.#readByKeyLists(wanted) : await this.#readJoined(wanted)
    for (const row of rows) {
      let person = this.#byUuid.get(row.uuid)
      if (!person) {
        person = {
          uuid: row.uuid,
          properties: row.properties,
          isIdentified: row.is_identified,
          createdAt: parseTimestamp(row.created_at)!,
          version: row.version,
          isNew: false,
          deleted: false,
          significant: false,
          distinctIds: new Set(),
        }
        this.#byUuid.set(row.uuid, person)
        this.#ids.set(row.uuid, Number(row.id))
        this.#originals.set(row.uuid, { properties: row.properties, isIdentified: row.is_identified, createdAt: person.createdAt })
      }
      person.distinctIds.add(row.distinct_id)
      this.#byDistinctId.set(row.distinct_id, person)
    }
  }

  /** One round trip per 5,000 ids: each row a distinct id with its person. */
  async #readJoined(wanted: ReadonlyArray<string>): Promise<PersonRow[]> {
    const out: PersonRow[] = []
    for (const ids of chunk(wanted, ID_LIST)) {
      let query = this.#db
        .selectFrom('person_distinct_ids as pdi')
        .innerJoin('persons as p', (j) => j.onRef('p.uuid', '=', 'pdi.person_uuid').onRef('p.project_id', '=', 'pdi.project_id'))
        .select(['pdi.distinct_id', 'p.id', 'p.uuid', 'p.properties', 'p.is_identified', 'p.created_at', 'p.version'])
        .where('pdi.project_id', '=', this.#projectId)
        // One list parameter, not thousands: binding and planning each made the read several times slower.
        .where(() => this.#hooks.textInList(sql.ref('pdi.distinct_id'), ids) as Expression<SqlBool>)
      // Held until commit: another writer of these persons waits, then reads what this one wrote.
      if (this.#capabilities.rowLocks) query = query.forUpdate()
      out.push(...(await query.execute()))
    }
    return out
  }

  /** The distinct ids' rows (a list parameter per 5,000), then their persons by uuid (a list of constants per 1,000). */
  async #readByKeyLists(wanted: ReadonlyArray<string>): Promise<PersonRow[]> {
    const personOf = new Map<string, string>()
    for (const ids of chunk(wanted, ID_LIST)) {
      let query = this.#db
        .selectFrom('person_distinct_ids')
        .select(['distinct_id', 'person_uuid'])
        .where('project_id', '=', this.#projectId)
        .where(() => this.#hooks.textInList(sql.ref('distinct_id'), ids) as Expression<SqlBool>)
      // Held until commit: another writer of these distinct ids (a merge moving them) waits, then reads what this one wrote.
      if (this.#capabilities.rowLocks) query = query.forUpdate()
      for (const row of await query.execute()) personOf.set(row.distinct_id, row.person_uuid)
    }
    const persons = new Map<string, Omit<PersonRow, 'distinct_id'>>()
    for (const part of chunk([...new Set(personOf.values())].sort(), IN_LIST)) {
      let query = this.#db
        .selectFrom('persons')
        .select(['id', 'uuid', 'properties', 'is_identified', 'created_at', 'version'])
        .where('project_id', '=', this.#projectId)
        .where(uuidIn(sql.ref('uuid'), part))
      if (this.#capabilities.rowLocks) query = query.forUpdate()
      for (const row of await query.execute()) persons.set(row.uuid, row)
    }
    // A distinct id whose person row is missing has no person, as the inner join says.
    return [...personOf].flatMap(([distinct_id, uuid]) => {
      const person = persons.get(uuid)
      return person ? [{ ...person, distinct_id }] : []
    })
  }

  /**
   * Notes that an event of `distinctId` is stored without a person; if the
   * distinct id still has none when the write ends, `flush` records it as
   * personless, so that a person it gets later overrides those events.
   */
  markPersonless(distinctId: string): void {
    this.#personless.add(distinctId)
  }

  /** The person of a loaded distinct id, if it has one. */
  get(distinctId: string): PersonState | undefined {
    return this.#byDistinctId.get(distinctId)
  }

  /** Creates a person holding `distinctId` (which must have none). */
  create(distinctId: string, createdAt: EpochMicros, properties: Properties, isIdentified: boolean): PersonState {
    const person: PersonState = {
      uuid: personUuidFor(this.#projectId, distinctId),
      properties,
      isIdentified,
      createdAt,
      version: 0,
      isNew: true,
      deleted: false,
      significant: true,
      distinctIds: new Set(),
    }
    this.addDistinctId(person, distinctId)
    return person
  }

  /** Points `distinctId` (which has no person) at `person`. */
  addDistinctId(person: PersonState, distinctId: string): void {
    person.distinctIds.add(distinctId)
    this.#byDistinctId.set(distinctId, person)
    this.#mappingChanges.set(distinctId, { isNew: this.#mappingChanges.get(distinctId)?.isNew ?? true })
  }

  /**
   * Merges `source` into `target` (PostHog's mergePeople): the target keeps its
   * uuid and wins property conflicts, the earlier `created_at` is kept, the
   * result is identified, and every distinct id of the source moves over.
   */
  merge(target: PersonState, source: PersonState): void {
    if (target === source) return
    target.properties = { ...source.properties, ...target.properties }
    target.createdAt = Math.min(target.createdAt, source.createdAt)
    target.isIdentified = true
    target.version = Math.max(target.version, source.version)
    for (const id of source.distinctIds) {
      target.distinctIds.add(id)
      this.#byDistinctId.set(id, target)
      this.#mappingChanges.set(id, { isNew: this.#mappingChanges.get(id)?.isNew ?? false })
    }
    source.distinctIds.clear()
    source.deleted = true
    this.#merges.push([source.uuid, target.uuid])
  }

  /**
   * Applies `$set_once`, `$set`, `$unset` to a person. `force` marks the person
   * for writing even if only noisy properties changed (identity and `$set` events).
   */
  update(person: PersonState, updates: PersonPropertyUpdates, force = false): void {
    const applied = applyPersonPropertyUpdates(person.properties, updates)
    const changed = applied.properties !== person.properties
    person.properties = applied.properties
    if (applied.significant || (force && changed)) person.significant = true
  }

  #changed(p: PersonState): boolean {
    const before = this.#originals.get(p.uuid)!
    return (
      (p.significant && before.properties !== p.properties) ||
      before.isIdentified !== p.isIdentified ||
      before.createdAt !== p.createdAt ||
      this.#merges.some(([, target]) => target === p.uuid)
    )
  }

  /**
   * Writes every change made since `load`. Resolves to about how many
   * person overrides it wrote (one per merge, plus one per personless distinct
   * id that got a person): what `OverrideSquasher` counts.
   */
  async flush(): Promise<number> {
    const db = this.#db
    const persons = new Set(this.#byDistinctId.values())
    const merged = this.#merges.map(([source]) => source)
    // Merges first: stored distinct ids of each merged-away person move to where
    // its chain of merges ends (A into B, then B into C: A's ids go to C).
    const finalTarget = new Map<string, string>()
    for (const [source, target] of this.#merges) finalTarget.set(source, target)
    const resolve = (uuid: string): string => {
      let current = uuid
      // A merged-away person never receives ids again, so chains end; the bound is a guard.
      for (let steps = 0; finalTarget.has(current) && steps <= this.#merges.length; steps++) current = finalTarget.get(current)!
      return current
    }
    const record = this.#recordChanges
    const moved = new Map<string, ChangedDistinctId>()
    for (const part of chunk(merged, 500)) {
      const values = sql.join(part.map((source) => sql`(${source}, ${resolve(source)})`))
      // Events stored for the merged-away person hold its uuid: their distinct ids read the target through overrides.
      await sql`
        insert into person_distinct_id_overrides (project_id, distinct_id, person_id)
        select pdi.project_id, pdi.distinct_id, cast(m.target as uuid)
        from person_distinct_ids as pdi inner join (values ${values}) as m(source, target) on pdi.person_uuid = cast(m.source as uuid)
        where pdi.project_id = ${this.#projectId}
        on conflict (project_id, distinct_id) do update set person_id = excluded.person_id`.execute(db)
      // Read back when recording: the stored distinct ids of a merged-away person are not all loaded.
      const { rows } = await sql<{ distinct_id: string; person_uuid: string; version: number }>`
        update person_distinct_ids set person_uuid = cast(m.target as uuid), version = version + 1
        from (values ${values}) as m(source, target)
        where person_distinct_ids.project_id = ${this.#projectId} and person_distinct_ids.person_uuid = cast(m.source as uuid)${
          record ? sql` returning person_distinct_ids.distinct_id, person_distinct_ids.person_uuid, person_distinct_ids.version` : sql``
        }`.execute(db)
      for (const r of rows) moved.set(r.distinct_id, { distinct_id: r.distinct_id, person_uuid: String(r.person_uuid), version: Number(r.version), deleted: false })
    }
    for (const uuids of chunk(merged, IN_LIST)) {
      await db.deleteFrom('persons').where('project_id', '=', this.#projectId).where(uuidIn(sql.ref('uuid'), uuids)).execute()
    }
    const inserts = [...persons].filter((p) => p.isNew && !p.deleted)
    for (const part of chunk(inserts, 500)) {
      const insert = db
        .insertInto('persons')
        .values(
          part.map((p) => ({
            uuid: p.uuid,
            project_id: this.#projectId,
            properties: JSON.stringify(p.properties),
            is_identified: p.isIdentified,
            created_at: formatTimestamp(p.createdAt),
            version: p.version,
          })),
        )
      if (!record) await insert.execute()
      else for (const r of await insert.returning(['id', 'uuid']).execute()) this.#ids.set(String(r.uuid), Number(r.id))
    }
    const changed = [...persons].filter((p) => !p.isNew && !p.deleted && this.#changed(p))
    for (const part of chunk(changed, 500)) {
      // One statement per 500 persons: per-person UPDATEs dominated ingestion time.
      const values = sql.join(
        part.map((p) => sql`(${p.uuid}, ${JSON.stringify(p.properties)}, ${p.isIdentified}, ${formatTimestamp(p.createdAt)}, ${p.version + 1})`),
      )
      await sql`
        update persons set
          properties = cast(v.properties as ${sql.raw(this.#capabilities.jsonColumnType)}),
          is_identified = cast(v.is_identified as boolean),
          created_at = cast(v.created_at as timestamptz),
          version = cast(v.version as integer)
        from (values ${values}) as v(uuid, properties, is_identified, created_at, version)
        where persons.project_id = ${this.#projectId} and persons.uuid = cast(v.uuid as uuid)${
          // The uuids again as a list: DuckDB then finds the rows through the unique index instead of joining every person.
          this.#capabilities.indexesNeedKeyLists ? sql` and ${uuidIn(sql.ref('persons.uuid'), part.map((p) => p.uuid))}` : sql``
        }`.execute(db)
    }
    const newMappings: Array<{ project_id: number; distinct_id: string; person_uuid: string; version: number }> = []
    for (const [distinctId, change] of this.#mappingChanges) {
      if (!change.isNew) continue // existing rows were moved by the merge updates above
      newMappings.push({ project_id: this.#projectId, distinct_id: distinctId, person_uuid: this.#byDistinctId.get(distinctId)!.uuid, version: 0 })
    }
    for (const part of chunk(newMappings, 1000)) {
      await db.insertInto('person_distinct_ids').values(part).execute()
    }
    const personless = await this.#overridePersonless(newMappings)
    const recorded = await this.#recordPersonless()
    if (record) {
      const row = (p: PersonState, version: number, deleted: boolean): ChangedPerson => ({
        id: this.#ids.get(p.uuid)!,
        uuid: p.uuid,
        properties: JSON.stringify(p.properties),
        is_identified: p.isIdentified,
        created_at: formatTimestamp(p.createdAt),
        version,
        deleted,
      })
      // A merged-away person that was never stored (new in this write) was never told either.
      const removed = [...this.#byUuid.values()].filter((p) => p.deleted)
      const distinctIds = [...moved.values(), ...newMappings.map((m) => ({ distinct_id: m.distinct_id, person_uuid: m.person_uuid, version: 0, deleted: false }))]
      this.#changes = {
        persons: [...inserts.map((p) => row(p, p.version, false)), ...changed.map((p) => row(p, p.version + 1, false)), ...removed.map((p) => row(p, p.version, true))],
        distinctIds,
        // A merge writes an override for each distinct id it moves, at the mapping's new version (the same WHERE as the UPDATE).
        overrides: [...[...moved.values()].map((m) => ({ distinct_id: m.distinct_id, person_id: m.person_uuid, version: m.version, deleted: false })), ...personless.overrides],
        personless: [
          ...recorded.map((distinct_id) => ({ distinct_id, version: 0, deleted: false })),
          ...personless.overrides.map((o) => ({ distinct_id: o.distinct_id, version: 0, deleted: true })),
        ],
      }
    }
    return merged.length + personless.overrides.length
  }

  /**
   * Distinct ids that had personless events stored (their `person_id` is
   * null) and now have a person: an override gives those events the person.
   */
  async #overridePersonless(mappings: ReadonlyArray<{ distinct_id: string; person_uuid: string }>): Promise<{ overrides: ChangedOverride[] }> {
    const db = this.#db
    // A new mapping's version is 0, and so is its override's.
    const written: ChangedOverride[] = []
    for (const part of chunk(mappings, IN_LIST)) {
      const ids = part.map((m) => m.distinct_id)
      const personless = await db
        .selectFrom('personless_distinct_ids')
        .select('distinct_id')
        .where('project_id', '=', this.#projectId)
        .where(() => this.#hooks.textInList(sql.ref('distinct_id'), ids) as Expression<SqlBool>)
        .execute()
      if (personless.length === 0) continue
      const wanted = new Set(personless.map((r) => r.distinct_id))
      const overrides = part.filter((m) => wanted.has(m.distinct_id)).map((m) => ({ project_id: this.#projectId, distinct_id: m.distinct_id, person_id: m.person_uuid }))
      await db
        .insertInto('person_distinct_id_overrides')
        .values(overrides)
        .onConflict((oc) => oc.columns(['project_id', 'distinct_id']).doUpdateSet({ person_id: (eb) => eb.ref('excluded.person_id') }))
        .execute()
      await db
        .deleteFrom('personless_distinct_ids')
        .where('project_id', '=', this.#projectId)
        .where(() => this.#hooks.textInList(sql.ref('distinct_id'), [...wanted]) as Expression<SqlBool>)
        .execute()
      written.push(...overrides.map((o) => ({ distinct_id: o.distinct_id, person_id: o.person_id, version: 0, deleted: false })))
    }
    return { overrides: written }
  }

  /** Remembers the distinct ids of this write's personless events that still have no person (`markPersonless`); resolves to them. */
  async #recordPersonless(): Promise<string[]> {
    const ids = [...this.#personless].filter((id) => !this.#byDistinctId.has(id))
    for (const part of chunk(ids, IN_LIST)) {
      await this.#db
        .insertInto('personless_distinct_ids')
        .values(part.map((distinct_id) => ({ project_id: this.#projectId, distinct_id })))
        .onConflict((oc) => oc.columns(['project_id', 'distinct_id']).doNothing())
        .execute()
    }
    return ids
  }
}

/** What `PersonStore.flush` changed, for `PersonRowChanges`. */
export interface PersonStoreChanges {
  readonly persons: ReadonlyArray<ChangedPerson>
  readonly distinctIds: ReadonlyArray<ChangedDistinctId>
  readonly overrides: ReadonlyArray<ChangedOverride>
  readonly personless: ReadonlyArray<ChangedPersonless>
}

const NO_CHANGES: PersonStoreChanges = Object.freeze({ persons: [], distinctIds: [], overrides: [], personless: [] })
