import { EVENT_COLUMNS, type EventRow } from '@sightline/core/storage'
import type { ClickHouseExecutor } from './dialect/clickhouse-executor.js'
import { SINGLE_SERVER, type ClickHouseTopology } from './clickhouse-topology.js'

/**
 * Writes event rows to ClickHouse in one `JSONEachRow` insert (ClickHouse's
 * own parser reads the batch; no INSERT text is built). The materialized
 * property columns are left out: their DEFAULT expressions fill them. On a
 * cluster `events` is the Distributed table, which routes each row to its
 * shard; the executor's insert settings make that synchronous.
 *
 * When `checkStored`, rows whose `(project_id, uuid)` ClickHouse already
 * holds are dropped first (several processes write one server); a chDB
 * session has one process, where core's own check under its write lock is
 * enough. Resolves to the rows written.
 */
export async function insertEvents(executor: ClickHouseExecutor, rows: ReadonlyArray<EventRow>, checkStored: boolean): Promise<number> {
  const fresh = checkStored ? await dropStored(executor, rows) : rows
  return executor.insertRows('events', EVENT_COLUMNS, fresh.map(toJsonRow))
}

function toJsonRow(row: EventRow): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const column of EVENT_COLUMNS) out[column] = row[column]
  out.timestamp = clickhouseTime(row.timestamp)
  out.inserted_at = clickhouseTime(row.inserted_at)
  return out
}

/** ISO 8601 UTC (`2026-01-01T10:00:00.123456Z`, as core writes times) in the form DateTime64 reads without best-effort parsing. */
function clickhouseTime(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?)Z$/.exec(iso)
  if (!match) throw new RangeError(`an event time must be ISO 8601 UTC, got ${JSON.stringify(iso)}`)
  return `${match[1]} ${match[2]}`
}

async function dropStored(executor: ClickHouseExecutor, rows: ReadonlyArray<EventRow>): Promise<ReadonlyArray<EventRow>> {
  const stored = new Set<string>()
  for (const projectId of new Set(rows.map((r) => r.project_id))) {
    const uuids = rows.filter((r) => r.project_id === projectId).map((r) => r.uuid)
    const result = await executor.query('select toString(uuid) as u from events where project_id = {p:Int32} and has({u:Array(UUID)}, uuid)', { p: projectId, u: uuids })
    for (const [u] of result.data) stored.add(`${projectId}/${u as string}`)
  }
  return rows.filter((r) => !stored.has(`${r.project_id}/${r.uuid.toLowerCase()}`))
}

/**
 * Deletes the rows `insertEvents` wrote, by `(project_id, uuid)`: the undo
 * of a write whose companion transaction then failed to commit. A
 * lightweight DELETE, visible to the next read. On a cluster it deletes
 * from the shards' `events_local` on every node (a Distributed table takes
 * no DELETE; each shard's DELETE runs on one of its replicas and
 * replicates, waited for by `lightweight_deletes_sync`'s default, 2).
 */
export async function removeEvents(executor: ClickHouseExecutor, rows: ReadonlyArray<EventRow>, topology: ClickHouseTopology = SINGLE_SERVER): Promise<void> {
  for (const projectId of new Set(rows.map((r) => r.project_id))) {
    const uuids = rows.filter((r) => r.project_id === projectId).map((r) => r.uuid)
    await executor.command(`delete from ${topology.eventRows}${topology.onCluster} where project_id = {p:Int32} and has({u:Array(UUID)}, uuid)`, { p: projectId, u: uuids })
  }
}
