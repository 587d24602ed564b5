import { DuckDBInstance } from '@duckdb/node-api'
import { CompiledQuery, Kysely, sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { DuckDBDialect } from '../../src/dialect/index.js'
import type { DuckDBConnection, DuckDBRawConnection } from '../../src/dialect/index.js'

/** The real instance, counting the connections it opens and closes. */
function countingInstance(instance: DuckDBInstance) {
  const counts = { opened: 0, closed: 0 }

  return {
    counts,
    async connect(): Promise<DuckDBRawConnection> {
      const connection = await instance.connect()
      counts.opened++

      return Object.assign(Object.create(connection) as DuckDBRawConnection, {
        disconnectSync() {
          counts.closed++
          connection.disconnectSync()
        },
      })
    },
  }
}

describe('connection pool', () => {
  let instance: DuckDBInstance

  beforeEach(async () => {
    instance = await DuckDBInstance.create(':memory:')
  })

  afterEach(() => {
    instance.closeSync()
  })

  it('runs more parallel queries than poolSize on at most poolSize connections', async () => {
    const counting = countingInstance(instance)
    const db = new Kysely<any>({ dialect: new DuckDBDialect({ instance: counting, poolSize: 3 }) })

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        sql<{ i: number; total: number }>`select ${i}::integer as i, sum(range)::bigint as total from range(100000)`
          .execute(db)
          .then((result) => result.rows[0]),
      ),
    )

    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => ({ i, total: 4999950000 })))
    expect(counting.counts.opened).toBe(3)

    await db.destroy()
    expect(counting.counts.closed).toBe(3)
  })

  it('defaults poolSize to 4', async () => {
    const counting = countingInstance(instance)
    const db = new Kysely<any>({ dialect: new DuckDBDialect({ instance: counting }) })

    await Promise.all(Array.from({ length: 10 }, () => sql`select 1`.execute(db)))

    expect(counting.counts.opened).toBe(4)
    await db.destroy()
  })

  it('makes an acquire wait while every connection is busy, and hands over the released one', async () => {
    const db = new Kysely<any>({ dialect: new DuckDBDialect({ instance, poolSize: 1 }) })
    const events: string[] = []
    let release!: () => void
    const held = new Promise<void>((resolve) => {
      release = resolve
    })

    let entered!: () => void
    const holding = new Promise<void>((resolve) => {
      entered = resolve
    })

    const transaction = db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx)
      events.push('transaction holds the only connection')
      entered()
      await held
      events.push('transaction done')
    })
    await holding

    const waiting = sql`select 2`.execute(db).then(() => events.push('waiting query ran'))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(events).toEqual(['transaction holds the only connection'])

    release()
    await Promise.all([transaction, waiting])
    expect(events).toEqual(['transaction holds the only connection', 'transaction done', 'waiting query ran'])

    await db.destroy()
  })

  it('calls onCreateConnection once per opened connection, before its first query', async () => {
    const seen: DuckDBConnection[] = []
    const db = new Kysely<any>({
      dialect: new DuckDBDialect({
        instance,
        poolSize: 2,
        async onCreateConnection(connection) {
          seen.push(connection)
          await connection.executeQuery(CompiledQuery.raw("SET VARIABLE greeting = 'hello'"))
        },
      }),
    })

    const rows = await Promise.all(
      Array.from({ length: 6 }, () => sql<{ g: string }>`select getvariable('greeting') as g`.execute(db)),
    )

    expect(rows.map((result) => result.rows)).toEqual(Array.from({ length: 6 }, () => [{ g: 'hello' }]))
    expect(seen).toHaveLength(2)
    expect(seen[0]?.raw).toBeDefined()
    await db.destroy()
  })

  it('fails the query whose connection onCreateConnection rejects, and recovers for the next', async () => {
    const counting = countingInstance(instance)
    let calls = 0
    const db = new Kysely<any>({
      dialect: new DuckDBDialect({
        instance: counting,
        poolSize: 1,
        async onCreateConnection() {
          calls++
          if (calls === 1) {
            throw new Error('setup failed')
          }
        },
      }),
    })

    await expect(sql`select 1`.execute(db)).rejects.toThrow('setup failed')
    expect(counting.counts.closed).toBe(1)
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }])
    await db.destroy()
  })

  it('closes a connection in use when it is released after destroy, and destroy waits for it', async () => {
    const counting = countingInstance(instance)
    const db = new Kysely<any>({ dialect: new DuckDBDialect({ instance: counting, poolSize: 2 }) })
    const events: string[] = []
    let release!: () => void
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let entered!: () => void
    const holding = new Promise<void>((resolve) => {
      entered = resolve
    })
    const transaction = db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx)
      entered()
      await held
      events.push('transaction done')
    })
    await holding

    const destroyed = db.destroy().then(() => events.push('destroyed'))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(counting.counts.closed).toBe(0)

    release()
    await Promise.all([transaction, destroyed])
    expect(events).toEqual(['transaction done', 'destroyed'])
    expect(counting.counts).toEqual({ opened: 1, closed: 1 })
  })

  it('closes its connections on destroy, leaves the instance open, and refuses later queries', async () => {
    const counting = countingInstance(instance)
    const db = new Kysely<any>({ dialect: new DuckDBDialect({ instance: counting, poolSize: 2 }) })
    await Promise.all([sql`select 1`.execute(db), sql`select 2`.execute(db)])

    await db.destroy()

    expect(counting.counts).toEqual({ opened: 2, closed: 2 })
    await expect(sql`select 1`.execute(db)).rejects.toThrow()
    const other = await instance.connect()
    expect((await other.run('select 42 as n')).rowCount).toBe(1)
    other.disconnectSync()
  })

  it('rejects a poolSize that is not a positive integer', () => {
    for (const poolSize of [0, -1, 1.5, Number.NaN]) {
      expect(() => new Kysely<any>({ dialect: new DuckDBDialect({ instance, poolSize }) })).toThrow(
        'poolSize must be a positive integer',
      )
    }
  })
})
