/**
 * The numeric hot-property columns (core's MATERIALIZED_NUMBERS) hold, for
 * every captured event, the numeric reading queries would otherwise make of
 * the stored JSON: the database's own `textToDouble(jsonText(properties,
 * key))`, computed here next to the column in the same row. Random JSON
 * values: numbers, texts that spell numbers or nearly do (spaces, `+`,
 * exponents out of range), booleans, nulls, nested values. Worked examples
 * pin what that reading is (SQL_NUMBER_PATTERN, derived by hand). A trend sum
 * and a numeric filter read the column and give the hand-counted answer; a
 * database written before the columns gets them filled by the migration.
 *
 * Cost: SIGHTLINE_MATERIALIZED_RUNS (default 10) captures of up to 8 events
 * per storage; about 3 s of CPU on DuckDB and PGlite together.
 */
import fc from 'fast-check'
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MATERIALIZED_NUMBERS, type StorageAdapter } from '@sightline/core/storage'
import { createSightline } from '@sightline/core'
import { openEngine, type Engine } from '../conformance/harness.js'
import { describePropertySkip, propertyTargets } from '../filters/filter-db.js'
import { writtenBefore } from './written-before.js'

const RUNS = Number(process.env.SIGHTLINE_MATERIALIZED_RUNS ?? 10)
const KEYS = MATERIALIZED_NUMBERS.map((p) => p.key)

// Compiled with no database: the storage's hooks, `$n` placeholders as the raw readers take them.
const compiler = new Kysely<any>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
})

const numberish = fc.stringMatching(/^[ +-]?[0-9]{0,3}[.]?[0-9]{0,3}([eE][+-]?[0-9]{1,4})?[ x]?$/)
const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: numberish, weight: 4 },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).map(String), weight: 2 },
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom('12', '1e3', ' 3 ', '+3', '.5', '5.', '-0', '1e400', '1e-400', '0e999', 'Infinity', 'NaN', '0x10', ''),
  fc.boolean(),
  fc.constant(null),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
  fc.array(fc.integer(), { maxLength: 2 }),
)
const properties = fc.dictionary(fc.constantFrom(...KEYS, 'other'), jsonValue, { maxKeys: 5 })

/** `select uuid, <column>, <the JSON's numeric reading> ... from events where project_id = $1`, in `storage`'s spelling. */
function columnAndReading(storage: StorageAdapter, projectId: number): { sql: string; parameters: ReadonlyArray<unknown> } {
  const h = storage.sql
  const reads = MATERIALIZED_NUMBERS.flatMap(({ key, column }) => [
    sql`${sql.ref(column)} as ${sql.id(column)}`,
    sql`${h.textToDouble(h.jsonText(sql.ref('properties'), key))} as ${sql.id(`r_${column}`)}`,
  ])
  return sql`select cast(uuid as text) as id, ${sql.join(reads)} from events where project_id = ${projectId}`.compile(compiler)
}

const uuidOf = (i: number) => `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`
describePropertySkip()

