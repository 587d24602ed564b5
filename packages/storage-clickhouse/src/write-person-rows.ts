import type { PersonRowChanges } from '@sightline/core/storage'
import type { ClickHouseExecutor } from './dialect/clickhouse-executor.js'
import { SINGLE_SERVER, type ClickHouseTopology } from './clickhouse-topology.js'
import { PERSON_ROW_COLUMNS, type PersonRowKind } from './person-rows-schema.js'

type Row = Record<(typeof PERSON_ROW_COLUMNS)[number], unknown>

/**
 * Writes the rows of one write (`changes`) to `person_rows` in one
 * `JSONEachRow` insert, so that a read sees all of them or none. Values are
 * ClickHouse's JSON input, never SQL text. On a cluster the rows are inserted
 * on the node the client reaches, and `SYSTEM SYNC REPLICA` waits until every
 * node has them, so that the read that follows a write sees it on any shard.
 */
export async function writePersonRows(executor: ClickHouseExecutor, changes: PersonRowChanges, topology: ClickHouseTopology = SINGLE_SERVER): Promise<void> {
  const rows = personRows(changes)
  if (rows.length === 0) return
  await executor.insertRows('person_rows', PERSON_ROW_COLUMNS, rows)
  if (topology.cluster !== null) await executor.command(`system sync replica${topology.onCluster} person_rows`, {})
}

/** `changes` as rows of `person_rows`: `ver` is `version * 2 + deleted`. */
export function personRows(changes: PersonRowChanges): Row[] {
  const project = changes.projectId
  const row = (kind: PersonRowKind, key: string, version: number, deleted: boolean, rest: Partial<Row> = {}): Row => ({
    kind,
    project_id: project,
    group_type_index: 0,
    key,
    ver: versionOf(version, deleted),
    row_id: 0,
    row_person: '00000000-0000-0000-0000-000000000000',
    row_properties: '',
    row_is_identified: false,
    row_created_at: '1970-01-01 00:00:00',
    ...rest,
  })
  return [
    ...changes.persons.map((p) =>
      row('persons', p.uuid.toLowerCase(), p.version, p.deleted, {
        row_id: p.id,
        row_properties: p.properties,
        row_is_identified: p.is_identified,
        row_created_at: clickhouseTime(p.created_at),
      }),
    ),
    ...changes.distinctIds.map((d) => row('person_distinct_ids', d.distinct_id, d.version, d.deleted, { row_person: d.person_uuid })),
    ...changes.overrides.map((o) => row('person_distinct_id_overrides', o.distinct_id, o.version, o.deleted, { row_person: o.person_id })),
    ...changes.personless.map((p) => row('personless_distinct_ids', p.distinct_id, p.version, p.deleted)),
    ...changes.groups.map((g) =>
      row('groups', g.group_key, g.version, g.deleted, { group_type_index: g.group_type_index, row_properties: g.properties, row_created_at: clickhouseTime(g.created_at) }),
    ),
  ]
}

/** The port's `(version, deleted)` as one UInt64 that orders the same way. */
function versionOf(version: number, deleted: boolean): number {
  if (!Number.isSafeInteger(version) || version < 0) throw new RangeError(`a person row's version must be a non-negative integer, got ${version}`)
  return version * 2 + (deleted ? 1 : 0)
}

/** An ISO 8601 UTC time (`...T10:00:00.123456Z`, or `+00:00`) as DateTime64's JSON input reads it. */
function clickhouseTime(iso: string): string {
  return iso.replace('T', ' ').replace(/(Z|\+00(:00)?)$/, '')
}
