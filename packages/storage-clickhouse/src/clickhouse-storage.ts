import type { Kysely } from 'kysely'
import type { EventRow, SightlineDatabase, StorageAdapter, StorageDriver } from '@sightline/core/storage'
import { clickhouseSqlHooks } from './clickhouse-sql-hooks.js'
import { clickhouseMigrations } from './clickhouse-migrations.js'
import { insertEvents, removeEvents } from './insert-events.js'
import { foldPersonOverrides } from './fold-person-overrides.js'
import { PersonRows } from './person-rows.js'
import { clusterTopology, SINGLE_SERVER, type ClickHouseTopology } from './clickhouse-topology.js'
import { chdbExecutor } from './dialect/chdb-executor.js'
import { clientExecutor } from './dialect/client-executor.js'
import type { ChdbSession, ClickHouseClient } from './dialect/clickhouse-dialect-config.js'
import type { ClickHouseExecutor } from './dialect/clickhouse-executor.js'
import { dualHooks } from './companion/dual-hooks.js'
import { RoutingDialect } from './companion/routing-dialect.js'
import { TableCopies } from './companion/table-copies.js'
import type { EventWriter, RoutingConnection } from './companion/routing-connection.js'

/**
 * Where ClickHouse runs: chDB in this process (a data directory, or a
 * session the host opened) or a server (its URL, or a client the host
 * created with `@clickhouse/client`'s `createClient`).
 */
export type ClickHouseTarget =
  | { readonly path: string }
  | { readonly session: ChdbSession }
  | ({ readonly url: string } & ClusterOption)
  | ({ readonly client: ClickHouseClient } & ClusterOption)

/** Where a server target keeps its tables. */
export interface ClusterOption {
  /**
   * The ClickHouse cluster (a `remote_servers` name of the servers' config,
   * whose nodes define the `{shard}` and `{replica}` macros) that holds
   * Sightline's tables, or none. With a cluster, migrations create the
   * shards' `events_local` (ReplicatedReplacingMergeTree) and a Distributed
   * `events` sharded by the distinct id's hash on every node; inserts wait
   * until every shard stored its rows; mutations and deletes go to
   * `events_local` on every node; the person rows (and the copy of cohort
   * people) are whole on every node; analyses read other Distributed reads with GLOBAL IN and
   * GLOBAL JOIN (README, *A cluster*). Letters, digits, `_` and `-`,
   * starting with a letter or `_` (else a RangeError). Default: none, the
   * tables are the server's own.
   */
  readonly cluster?: string
}

/** Options of `clickhouseStorage`. */
export type ClickHouseStorageOptions = ClickHouseTarget & {
  /**
   * The transactional store of everything but events: organizations,
   * projects, persons, definitions, plugins, insights, dashboards, keys
   * (PostHog keeps these in Postgres). Any Sightline storage, e.g.
   * `duckdbStorage({ path })` or `postgresStorage({ pglite })`; opened and
   * closed with this one.
   */
  readonly companion: StorageAdapter
}

/**
 * The copies of companion tables, one set per ClickHouse session or client:
 * two engines on one database (each its own adapter) must see each other's
 * writes make a copy stale. Keyed weakly by the host's object.
 */
const COPIES = new WeakMap<object, TableCopies>()

function copiesOf(target: object, executor: ClickHouseExecutor, alwaysRefresh: boolean, topology: ClickHouseTopology): TableCopies {
  let copies = COPIES.get(target)
  if (!copies) COPIES.set(target, (copies = new TableCopies(executor, alwaysRefresh, topology)))
  return copies
}

/**
 * The person rows' writer, one per ClickHouse session or client as the
 * copies: a write one engine failed to tell is caught up before the next
 * read of any engine on that database.
 */
const PERSON_ROWS = new WeakMap<object, PersonRows>()

function personRowsOf(target: object, executor: ClickHouseExecutor, topology: ClickHouseTopology): PersonRows {
  let rows = PERSON_ROWS.get(target)
  if (!rows) PERSON_ROWS.set(target, (rows = new PersonRows(executor, topology)))
  return rows
}

/** The topology `options` name: a cluster (validated, server targets only) or one server. */
function topologyOf(options: ClickHouseStorageOptions, server: boolean): ClickHouseTopology {
  const cluster = (options as ClusterOption).cluster
  if (cluster === undefined) return SINGLE_SERVER
  if (!server) throw new RangeError('cluster needs a ClickHouse server target (url or client): chDB runs in this process, on no cluster')
  return clusterTopology(cluster)
}

/** What the adapter needs of a client it created itself. */
interface OwnedClient extends ClickHouseClient {
  close(): Promise<void>
}

