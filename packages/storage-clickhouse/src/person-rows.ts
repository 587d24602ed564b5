import type { ChangedDistinctId, ChangedGroup, ChangedOverride, ChangedPerson, ChangedPersonless, PersonRowChanges } from '@sightline/core/storage'
import type { ClickHouseExecutor } from './dialect/clickhouse-executor.js'
import { SINGLE_SERVER, type ClickHouseTopology } from './clickhouse-topology.js'
import { companionPersonRows, type ReadCompanion } from './companion-person-rows.js'
import type { PersonRowKind } from './person-rows-schema.js'
import { writePersonRows } from './write-person-rows.js'

const ZERO_UUID = '00000000-0000-0000-0000-000000000000'
const EPOCH = '1970-01-01T00:00:00.000000Z'

/**
 * ClickHouse's person rows, as core tells them after each write commits
 * (`personRowsChanged`), one set per ClickHouse session or client. A write
 * ClickHouse refuses has committed on the companion all the same: from then
 * on ClickHouse is `behind` until `catchUp`, which the routing connection
 * runs before its next read of ClickHouse, has written what it lacks. A new
 * set starts behind (a process that failed a write may have stopped since).
 */
export class PersonRows {
  /**
   * Failed writes so far; a catch-up clears `behind` only if none failed while it ran. It starts at one:
   * a failure is known only to the process it happened in, so a process (or a new session or client on
   * the same database) may open behind one that failed and stopped; its first read outside a companion
   * transaction catches up, writing nothing when ClickHouse already has every row.
   */
  #failures = 1
  #caughtUpTo = 0
  #catchingUp: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly executor: ClickHouseExecutor,
    private readonly topology: ClickHouseTopology = SINGLE_SERVER,
  ) {}

  /** True after a write whose rows ClickHouse did not take, until a catch-up after it succeeds. */
  get behind(): boolean {
    return this.#caughtUpTo < this.#failures
  }

  /** Writes the rows of one write; when ClickHouse refuses them the adapter is behind, and the call rejects. */
  async write(changes: PersonRowChanges): Promise<void> {
    try {
      await writePersonRows(this.executor, changes, this.topology)
    } catch (error) {
      this.#failures++
      throw error
    }
  }

  /**
   * When behind, brings ClickHouse's rows to the companion's, read through
   * `read` (committed rows only: never inside a companion transaction):
   * each companion row whose version ClickHouse lacks, and a deletion of
   * each key ClickHouse has live that the companion no longer has. ClickHouse
   * is read first, so a key a write adds after that read is never taken for
   * one the companion deleted; rows told meanwhile are versioned, so the
   * latest version wins whichever lands last. One catch-up at a time.
   * Resolves to whether this call read the companion (false when a catch-up
   * before it had already brought ClickHouse up to date).
   */
  catchUp(read: ReadCompanion): Promise<boolean> {
    const run = this.#catchingUp.then(async () => {
      const target = this.#failures
      if (this.#caughtUpTo >= target) return false
      const readCompanion = await this.#catchUp(read)
      this.#caughtUpTo = Math.max(this.#caughtUpTo, target)
      return readCompanion
    })
    this.#catchingUp = run.catch(() => {})
    return run
  }

  /** Whether it read the companion: not before migration clickhouse_0008, which loads the companion's rows itself. */
  async #catchUp(read: ReadCompanion): Promise<boolean> {
    const table = await this.executor.query("select count() from system.tables where database = currentDatabase() and name = 'person_rows'", {})
    if (Number((table.data as unknown[][])[0]?.[0] ?? 0) === 0) return false
    const { data } = await this.executor.query('select kind, project_id, group_type_index, key, max(ver) from person_rows group by kind, project_id, group_type_index, key', {})
    const stored = new Map<string, number>()
    for (const [kind, project, type, key, ver] of data as Array<[string, unknown, unknown, string, unknown]>) stored.set(keyOf(kind, Number(project), Number(type), key), Number(ver))
    const seen = new Set<string>()
    const writes: PersonRowChanges[] = []
    for (const changes of await companionPersonRows(read)) {
      const p = changes.projectId
      const lacking = <T extends { version: number }>(kind: PersonRowKind, rows: ReadonlyArray<T>, key: (row: T) => string, type: (row: T) => number = () => 0): T[] =>
        rows.filter((row) => {
          const k = keyOf(kind, p, type(row), key(row))
          seen.add(k)
          return (stored.get(k) ?? -1) < row.version * 2
        })
      writes.push({
        projectId: p,
        persons: lacking('persons', changes.persons, (r) => r.uuid.toLowerCase()),
        distinctIds: lacking('person_distinct_ids', changes.distinctIds, (r) => r.distinct_id),
        overrides: lacking('person_distinct_id_overrides', changes.overrides, (r) => r.distinct_id),
        personless: lacking('personless_distinct_ids', changes.personless, (r) => r.distinct_id),
        groups: lacking('groups', changes.groups, (r) => r.group_key, (r) => r.group_type_index),
      })
    }
    writes.push(...deletionsOfKeysGone(stored, seen))
    for (const changes of writes) await writePersonRows(this.executor, changes, this.topology)
    return true
  }
}

const keyOf = (kind: string, project: number, type: number, key: string) => JSON.stringify([kind, project, type, key])

interface Deletions {
  persons: ChangedPerson[]
  distinctIds: ChangedDistinctId[]
  overrides: ChangedOverride[]
  personless: ChangedPersonless[]
  groups: ChangedGroup[]
}

/**
 * Deletions of the keys ClickHouse has live (an even `ver`) and the companion
 * does not, each at its live version, which a deletion outranks. Only the key
 * and version of a deletion are read; its other columns are placeholders.
 */
function deletionsOfKeysGone(stored: ReadonlyMap<string, number>, seen: ReadonlySet<string>): PersonRowChanges[] {
  const byProject = new Map<number, Deletions>()
  for (const [k, ver] of stored) {
    if (ver % 2 === 1 || seen.has(k)) continue
    const [kind, project, type, key] = JSON.parse(k) as [PersonRowKind, number, number, string]
    let d = byProject.get(project)
    if (!d) byProject.set(project, (d = { persons: [], distinctIds: [], overrides: [], personless: [], groups: [] }))
    const gone = { version: ver / 2, deleted: true }
    if (kind === 'persons') d.persons.push({ id: 0, uuid: key, properties: '{}', is_identified: false, created_at: EPOCH, ...gone })
    else if (kind === 'person_distinct_ids') d.distinctIds.push({ distinct_id: key, person_uuid: ZERO_UUID, ...gone })
    else if (kind === 'person_distinct_id_overrides') d.overrides.push({ distinct_id: key, person_id: ZERO_UUID, ...gone })
    else if (kind === 'personless_distinct_ids') d.personless.push({ distinct_id: key, ...gone })
    else d.groups.push({ group_type_index: type, group_key: key, properties: '{}', created_at: EPOCH, ...gone })
  }
  return [...byProject].map(([projectId, d]) => ({ projectId, ...d }))
}
