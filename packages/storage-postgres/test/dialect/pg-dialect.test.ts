import { randomBytes } from 'node:crypto'
import { Kysely, sql } from 'kysely'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPgDialect } from '../../src/dialect/index.js'
import { CancellableQueryScope } from '../../../core/src/query/execution/cancellation.js'
import { dialectContract } from './dialect-contract.js'
import type { DialectHarness, TestDatabase } from './dialect-contract.js'

const url = process.env['SIGHTLINE_PG_URL']

describe.skipIf(!url)('createPgDialect on a Postgres server (skipped unless SIGHTLINE_PG_URL is set)', () => {
  // A schema of its own per run, so runs can share the server.
  const schema = `sl_test_${randomBytes(6).toString('hex')}`
  const searchPath = `-c search_path=${schema}`
  let admin: pg.Client
  // Loaded only when the server tests run: pg is an optional peer dependency.
  let Pg: typeof pg

  beforeAll(async () => {
    Pg = (await import('pg')).default
    admin = new Pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(`create schema ${schema}`)
    await admin.query(`set search_path to ${schema}`)
  })

  afterAll(async () => {
    await admin?.query(`drop schema if exists ${schema} cascade`)
    await admin?.end()
  })

  const raw: DialectHarness['raw'] = async (text, params) => (await admin.query(text, params)).rows

  describe('from a connection string', () => {
    let db: Kysely<TestDatabase>

    beforeAll(() => {
      const withSearchPath = new URL(url!)
      withSearchPath.searchParams.set('options', searchPath)
      db = new Kysely<TestDatabase>({ dialect: createPgDialect({ connectionString: withSearchPath.href }) })
    })

    afterAll(async () => {
      await db?.destroy()
    })

    dialectContract(() => ({ db, raw }), { oneConnection: false, streams: false })
  })

  describe('from a pool the caller owns', () => {
    let pool: pg.Pool
    let db: Kysely<TestDatabase>

    beforeAll(() => {
      pool = new Pg.Pool({ connectionString: url, options: searchPath })
      db = new Kysely<TestDatabase>({ dialect: createPgDialect({ pool }) })
    })

    afterAll(async () => {
      await db?.destroy()
      await pool?.end()
    })

    dialectContract(() => ({ db, raw }), { oneConnection: false, streams: false })

    it('normalises rows without changing the pool for its other users', async () => {
      const query = `select 42::int8 as n, '2026-01-01'::date as d`
      expect((await sql.raw(query).execute(db)).rows).toEqual([{ n: 42, d: '2026-01-01' }])
      const direct = (await pool.query(query)).rows[0]
      expect(direct.n).toBe('42') // pg's own parser: int8 as a string
    })

    it("gives the pool its clients back with their planner settings as they were before an analysis", async () => {
      // One client, so the pool's next query runs on the client the analysis used.
      const single = new Pg.Pool({ connectionString: url, max: 1 })
      const one = new Kysely<TestDatabase>({ dialect: createPgDialect({ pool: single }) })
      try {
        const setting = sql<{ v: string }>`select current_setting('enable_nestloop') as v`
        await single.query('set enable_nestloop = off')
        // Put back as it was (off here), not reset to the server's default.
        expect((await new CancellableQueryScope().run(() => setting.execute(one))).rows).toEqual([{ v: 'off' }])
        expect((await single.query("select current_setting('enable_nestloop') as v")).rows).toEqual([{ v: 'off' }])
        await single.query('set enable_nestloop = on')
        expect((await new CancellableQueryScope().run(() => setting.execute(one))).rows).toEqual([{ v: 'off' }])
        expect((await single.query("select current_setting('enable_nestloop') as v")).rows).toEqual([{ v: 'on' }])
      } finally {
        await one.destroy()
        await single.end()
      }
    })

    it('leaves the pool open on destroy unless told to end it', async () => {
      const borrowed = new Kysely<TestDatabase>({ dialect: createPgDialect({ pool }) })
      await sql`select 1`.execute(borrowed)
      await borrowed.destroy()
      expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }])

      const own = new Pg.Pool({ connectionString: url })
      const owner = new Kysely<TestDatabase>({ dialect: createPgDialect({ pool: own, closeOnDestroy: true }) })
      await sql`select 1`.execute(owner)
      await owner.destroy()
      expect(own.ended).toBe(true)
    })
  })
})
