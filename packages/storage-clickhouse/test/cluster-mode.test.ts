/**
 * The adapter on a ClickHouse cluster. No cluster runs here: every
 * statement is sent to a recording stand-in of `@clickhouse/client`
 * (recording-client.ts) and asserted by its text, settings and session.
 * The expected statements are the README's cluster recipe, written out by hand.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Kysely, sql } from 'kysely'
import { DuckDBInstance } from '@duckdb/node-api'
import { MATERIALIZED_NUMBERS, type EventRow, type SightlineDatabase, type StorageDriver } from '@sightline/core/storage'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { clickhouseStorage } from '@sightline/storage-clickhouse'
import { clusterTopology } from '../src/clickhouse-topology.js'
import { removeEvents } from '../src/insert-events.js'
import { clusterSqlProblems } from '../src/dialect/cluster-sql-problems.js'
import { clientExecutor } from '../src/dialect/client-executor.js'
import { recordingClient, type Recorded } from './recording-client.js'
import { eventRow } from './event-row.js'

const MIGRATIONS = [
  'clickhouse_0001_events',
  'clickhouse_0002_functions',
  'clickhouse_0003_md5',
  'clickhouse_0004_chr',
  'clickhouse_0005_materialized_numbers',
  'clickhouse_0006_property_slots',
  'clickhouse_0007_fold_kept_overrides',
  'clickhouse_0008_person_rows',
]

const row = (uuid: string, distinct_id = 'd'): EventRow => eventRow(uuid, { distinct_id })

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim()
/** What the statements sent do that breaks on the cluster (`clusterSqlProblems`): none, where they are right. */
const clusterProblems = (sent: ReadonlyArray<Recorded>) =>
  sent.filter((r) => r.kind !== 'insert').flatMap((r) => clusterSqlProblems(r.sql, { distributed: new Set(['events']), initiator: new Set() }))
const commands = (sent: ReadonlyArray<Recorded>) => sent.filter((r) => r.kind === 'command').map((r) => oneLine(r.sql))

describe('the cluster option', () => {
  const companion = duckdbStorage()

  it('takes a cluster name of letters, digits, _ and -, and nothing that could leave its quotes', () => {
    expect(clusterTopology('sightline_prod-2').onCluster).toBe(' on cluster `sightline_prod-2`')
    for (const bad of ['', 'a b', 'x`y', "x'y", '1st', 'a;drop', 'x\\y']) expect(() => clusterTopology(bad), bad).toThrow(RangeError)
    expect(() => clickhouseStorage({ url: 'http://ch:8123', cluster: 'a b', companion })).toThrow(/cluster must be a ClickHouse cluster name/)
  })

  it('is refused on chDB, which runs in this process', () => {
    expect(() => clickhouseStorage({ path: 'x', cluster: 'sl', companion } as never)).toThrow(/needs a ClickHouse server target/)
  })
})