describe.each(propertyTargets)('numeric hot-property columns on $name', (target) => {
  let e: Engine & { close(): Promise<void> }
  let storage: StorageAdapter
  beforeAll(async () => {
    e = await openEngine(target)
    storage = e.db.storage()
  })
  afterAll(() => e?.close())

  const read = async (projectId: number) => {
    const q = columnAndReading(storage, projectId)
    return e.db.raw<Record<string, unknown>>(q.sql, [...q.parameters])
  }
  const asNumber = (v: unknown) => (v === null ? null : Number(v))

  it('hold the numeric reading of the JSON for random values', async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.array(properties, { minLength: 1, maxLength: 8 }), async (sent) => {
        const projectId = (await e.sightline.projects.create({ organizationId: e.organizationId, name: `n${++run}` })).id
        await e.sightline.capture(projectId, sent.map((p, i) => ({ event: 'e', distinctId: `d${i}`, uuid: uuidOf(i), properties: p })))
        const rows = await read(projectId)
        expect(rows).toHaveLength(sent.length)
        for (const row of rows) {
          for (const { key, column } of MATERIALIZED_NUMBERS) {
            expect(asNumber(row[column]), `${key} of ${JSON.stringify(sent[Number(String(row.id).slice(-12)) - 1])}`).toBe(asNumber(row[`r_${column}`]))
          }
        }
      }),
      { numRuns: RUNS },
    )
  })

  // Derived by hand from SQL_NUMBER_PATTERN and the magnitude bounds of SqlHooks.textToDouble.
  const EXAMPLES: ReadonlyArray<readonly [unknown, number | null]> = [
    [1920, 1920],
    ['12', 12],
    ['1e3', 1000],
    [' 3 ', null],
    ['+3', null],
    ['.5', 0.5],
    ['5.', 5],
    [-2.5, -2.5],
    ['1e400', null],
    ['1e-400', null],
    ['0e999', 0],
    ['1e9999', null],
    [true, null],
    [{ a: 1 }, null],
    [[1], null],
    ['', null],
  ]

  it('read as worked examples say, in a sum, a p90 and a numeric filter', async () => {
    const projectId = (await e.sightline.projects.create({ organizationId: e.organizationId, name: 'examples', timezone: 'UTC' })).id
    await e.sightline.capture(
      projectId,
      EXAMPLES.map(([value], i) => ({ event: 'view', distinctId: `d${i}`, uuid: uuidOf(i), timestamp: '2026-02-27T10:00:00Z', properties: { $screen_width: value } })),
    )
    const rows = await read(projectId)
    const byIndex = new Map(rows.map((r) => [Number(String(r.id).slice(-12)) - 1, asNumber(r.mpn_screen_width)]))
    EXAMPLES.forEach(([value, expected], i) => expect(byIndex.get(i), JSON.stringify(value)).toBe(expected))

    const day = { date_from: '2026-02-27', date_to: '2026-02-27', interval: 'day' } as const
    const trend = async (math: 'sum' | 'p90', properties: Array<{ key: string; value: number; operator: 'gt' }> = []) =>
      ((await e.sightline.query.trend(projectId, { events: [{ id: 'view', math, math_property: '$screen_width' }], properties, ...day })).result as Array<{ data: number[] }>)[0]!.data
    // The numbers: 1920, 12, 1000, 0.5, 5, -2.5, 0.
    expect(await trend('sum')).toEqual([1920 + 12 + 1000 + 0.5 + 5 - 2.5])
    // Sorted: -2.5, 0, 0.5, 5, 12, 1000, 1920; position 0.9 * 6 = 5.4: 1000 + 0.4 * (1920 - 1000).
    const [p90] = await trend('p90')
    expect(p90).toBeCloseTo(1368, 9)
    // Over 10: 1920, 12, 1000.
    expect(await trend('sum', [{ key: '$screen_width', value: 10, operator: 'gt' }])).toEqual([2932])
  })

  it('are filled by the migration for events stored before they existed', async () => {
    const fresh = await target.fresh()
    try {
      await writtenBefore(fresh, [
        { event: 'a', distinctId: 'a', uuid: uuidOf(0), properties: { $screen_width: 1280, $screen_height: '720', $viewport_width: 'wide' } },
        { event: 'b', distinctId: 'b', uuid: uuidOf(1), properties: { $viewport_height: 1e3 } },
      ])
      // Back to the schema before the columns: no columns, no migration record.
      for (const { column } of MATERIALIZED_NUMBERS) await fresh.raw(`alter table events drop column ${column}`)
      await fresh.raw(`delete from sightline_migrations where name = 'core_0011_materialized_numbers'`)
      const reopened = await createSightline({ storage: fresh.storage() })
      await reopened.close()
      const rows = await fresh.raw<Record<string, unknown>>(`select event, mpn_screen_width, mpn_screen_height, mpn_viewport_width, mpn_viewport_height from events order by event`)
      expect(rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'event' ? v : asNumber(v)])))).toEqual([
        { event: 'a', mpn_screen_width: 1280, mpn_screen_height: 720, mpn_viewport_width: null, mpn_viewport_height: null },
        { event: 'b', mpn_screen_width: null, mpn_screen_height: null, mpn_viewport_width: null, mpn_viewport_height: 1000 },
      ])
    } finally {
      await fresh.dispose()
    }
  })
})