/** What the adapter needs of a chDB session it opened itself. */
interface OwnedSession extends ChdbSession {
  close(): void
}

/** Closes a session the adapter opened, and waits until chDB has released it: a process opens one data directory at a time. */
async function release(session: OwnedSession | undefined, drained: (() => Promise<void>) | undefined): Promise<void> {
  if (!session) return
  session.close()
  await drained?.()
}

/**
 * Sightline with its events on ClickHouse (chDB or a server, peer
 * dependencies `chdb` and `@clickhouse/client`) and everything transactional
 * on a companion store. Reads of events run on ClickHouse; writes, DDL of
 * core and every other table run on the companion. See README.md.
 */
export function clickhouseStorage(options: ClickHouseStorageOptions): StorageAdapter {
  const { companion } = options
  // Several processes can write one server; a chDB data directory belongs to one process.
  const multiProcess = 'client' in options || 'url' in options
  const topology = topologyOf(options, multiProcess)
  return {
    name: 'clickhouse',
    // Core fills promoted-property slots with UPDATEs of the companion's events, which queries here do not read.
    capabilities: { ...companion.capabilities, multiProcess: multiProcess && companion.capabilities.multiProcess, propertySlots: false },
    sql: dualHooks(clickhouseSqlHooks, companion.sql),
    async open(): Promise<StorageDriver> {
      let owned: OwnedSession | undefined
      let ownedClient: OwnedClient | undefined
      let drained: (() => Promise<void>) | undefined
      let target: ChdbSession | ClickHouseClient
      let executor: ClickHouseExecutor
      const serverOptions = { insertSettings: topology.insertSettings }
      if ('client' in options) executor = clientExecutor((target = options.client), serverOptions)
      else if ('session' in options) executor = chdbExecutor((target = options.session))
      else if ('url' in options) {
        const { createClient } = await import('@clickhouse/client')
        target = ownedClient = createClient({ url: options.url }) as unknown as OwnedClient
        executor = clientExecutor(ownedClient, serverOptions)
      }
      else {
        const chdb = await import('chdb')
        target = owned = new chdb.Session(options.path) as unknown as OwnedSession
        drained = chdb.drainPending
        executor = chdbExecutor(owned)
      }
      const copies = copiesOf(target, executor, multiProcess, topology)
      const personRows = personRowsOf(target, executor, topology)
      let inner: StorageDriver
      try {
        inner = await companion.open()
      } catch (error) {
        await release(owned, drained)
        await ownedClient?.close()
        throw error
      }
      const events: EventWriter = { write: (ex, rows) => insertEvents(ex, rows, multiProcess), remove: (ex, rows) => removeEvents(ex, rows, topology) }
      const executorOf = (db: Kysely<any>) => db.getExecutor().provideConnection(async (c) => (c as RoutingConnection).executor)
      let closed = false
      return {
        dialect: new RoutingDialect(inner.dialect, executor, events, copies, personRows, topology.distributed),
        migrations: { ...inner.migrations, ...clickhouseMigrations(executorOf, topology) },
        ...(inner.schema !== undefined && { schema: inner.schema }),
        insertEvents: (db: Kysely<SightlineDatabase>, rows: ReadonlyArray<EventRow>) =>
          rows.length === 0 ? Promise.resolve(0) : db.getExecutor().provideConnection((c) => (c as RoutingConnection).insertEvents(rows)),
        // The squash's UPDATE would reach the companion's empty events table: ClickHouse's events are folded here, before the companion deletes the overrides.
        foldPersonOverrides: async (db, projectId, overrides) => foldPersonOverrides(await executorOf(db), projectId, overrides, topology),
        // Person-side rows go to ClickHouse as versioned rows once their write committed; analyses read the latest of each key.
        // Behind (a write not told, here or in a process before this one), it catches up instead, through a connection outside
        // any companion transaction: the write has committed, so the catch-up writes its rows with whatever ClickHouse lacks
        // (a process that only writes would otherwise stay behind until it reads).
        personRowsChanged: async (db, changes) => {
          const caughtUp = personRows.behind && (await db.getExecutor().provideConnection((c) => (c as RoutingConnection).catchUp()))
          if (!caughtUp) await personRows.write(changes)
        },
        isWriteConflict: (error: unknown) => inner.isWriteConflict(error),
        ...(inner.afterMigrations && { afterMigrations: (db: Kysely<SightlineDatabase>) => inner.afterMigrations!(db) }),
        async close() {
          if (closed) return
          closed = true
          try {
            await inner.close()
          } finally {
            await release(owned, drained)
            await ownedClient?.close()
          }
        },
      }
    },
  }
}
