import { DuckDBInstance } from '@duckdb/node-api'
import { Kysely, sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { DuckDBDialect } from '../../src/dialect/index.js'
import type { DuckDBRawConnection, DuckDBRawPrepared } from '../../src/dialect/index.js'
import { PREPARED_STATEMENTS_PER_CONNECTION } from '../../src/dialect/prepared-statements.js'

/** The real instance, recording each statement its connections prepare and destroy. */
function recordingInstance(instance: DuckDBInstance) {
  const prepared: string[] = []
  const destroyed: string[] = []
  return {
    prepared,
    destroyed,
    async connect(): Promise<DuckDBRawConnection> {
      const connection = await instance.connect()
      return Object.assign(Object.create(connection) as DuckDBRawConnection, {
        async prepare(text: string): Promise<DuckDBRawPrepared> {
          const statement = await connection.prepare(text)
          prepared.push(text)
          return Object.assign(Object.create(statement) as DuckDBRawPrepared, {
            destroySync() {
              destroyed.push(text)
              statement.destroySync()
            },
          })
        },
      })
    },
  }
}

describe('prepared statements', () => {
  let instance: DuckDBInstance
  let recording: ReturnType<typeof recordingInstance>
  let db: Kysely<any>

  beforeEach(async () => {
    instance = await DuckDBInstance.create(':memory:')
    recording = recordingInstance(instance)
    db = new Kysely<any>({ dialect: new DuckDBDialect({ instance: recording, poolSize: 1 }) })
    await sql`create table t (id integer, name text)`.execute(db)
    await sql`insert into t values (1, 'a'), (2, 'b')`.execute(db)
  })

  afterEach(async () => {
    await db.destroy()
    instance.closeSync()
  })

  it('prepares a statement with values once and binds each run anew', async () => {
    const names = []
    for (const id of [1, 2, 1]) names.push((await db.selectFrom('t').select('name').where('id', '=', id).executeTakeFirst())?.name)
    expect(names).toEqual(['a', 'b', 'a'])
    expect(recording.prepared).toEqual(['select "name" from "t" where "id" = $1'])
  })

  it('reads the table as it is now after a column was added since the statement was prepared', async () => {
    const read = () => db.selectFrom('t').selectAll().where('id', '=', 1).execute()
    expect(await read()).toEqual([{ id: 1, name: 'a' }])
    await sql`alter table t add column extra integer default 7`.execute(db)
    expect(await read()).toEqual([{ id: 1, name: 'a', extra: 7 }])
    await sql`alter table t drop column name`.execute(db)
    expect(await read()).toEqual([{ id: 1, extra: 7 }])
  })

  it('drops a statement whose run failed, and prepares it again for the next run', async () => {
    await sql`create unique index t_id on t (id)`.execute(db)
    const insert = (id: number) => db.insertInto('t').values({ id, name: 'x' }).execute()
    await insert(3)
    await expect(insert(3)).rejects.toThrow(/duplicate key|constraint/i)
    await insert(4)
    const text = 'insert into "t" ("id", "name") values ($1, $2)'
    expect(recording.prepared.filter((s) => s === text)).toHaveLength(2)
    expect(recording.destroyed).toEqual([text])
    expect((await db.selectFrom('t').select('id').orderBy('id').execute()).map((r) => r.id)).toEqual([1, 2, 3, 4])
  })

  it(`keeps the ${PREPARED_STATEMENTS_PER_CONNECTION} most recently used statements a connection and frees the others`, async () => {
    const runBound = async (n: number) => Number((await sql<{ v: number }>`select ${sql.lit(n)} + ${1} as v`.execute(db)).rows[0]!.v)
    for (let n = 0; n <= PREPARED_STATEMENTS_PER_CONNECTION; n++) expect(await runBound(n)).toBe(n + 1)
    // The first statement was the least recently used when the last one came: it is freed, the rest are kept.
    expect(recording.destroyed).toEqual(['select 0 + $1 as v'])
    expect(await runBound(1)).toBe(2)
    expect(recording.prepared.filter((s) => s === 'select 1 + $1 as v')).toHaveLength(1)
    await db.destroy()
    // Closing the connection frees every statement it kept.
    expect(recording.destroyed).toHaveLength(PREPARED_STATEMENTS_PER_CONNECTION + 1)
    db = new Kysely<any>({ dialect: new DuckDBDialect({ instance: recording, poolSize: 1 }) })
  })
})