describe('clickhouseStorage({ client, cluster }): the statements a cluster gets', () => {
  let instance: DuckDBInstance
  let driver: StorageDriver
  let db: Kysely<SightlineDatabase>
  let sent: Recorded[]
  let engineOfEvents: string | undefined

  beforeEach(async () => {
    instance = await DuckDBInstance.create(':memory:')
    engineOfEvents = undefined
    const recording = recordingClient((text) => (text.includes('from system.tables') && engineOfEvents ? { meta: [{ name: 'engine', type: 'String' }], data: [[engineOfEvents]] } : undefined))
    sent = recording.sent
    driver = await clickhouseStorage({ client: recording.client, cluster: 'sl', companion: duckdbStorage({ instance }) }).open()
    db = new Kysely<SightlineDatabase>({ dialect: driver.dialect })
  })
  afterEach(async () => {
    await db.destroy()
    await driver.close()
    instance.closeSync()
  })

  it('migrations create replicated local events and a Distributed events sharded by the distinct id, on every node', async () => {
    for (const name of MIGRATIONS) await driver.migrations[name]!.up(db)
    const ddl = commands(sent)
    expect(ddl[0]).toMatch(/^create table if not exists events_local on cluster `sl` \( uuid UUID, project_id Int32, .* person_id Nullable\(UUID\), "mp_/)
    expect(ddl[0]).toContain(
      "engine = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/events_local', '{replica}') partition by toYYYYMM(timestamp) order by (project_id, toDate(timestamp), cityHash64(distinct_id), timestamp, uuid)",
    )
    expect(ddl[1]).toBe("create table if not exists events on cluster `sl` as events_local engine = Distributed('sl', currentDatabase(), 'events_local', cityHash64(distinct_id))")
    expect(ddl.slice(2, 5)).toEqual([
      'create function if not exists strpos on cluster `sl` as (haystack, needle) -> position(haystack, needle)',
      'create function if not exists md5 on cluster `sl` as (text) -> lower(hex(MD5(text)))',
      'create function if not exists chr on cluster `sl` as (code) -> char(code)',
    ])
    // Columns are added to the local tables first, then to the Distributed table, which has columns of its own:
    // each materialized number (migration 0005), then all slot columns in one ALTER per table (0006).
    const n = MATERIALIZED_NUMBERS.length
    const tables = [...Array(n).fill('events_local'), ...Array(n).fill('events'), 'events_local', 'events']
    const alters = ddl.slice(5, 5 + tables.length)
    expect(alters).toHaveLength(tables.length)
    for (const [i, statement] of alters.entries()) expect(statement.startsWith(`alter table ${tables[i]} on cluster \`sl\` add column if not exists `), statement).toBe(true)
    // 0008: the person rows, whole on every node, and a view of each table over them (no copy to drop here).
    const personRows = ddl.slice(5 + tables.length)
    expect(personRows[0]).toMatch(/^create table if not exists person_rows on cluster `sl` \( kind LowCardinality\(String\), project_id Int32, .*\) engine = ReplicatedReplacingMergeTree\('\/clickhouse\/tables\/\{uuid\}\/all', '\{replica\}-\{shard\}', ver\) order by \(kind, project_id, group_type_index, key\)$/)
    expect(personRows.slice(1).map((s) => s.split(' as select')[0])).toEqual(
      ['persons', 'person_distinct_ids', 'person_distinct_id_overrides', 'personless_distinct_ids', 'groups'].map((t) => `create view if not exists "${t}" on cluster \`sl\``),
    )
    // Every statement that creates or changes something names the cluster; the reads are the guards'.
    expect(ddl.every((s) => s.includes('on cluster `sl`'))).toBe(true)
    const reads = sent.filter((r) => r.kind === 'query')
    expect(reads[0]!.sql).toBe(`select engine from system.tables where database = currentDatabase() and name = 'events'`)
    expect(reads.slice(1).map((r) => r.params)).toEqual([{ names: ['persons', 'person_distinct_ids', 'person_distinct_id_overrides', 'personless_distinct_ids', 'groups'] }])
    expect(clusterProblems(sent)).toEqual([])
  })

  it("writes a write's person rows in one insert, then waits until every node has them", async () => {
    const person = '0190f5a0-0000-7000-8000-0000000000b1'
    await driver.personRowsChanged!(db, {
      projectId: 3,
      persons: [{ id: 7, uuid: person, properties: '{"a":1}', is_identified: true, created_at: '2026-01-01T10:00:00.000000Z', version: 2, deleted: false }],
      distinctIds: [{ distinct_id: 'ada', person_uuid: person, version: 1, deleted: false }],
      overrides: [{ distinct_id: 'anon', person_id: person, version: 1, deleted: true }],
      personless: [],
      groups: [],
    })
    // A new adapter starts behind (person-rows.ts): it first looks for person_rows to catch up from, which the
    // recording cluster answers with no row (no table yet), so the write's rows are inserted as told.
    expect(sent.map((r) => r.kind)).toEqual(['query', 'insert', 'command'])
    expect(oneLine(sent[0]!.sql)).toContain("from system.tables where database = currentDatabase() and name = 'person_rows'")
    sent.shift()
    expect(sent[0]).toMatchObject({ sql: 'person_rows' })
    // ver = version * 2 + deleted.
    expect(sent[0]!.rows).toMatchObject([
      { kind: 'persons', project_id: 3, key: person, ver: 4, row_id: 7, row_properties: '{"a":1}', row_is_identified: true, row_created_at: '2026-01-01 10:00:00.000000' },
      { kind: 'person_distinct_ids', project_id: 3, key: 'ada', ver: 2, row_person: person },
      { kind: 'person_distinct_id_overrides', project_id: 3, key: 'anon', ver: 3, row_person: person },
    ])
    expect(oneLine(sent[1]!.sql)).toBe('system sync replica on cluster `sl` person_rows')
    expect(clusterProblems(sent)).toEqual([])
  })

  it("refuses a database that holds single-server events, and creates nothing in it", async () => {
    engineOfEvents = 'ReplacingMergeTree'
    await expect(driver.migrations['clickhouse_0001_events']!.up(db)).rejects.toThrow(/events is a ReplacingMergeTree table here/)
    expect(commands(sent)).toEqual([])
    engineOfEvents = 'Distributed'
    await driver.migrations['clickhouse_0001_events']!.up(db)
    expect(commands(sent)).toHaveLength(2)
  })

  it('inserts into the Distributed events synchronously', async () => {
    expect(await driver.insertEvents(db, [row('0190f5a0-0000-7000-8000-000000000001')])).toBe(1)
    const [check, insert] = sent
    // Several processes write a server: stored uuids are read first, from the Distributed table (a plain read).
    expect(check).toMatchObject({ kind: 'query', sql: 'select toString(uuid) as u from events where project_id = {p:Int32} and has({u:Array(UUID)}, uuid)' })
    expect(insert).toMatchObject({ kind: 'insert', sql: 'events', settings: { distributed_foreground_insert: 1 } })
    expect(insert!.rows).toHaveLength(1)
  })

  it("folds a squash's overrides with a mutation of the shards' local tables on every node", async () => {
    await driver.foldPersonOverrides!(db, 3, [{ distinct_id: 'anon', person_id: '0190f5a0-0000-7000-8000-0000000000b2' }])
    expect(sent).toHaveLength(1)
    expect(oneLine(sent[0]!.sql)).toBe(
      'alter table events_local on cluster `sl` update person_id = {persons:Array(UUID)}[indexOf({ids:Array(String)}, distinct_id)] where project_id = {project:Int32} and has({ids:Array(String)}, distinct_id) settings mutations_sync = 2',
    )
    expect(sent[0]!.params).toEqual({ project: 3, ids: ['anon'], persons: ['0190f5a0-0000-7000-8000-0000000000b2'] })
    expect(clusterProblems(sent)).toEqual([])
  })

  it('refreshes a copy (cohort people) as a table replicated to every node, synced before it is swapped in', async () => {
    await sql`create table cohort_people (project_id integer not null, cohort_id integer not null, person_uuid uuid not null)`.execute(db)
    await sql`insert into cohort_people values (1, 5, '0190f5a0-0000-7000-8000-00000000000b')`.execute(db)
    await sql`select count() as n from events as e left join cohort_people as cp on cp.person_uuid = e.person_id`.execute(db)
    const body =
      '("project_id" Int32, "cohort_id" Int32, "person_uuid" UUID) engine = ReplicatedMergeTree(\'/clickhouse/tables/{uuid}/all\', \'{replica}-{shard}\') order by ("project_id", "cohort_id", "person_uuid")'
    expect(commands(sent)).toEqual([
      'drop table if exists "cohort_people__sightline_next" on cluster `sl` sync',
      `create table "cohort_people__sightline_next" on cluster \`sl\` ${body}`,
      'system sync replica on cluster `sl` "cohort_people__sightline_next"',
      `create table if not exists "cohort_people" on cluster \`sl\` ${body}`,
      'exchange tables "cohort_people__sightline_next" and "cohort_people" on cluster `sl`',
      'drop table "cohort_people__sightline_next" on cluster `sl` sync',
    ])
    // The rows go to the next copy on the node the client reaches, between its creation and the sync.
    const insertAt = sent.findIndex((r) => r.kind === 'insert')
    expect(sent[insertAt]).toMatchObject({ sql: 'cohort_people__sightline_next', rows: [{ project_id: 1, cohort_id: 5 }] })
    expect(oneLine(sent[insertAt - 1]!.sql)).toMatch(/^create table "cohort_people__sightline_next"/)
    expect(oneLine(sent[insertAt + 1]!.sql)).toMatch(/^system sync replica/)
    expect(sent.at(-1)).toMatchObject({ kind: 'query' })
    expect(clusterProblems(sent)).toEqual([])
  })

  it("makes a statement's CTE tables temporary tables of a session of their own, one session per statement", async () => {
    const twice = () => sql`with a as (select distinct_id from events) select count() as n from a join a as b on b.distinct_id = a.distinct_id`.execute(db)
    await twice()
    await twice()
    const cte = sent.filter((r) => r.sql.includes('sightline_cte_'))
    // Per statement: create the table, read it, drop it; all in one session.
    expect(cte.map((r) => `${r.kind} ${oneLine(r.sql).split(' ').slice(0, 3).join(' ')}`)).toEqual([
      'command create temporary table',
      'query select (count() +',
      'command drop temporary table',
      'command create temporary table',
      'query select (count() +',
      'command drop temporary table',
    ])
    const sessions = cte.map((r) => r.session)
    expect(sessions[0]).toMatch(/^[0-9a-f-]{36}$/)
    expect(new Set(sessions.slice(0, 3)).size).toBe(1)
    expect(new Set(sessions.slice(3)).size).toBe(1)
    expect(sessions[3]).not.toBe(sessions[0])
  })
})

describe('removeEvents on a cluster', () => {
  it("deletes from the shards' local tables on every node (a Distributed table takes no DELETE)", async () => {
    const { client, sent } = recordingClient()
    await removeEvents(clientExecutor(client), [row('0190f5a0-0000-7000-8000-000000000001'), { ...row('0190f5a0-0000-7000-8000-000000000002'), project_id: 2 }], clusterTopology('sl'))
    expect(sent.map((r) => [r.sql, r.params])).toEqual([
      ['delete from events_local on cluster `sl` where project_id = {p:Int32} and has({u:Array(UUID)}, uuid)', { p: 1, u: ['0190f5a0-0000-7000-8000-000000000001'] }],
      ['delete from events_local on cluster `sl` where project_id = {p:Int32} and has({u:Array(UUID)}, uuid)', { p: 2, u: ['0190f5a0-0000-7000-8000-000000000002'] }],
    ])
    expect(clusterProblems(sent)).toEqual([])
    // The same undo on one server deletes from events itself, which on a cluster would be the Distributed table.
    const single = recordingClient()
    await removeEvents(clientExecutor(single.client), [row('0190f5a0-0000-7000-8000-000000000001')])
    expect(clusterProblems(single.sent)).toEqual(['DELETE FROM of the Distributed table events: it goes to its local tables ON CLUSTER'])
  })
})
