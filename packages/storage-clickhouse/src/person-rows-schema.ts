import { SINGLE_SERVER, type ClickHouseTopology } from './clickhouse-topology.js'

/**
 * The person-side tables core writes on the companion whose rows ClickHouse
 * is told as versioned rows (`StorageDriver.personRowsChanged`), and the
 * `kind` each has in `person_rows`. Analyses read each through a view of
 * that name.
 */
export const PERSON_ROW_KINDS = ['persons', 'person_distinct_ids', 'person_distinct_id_overrides', 'personless_distinct_ids', 'groups'] as const
export type PersonRowKind = (typeof PERSON_ROW_KINDS)[number]

/** The columns of `person_rows`, in the order `writePersonRows` sends them. */
export const PERSON_ROW_COLUMNS = ['kind', 'project_id', 'group_type_index', 'key', 'ver', 'row_id', 'row_person', 'row_properties', 'row_is_identified', 'row_created_at'] as const

/**
 * One table for the five, so that the rows of one write are one INSERT: a
 * read sees all of them or none (an insert of one block, into a table with
 * no partition key, is one part, written atomically). `key` is the uuid's
 * text, the distinct id or the group key; `ver` is the port's `(version,
 * deleted)` as one number, `version * 2 + deleted`, so that ReplacingMergeTree
 * keeps, when it merges parts, the very row a read picks (`argMax` by `ver`):
 * a deletion outranks the live row of its version. Columns a kind does not
 * use hold their defaults. The row columns are prefixed so that no view's
 * output name is also a column of this table (a view's `argMax(row_id, ver)
 * as id` then reads the column whatever the reader's alias settings).
 */
function personRowsTable(topology: ClickHouseTopology): string {
  const engine =
    topology.cluster === null
      ? 'ReplacingMergeTree(ver)'
      : // Whole on every node, as PostHog keeps its person tables: a shard joins its events with the rows on its own node.
        "ReplicatedReplacingMergeTree('/clickhouse/tables/{uuid}/all', '{replica}-{shard}', ver)"
  return `create table if not exists person_rows${topology.onCluster} (
    kind LowCardinality(String), project_id Int32, group_type_index Int32 default 0, key String, ver UInt64,
    row_id Int64 default 0, row_person UUID default toUUID('00000000-0000-0000-0000-000000000000'), row_properties String default '',
    row_is_identified Bool default false, row_created_at DateTime64(6, 'UTC') default toDateTime64(0, 6, 'UTC')
  ) engine = ${engine} order by (kind, project_id, group_type_index, key)`
}

// Each view: the latest row of each key (`argMax` by `ver`, no FINAL), keys whose latest row is a deletion left out.
// `toUUIDOrZero`: ClickHouse may convert keys before it filters by kind, and other kinds' keys are no uuids.
// The columns and types are those of the companion's table, as the copies had them; `assumeNotNull` because the
// dialect's session turns aggregates Nullable (`aggregate_functions_null_for_empty`) and a group is never empty.
const latest = (column: string) => `assumeNotNull(argMax(${column}, ver))`
const version = 'toInt32(intDiv(max(ver), 2))'
const live = 'max(ver) % 2 = 0'

const VIEWS: Readonly<Record<PersonRowKind, string>> = {
  persons: `select ${latest('row_id')} as id, toUUIDOrZero(key) as uuid, project_id, ${latest('row_properties')} as properties,
    ${latest('row_is_identified')} as is_identified, ${latest('row_created_at')} as created_at, ${version} as version
    from person_rows where kind = 'persons' group by project_id, key having ${live}`,
  person_distinct_ids: `select project_id, key as distinct_id, ${latest('row_person')} as person_uuid, ${version} as version
    from person_rows where kind = 'person_distinct_ids' group by project_id, key having ${live}`,
  person_distinct_id_overrides: `select project_id, key as distinct_id, ${latest('row_person')} as person_id
    from person_rows where kind = 'person_distinct_id_overrides' group by project_id, key having ${live}`,
  personless_distinct_ids: `select project_id, key as distinct_id
    from person_rows where kind = 'personless_distinct_ids' group by project_id, key having ${live}`,
  groups: `select project_id, group_type_index, key as group_key, ${latest('row_properties')} as properties,
    ${latest('row_created_at')} as created_at, ${version} as version
    from person_rows where kind = 'groups' group by project_id, group_type_index, key having ${live}`,
}

/**
 * The statements that create `person_rows` and the view of each kind
 * (idempotent). A view replaces a copy of the same name, which must be
 * dropped first (`clickhouse_0008_person_rows`).
 */
export function personRowsSchema(topology: ClickHouseTopology = SINGLE_SERVER): string[] {
  return [personRowsTable(topology), ...PERSON_ROW_KINDS.map((kind) => `create view if not exists "${kind}"${topology.onCluster} as ${VIEWS[kind]}`)]
}
