import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { openTestDb } from './open-test-db.js'
import type { TestDb } from './open-test-db.js'

describe('CRUD through the query builder', () => {
  let t: TestDb

  beforeEach(async () => {
    t = await openTestDb()
    await t.db.schema
      .createTable('person')
      .addColumn('id', 'integer', (col) => col.primaryKey())
      .addColumn('name', 'varchar', (col) => col.notNull())
      .addColumn('visits', 'integer', (col) => col.notNull().defaultTo(0))
      .execute()
  })

  afterEach(async () => {
    await t.close()
  })

  it('inserts, selects, updates and deletes, reporting affected rows as bigint', async () => {
    const inserted = await t.db
      .insertInto('person')
      .values([
        { id: 1, name: 'Ada' },
        { id: 2, name: 'Grace', visits: 3 },
      ])
      .executeTakeFirstOrThrow()
    expect(inserted.numInsertedOrUpdatedRows).toBe(2n)
    expect(await t.rawQuery('select id, name, visits from person order by id')).toEqual([
      { id: 1, name: 'Ada', visits: 0 },
      { id: 2, name: 'Grace', visits: 3 },
    ])

    expect(await t.db.selectFrom('person').select(['id', 'name']).where('visits', '>', 1).execute()).toEqual([
      { id: 2, name: 'Grace' },
    ])

    const updated = await t.db
      .updateTable('person')
      .set((eb) => ({ visits: eb('visits', '+', 1) }))
      .executeTakeFirstOrThrow()
    expect(updated.numUpdatedRows).toBe(2n)

    const deleted = await t.db.deleteFrom('person').where('id', '=', 1).executeTakeFirstOrThrow()
    expect(deleted.numDeletedRows).toBe(1n)
    expect(await t.rawQuery('select id, visits from person')).toEqual([{ id: 2, visits: 4 }])
  })

  it('returns rows and counts them with RETURNING on insert, update and delete', async () => {
    expect(
      await t.db.insertInto('person').values({ id: 1, name: 'Ada' }).returning(['id', 'visits']).execute(),
    ).toEqual([{ id: 1, visits: 0 }])

    const updated = await t.db
      .updateTable('person')
      .set({ name: 'Ada L.' })
      .where('id', '=', 1)
      .returningAll()
      .executeTakeFirstOrThrow()
    expect(updated).toEqual({ id: 1, name: 'Ada L.', visits: 0 })

    expect(await t.db.deleteFrom('person').returning('name').execute()).toEqual([{ name: 'Ada L.' }])
  })

  it('reports numAffectedRows for a write with RETURNING, where DuckDB reports rowsChanged as 0', async () => {
    const result = await t.db.executeQuery(
      t.db
        .insertInto('person')
        .values([
          { id: 1, name: 'a' },
          { id: 2, name: 'b' },
        ])
        .returning('id')
        .compile(),
    )

    expect(result.numAffectedRows).toBe(2n)
    expect(result.rows).toEqual([{ id: 1 }, { id: 2 }])
  })

  it('leaves a write without RETURNING with no rows (DuckDB answers with a "Count" row)', async () => {
    const result = await t.db.executeQuery(t.db.insertInto('person').values({ id: 1, name: 'a' }).compile())

    expect(result).toEqual({ numAffectedRows: 1n, rows: [] })
  })

  it('skips conflicting rows with ON CONFLICT DO NOTHING', async () => {
    await t.db.insertInto('person').values({ id: 1, name: 'Ada' }).execute()

    const result = await t.db
      .insertInto('person')
      .values([
        { id: 1, name: 'Other' },
        { id: 2, name: 'Grace' },
      ])
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirstOrThrow()

    expect(result.numInsertedOrUpdatedRows).toBe(1n)
    expect(await t.rawQuery('select id, name from person order by id')).toEqual([
      { id: 1, name: 'Ada' },
      { id: 2, name: 'Grace' },
    ])
  })

  it('updates conflicting rows with ON CONFLICT DO UPDATE, excluded and a WHERE', async () => {
    await t.db.insertInto('person').values({ id: 1, name: 'Ada', visits: 1 }).execute()

    const returned = await t.db
      .insertInto('person')
      .values({ id: 1, name: 'Ada L.', visits: 5 })
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet((eb) => ({ name: eb.ref('excluded.name'), visits: eb('person.visits', '+', eb.ref('excluded.visits')) }))
          .where('person.visits', '<', 10),
      )
      .returningAll()
      .execute()

    expect(returned).toEqual([{ id: 1, name: 'Ada L.', visits: 6 }])
  })

  it('rejects ON CONFLICT ON CONSTRAINT, which DuckDB does not implement', async () => {
    await expect(
      t.db
        .insertInto('person')
        .values({ id: 1, name: 'Ada' })
        .onConflict((oc) => oc.constraint('person_pkey').doNothing())
        .execute(),
    ).rejects.toThrow(/ON CONSTRAINT/)
  })

  it('runs MERGE and reports the rows it changed', async () => {
    await t.db.insertInto('person').values({ id: 1, name: 'Ada' }).execute()
    await t.db.schema.createTable('person_update').addColumn('id', 'integer').addColumn('name', 'varchar').execute()
    await t.db
      .insertInto('person_update')
      .values([
        { id: 1, name: 'Ada L.' },
        { id: 2, name: 'Grace' },
      ])
      .execute()

    const result = await t.db
      .mergeInto('person as target')
      .using('person_update as source', 'source.id', 'target.id')
      .whenMatched()
      .thenUpdateSet({ name: sql.ref('source.name') })
      .whenNotMatched()
      .thenInsertValues({ id: sql.ref('source.id'), name: sql.ref('source.name') })
      .executeTakeFirstOrThrow()

    expect(result.numChangedRows).toBe(2n)
    expect(await t.rawQuery('select id, name from person order by id')).toEqual([
      { id: 1, name: 'Ada L.' },
      { id: 2, name: 'Grace' },
    ])
  })
})
