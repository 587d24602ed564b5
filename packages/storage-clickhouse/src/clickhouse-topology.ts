/**
 * Where the adapter's ClickHouse tables live: one server (or chDB), or the
 * nodes of a cluster. Statements that create or change tables read it, so
 * that no code elsewhere asks which one it is.
 */
export interface ClickHouseTopology {
  /** The cluster's name as it was given (validated), or null on one server or chDB. */
  readonly cluster: string | null
  /** What follows a DDL or mutation's table: ` on cluster \`name\`` on a cluster, so that every node runs it; '' otherwise. */
  readonly onCluster: string
  /**
   * The table that holds the events' rows, which mutations and deletes name:
   * `events_local` on a cluster (a Distributed table takes no `ALTER ...
   * UPDATE`, `DELETE` or `OPTIMIZE`: they go to the shards' own tables),
   * `events` otherwise.
   */
  readonly eventRows: string
  /** Settings every insert carries. */
  readonly insertSettings: Readonly<Record<string, number>>
  /** The Distributed tables analyses read, whose IN and JOIN subqueries must be GLOBAL (`global-subqueries.ts`). Empty off a cluster. */
  readonly distributed: ReadonlySet<string>
}

/** One server, or chDB: the tables are the server's own. */
export const SINGLE_SERVER: ClickHouseTopology = Object.freeze({
  cluster: null,
  onCluster: '',
  eventRows: 'events',
  insertSettings: Object.freeze({}),
  distributed: new Set<string>(),
})

// A cluster's name as the servers' `remote_servers` config may spell it. It is spliced into DDL (ClickHouse takes
// no query parameter in ON CLUSTER or in a Distributed engine's arguments), backquoted; this keeps quotes,
// backslashes and spaces out of it.
const CLUSTER_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,127}$/

/**
 * The topology of the cluster `name`: letters, digits, `_` and `-`,
 * starting with a letter or `_` (else a RangeError). Inserts into its
 * Distributed `events` are synchronous (`distributed_foreground_insert`,
 * ClickHouse 23.3+'s name of `insert_distributed_sync`): an INSERT returns
 * once every shard stored its rows, so a read that follows sees them, as
 * core's capture expects (the default queues them on the node and forwards
 * them in the background).
 */
export function clusterTopology(name: string): ClickHouseTopology {
  if (typeof name !== 'string' || !CLUSTER_NAME.test(name)) {
    throw new RangeError(`cluster must be a ClickHouse cluster name (letters, digits, _ and -, starting with a letter or _), got ${JSON.stringify(name)}`)
  }
  return Object.freeze({
    cluster: name,
    onCluster: ` on cluster \`${name}\``,
    eventRows: 'events_local',
    insertSettings: Object.freeze({ distributed_foreground_insert: 1 }),
    distributed: new Set(['events']),
  })
}
