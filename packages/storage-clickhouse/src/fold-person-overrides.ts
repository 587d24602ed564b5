import type { PersonOverride } from '@sightline/core/storage'
import type { ClickHouseExecutor } from './dialect/clickhouse-executor.js'
import { SINGLE_SERVER, type ClickHouseTopology } from './clickhouse-topology.js'

/**
 * Folds person overrides into ClickHouse's events (core's squash, as
 * PostHog's squash of `person_distinct_id_overrides`): one mutation that sets
 * `person_id` of the project's events of each distinct id, waited for
 * (`mutations_sync = 2`), so that once it resolves every read sees the folded
 * persons and the companion may delete the overrides. `person_id` is not in
 * the sorting key, so the mutation rewrites that column alone in the parts
 * holding those distinct ids. Values are ClickHouse parameters.
 *
 * On a cluster the mutation goes to the shards' `events_local` on every node
 * (`ON CLUSTER`; a Distributed table takes no mutation): ClickHouse runs it
 * on one replica of each shard, which replicates it, and `mutations_sync =
 * 2` waits for every replica. A distinct id's events all live on one shard
 * (they are sharded by its hash), so the other shards' mutations find no
 * rows to rewrite.
 */
export async function foldPersonOverrides(
  executor: ClickHouseExecutor,
  projectId: number,
  overrides: ReadonlyArray<PersonOverride>,
  topology: ClickHouseTopology = SINGLE_SERVER,
): Promise<void> {
  if (overrides.length === 0) return
  await executor.command(
    `alter table ${topology.eventRows}${topology.onCluster} update person_id = {persons:Array(UUID)}[indexOf({ids:Array(String)}, distinct_id)]
     where project_id = {project:Int32} and has({ids:Array(String)}, distinct_id) settings mutations_sync = 2`,
    { project: projectId, ids: overrides.map((o) => o.distinct_id), persons: overrides.map((o) => o.person_id) },
  )
}
