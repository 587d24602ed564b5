import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Kysely, sql } from 'kysely'
import { DuckDBInstance } from '@duckdb/node-api'
import { createSightline, type Sightline } from '@sightline/core'
import type { EventRow, SightlineDatabase, StorageDriver } from '@sightline/core/storage'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { clickhouseStorage } from '@sightline/storage-clickhouse'
import { openChdb } from './open-chdb.js'

// Asserted rather than annotated: the row's columns follow core's EventRow as its layout changes.
const row = (uuid: string, properties: object = {}): EventRow =>
  ({
  uuid,
  project_id: 1,
  event: 'e',
  distinct_id: 'd',
  timestamp: '2026-01-01T10:00:00.000001Z',
  properties: JSON.stringify(properties),
  group_0: '',
  group_1: '',
  group_2: '',
  group_3: '',
  group_4: '',
  session_id: null,
  inserted_at: '2026-01-01T10:00:01.000000Z',
  elements_chain: '',
  person_id: null,
}) as EventRow

describe('clickhouseStorage: events on ClickHouse, the rest on the companion', () => {
  let chdb: ReturnType<typeof openChdb>
  let instance: DuckDBInstance
  const chCount = async (where = 'true') =>
    Number((await chdb.session.queryAsync(`select count() as n from events where ${where}`, { format: 'JSONEachRow' })).json<{ n: string }>().n)
  const companionCount = async (table: string) => {
    const connection = await instance.connect()
    try {
      return Number((await (await connection.run(`select count(*) as n from ${table}`)).getRowObjectsJS())[0]!.n)
    } finally {
      connection.closeSync()
    }
  }
  const storage = () => clickhouseStorage({ session: chdb.session, companion: duckdbStorage({ instance }) })

  beforeEach(async () => {
    chdb = openChdb()
    instance = await DuckDBInstance.create(':memory:')
  })
  afterEach(async () => {
    instance.closeSync()
    await chdb.close()
  })

  it('captured events are in ClickHouse with their hot properties computed there; persons in the companion', async () => {
    let sightline: Sightline | undefined
    try {
      sightline = await createSightline({ storage: storage(), clock: () => new Date('2026-03-01T12:00:00Z') })
      const org = await sightline.organizations.create({ name: 'Acme' })
      const project = await sightline.projects.create({ organizationId: org.id, name: 'Web', timezone: 'UTC' })
      await sightline.capture(project.id, [{ event: '$pageview', distinctId: 'ada', properties: { $browser: 'Firefox', $os: 42 } }])
      const [stored] = (await chdb.session.queryAsync('select event, mp_browser, mp_os, mp_pathname from events', { format: 'JSONEachRow' })).text().trim().split('\n').map((l) => JSON.parse(l))
      // jsonText: a string unquoted, a number as its JSON text, a missing key null.
      expect(stored).toEqual({ event: '$pageview', mp_browser: 'Firefox', mp_os: '42', mp_pathname: null })
      expect(await companionCount('events')).toBe(0)
      expect(await companionCount('persons')).toBe(1)
    } finally {
      await sightline?.close()
    }
  })

  describe('insertEvents and transactions', () => {
    let driver: StorageDriver
    let db: Kysely<SightlineDatabase>
    beforeEach(async () => {
      driver = await storage().open()
      db = new Kysely<SightlineDatabase>({ dialect: driver.dialect })
      // The adapter's own ClickHouse migration, run as core runs it.
      await driver.migrations['clickhouse_0001_events']!.up(db)
    })
    afterEach(async () => {
      await db.destroy()
      await driver.close()
    })

    it('writes at once outside a transaction, at commit inside one, and never for a rolled back one', async () => {
      expect(await driver.insertEvents(db, [row('0190f5a0-0000-7000-8000-000000000001')])).toBe(1)
      expect(await chCount()).toBe(1)
      await db.transaction().execute(async (trx) => {
        await driver.insertEvents(trx, [row('0190f5a0-0000-7000-8000-000000000002'), row('0190f5a0-0000-7000-8000-000000000003')])
        expect(await chCount()).toBe(1)
      })
      expect(await chCount()).toBe(3)
      const failed = db.transaction().execute(async (trx) => {
        await driver.insertEvents(trx, [row('0190f5a0-0000-7000-8000-000000000004')])
        throw new Error('abandoned')
      })
      await expect(failed).rejects.toThrow('abandoned')
      expect(await chCount()).toBe(3)
    })

    it("refreshes ClickHouse's copy of a person table before a read of events names it, after writes commit", async () => {
      await sql`create table person_distinct_ids (project_id integer not null, distinct_id text not null, person_uuid uuid not null, version integer not null)`.execute(db)
      await driver.insertEvents(db, [row('0190f5a0-0000-7000-8000-000000000001')])
      const joined = () =>
        sql<{ p: string | null }>`select toString(pdi.person_uuid) as p from events as e left join person_distinct_ids as pdi on pdi.project_id = e.project_id and pdi.distinct_id = e.distinct_id`
          .execute(db)
          .then((r) => r.rows.map((x) => x.p))
      // The outer join's missing side is null, as in SQL (ClickHouse's default would be a zero UUID).
      expect(await joined()).toEqual([null])
      const person = '0190f5a0-0000-7000-8000-00000000000b'
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('person_distinct_ids').values({ project_id: 1, distinct_id: 'd', person_uuid: person, version: 0 }).execute()
        // Read inside the writing transaction: the copy may hold its rows, and is refreshed again once it ends.
        expect(await sql`select count() as n from events`.execute(trx)).toMatchObject({ rows: [{ n: 1 }] })
      })
      expect(await joined()).toEqual([person])
      const rolledBack = db.transaction().execute(async (trx) => {
        await trx.deleteFrom('person_distinct_ids').execute()
        expect(await sql<{ p: string }>`select toString(pdi.person_uuid) as p from events as e left join person_distinct_ids as pdi on pdi.distinct_id = e.distinct_id`.execute(trx)).toMatchObject({ rows: [{ p: null }] })
        throw new Error('abandoned')
      })
      await expect(rolledBack).rejects.toThrow('abandoned')
      expect(await joined()).toEqual([person])
    })

    it('keeps an override the companion deleted (core squashed it into events there, not on ClickHouse); a later one for the key replaces it', async () => {
      await sql`create table person_distinct_id_overrides (project_id integer not null, distinct_id text not null, person_id uuid not null)`.execute(db)
      await driver.insertEvents(db, [row('0190f5a0-0000-7000-8000-000000000001')])
      const persons = () =>
        sql<{ p: string | null }>`select toString(ov.person_id) as p from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id`
          .execute(db)
          .then((r) => r.rows.map((x) => x.p))
      const [p2, p3] = ['0190f5a0-0000-7000-8000-0000000000b2', '0190f5a0-0000-7000-8000-0000000000b3']
      await db.insertInto('person_distinct_id_overrides' as never).values({ project_id: 1, distinct_id: 'd', person_id: p2 } as never).execute()
      expect(await persons()).toEqual([p2])
      await db.deleteFrom('person_distinct_id_overrides' as never).execute()
      expect(await persons()).toEqual([p2])
      await db.insertInto('person_distinct_id_overrides' as never).values({ project_id: 1, distinct_id: 'd', person_id: p3 } as never).execute()
      // One row per key: the join does not double the event.
      expect(await persons()).toEqual([p3])
    })

    it('keeps an override created and deleted before any read of events named it (a squash between two analyses)', async () => {
      await sql`create table person_distinct_id_overrides (project_id integer not null, distinct_id text not null, person_id uuid not null)`.execute(db)
      await driver.insertEvents(db, [row('0190f5a0-0000-7000-8000-000000000001')])
      const p2 = '0190f5a0-0000-7000-8000-0000000000b2'
      await db.insertInto('person_distinct_id_overrides' as never).values({ project_id: 1, distinct_id: 'd', person_id: p2 } as never).execute()
      await db.transaction().execute((trx) => trx.deleteFrom('person_distinct_id_overrides' as never).execute())
      const { rows } = await sql<{ p: string | null }>`select toString(ov.person_id) as p from events as e left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id`.execute(db)
      expect(rows.map((r) => r.p)).toEqual([p2])
    })

    it('sends reads of events to ClickHouse and everything else to the companion', async () => {
      await driver.insertEvents(db, [row('0190f5a0-0000-7000-8000-000000000001', { $browser: 'x' })])
      const events = await db.selectFrom('events').select(['uuid', 'timestamp', 'properties']).execute()
      expect(events).toEqual([{ uuid: '0190f5a0-0000-7000-8000-000000000001', timestamp: '2026-01-01T10:00:00.000001Z', properties: { $browser: 'x' } }])
      // ClickHouse's own function: a read of events runs there.
      const { rows } = await sql<{ v: string }>`select toTypeName(timestamp) as v from events`.execute(db)
      expect(rows).toEqual([{ v: "DateTime64(6, 'UTC')" }])
      // A table ClickHouse does not have: the companion answers.
      await sql`create table notes (t text)`.execute(db)
      await db.insertInto('notes' as never).values({ t: 'n' } as never).execute()
      expect(await db.selectFrom('notes' as never).selectAll().execute()).toEqual([{ t: 'n' }])
    })
  })
})
