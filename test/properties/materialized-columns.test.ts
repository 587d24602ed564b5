/**
 * The materialized property columns (core's MATERIALIZED_PROPERTIES) hold,
 * for every captured event, what reading the property out of the stored JSON
 * gives: the string itself, 'true'/'false', a number or a nested value in
 * JSON spelling (read back here with JSON.parse, so either database's
 * spacing passes), null when the property is missing or JSON null. Queries
 * read the column instead of the JSON, so this is what keeps their answers.
 * Also: a database written before the columns existed gets them filled by
 * the migration.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MATERIALIZED_PROPERTIES, MATERIALIZED_PROPERTIES_0007, MATERIALIZED_PROPERTIES_0013 } from '@sightline/core/storage'
import { createSightline } from '@sightline/core'
import { openEngine, type Engine } from '../conformance/harness.js'
import { describePropertySkip, propertyTargets } from '../filters/filter-db.js'
import { writtenBefore } from './written-before.js'

const RUNS = Number(process.env.SIGHTLINE_MATERIALIZED_RUNS ?? 15)
const KEYS = MATERIALIZED_PROPERTIES.map((p) => p.key)

const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }), weight: 4 },
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.oneof(fc.integer(), fc.string({ maxLength: 3 })), { maxKeys: 2 }),
  fc.array(fc.oneof(fc.integer(), fc.boolean()), { maxLength: 3 }),
)
const properties = fc.dictionary(fc.constantFrom(...KEYS, 'other', '$pathname '), jsonValue, { maxKeys: 6 })

/** What the column must hold for `value` sent under its key; `undefined`: the property was not sent. */
function check(column: unknown, value: unknown, where: string): void {
  if (value === undefined || value === null) return expect(column, where).toBeNull()
  if (typeof value === 'string') return expect(column, where).toBe(value)
  expect(typeof column, where).toBe('string')
  // -0 is stored as 0 by JSON itself.
  expect(JSON.parse(column as string), where).toEqual(JSON.parse(JSON.stringify(value)))
}

describePropertySkip()

describe.each(propertyTargets)('materialized property columns on $name', (target) => {
  let e: Engine & { close(): Promise<void> }
  beforeAll(async () => {
    e = await openEngine(target)
  })
  afterAll(() => e?.close())

  // Prefixed, so the raw reader does not turn a numeric text into a number (null stays null).
  const columns = MATERIALIZED_PROPERTIES.map((p) => `'s' || ${p.column} as ${p.column}`).join(', ')
  const unprefixed = (v: unknown) => (typeof v === 'string' ? v.slice(1) : v)

  it('hold each captured event property as the JSON read gives it', async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.array(properties, { minLength: 1, maxLength: 8 }), async (sent) => {
        const projectId = (await e.sightline.projects.create({ organizationId: e.organizationId, name: `m${++run}` })).id
        const inputs = sent.map((p, i) => ({ event: 'e', distinctId: `d${i}`, uuid: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`, properties: p }))
        await e.sightline.capture(projectId, inputs)
        const rows = await e.db.raw<Record<string, unknown>>(`select cast(uuid as varchar) as id, ${columns} from events where project_id = $1`, [projectId])
        expect(rows).toHaveLength(sent.length)
        for (const row of rows) {
          const i = Number(String(row.id).slice(-12)) - 1
          for (const { key, column } of MATERIALIZED_PROPERTIES) check(unprefixed(row[column]), sent[i]![key], `${key} of ${JSON.stringify(sent[i])}`)
        }
      }),
      { numRuns: RUNS },
    )
  })

  it('are filled by the migration for events stored before they existed', async () => {
    const fresh = await target.fresh()
    try {
      await writtenBefore(fresh, [
        { event: '$pageview', distinctId: 'a', properties: { $current_url: 'https://x.test/a', $browser: 'Firefox', utm_source: 7 } },
        { event: 'signup', distinctId: 'b', properties: { $os: 'Mac OS X' } },
      ])
      // Back to the schema before the columns: no columns, no migration record.
      for (const { column } of MATERIALIZED_PROPERTIES_0007) await fresh.raw(`alter table events drop column ${column}`)
      await fresh.raw(`delete from sightline_migrations where name = 'core_0007_materialized_properties'`)
      const reopened = await createSightline({ storage: fresh.storage() })
      await reopened.close()
      const rows = await fresh.raw<Record<string, unknown>>(`select event, mp_current_url, mp_browser, mp_os, 's' || mp_utm_source as mp_utm_source, mp_pathname from events order by event`)
      expect(rows).toEqual([
        { event: '$pageview', mp_current_url: 'https://x.test/a', mp_browser: 'Firefox', mp_os: null, mp_utm_source: 's7', mp_pathname: null },
        { event: 'signup', mp_current_url: null, mp_browser: null, mp_os: 'Mac OS X', mp_utm_source: null, mp_pathname: null },
      ])
    } finally {
      await fresh.dispose()
    }
  })

  it('get $screen_name filled by its own migration for events stored before it', async () => {
    const fresh = await target.fresh()
    try {
      await writtenBefore(fresh, [
        { event: '$screen', distinctId: 'a', properties: { $screen_name: 'Home', $os: 'iOS' } },
        { event: '$screen', distinctId: 'b', properties: { $screen_name: 42 } },
        { event: 'tap', distinctId: 'c', properties: {} },
      ])
      // Back to the schema before core_0013: the 0007 columns stay, as they were.
      for (const { column } of MATERIALIZED_PROPERTIES_0013) await fresh.raw(`alter table events drop column ${column}`)
      await fresh.raw(`delete from sightline_migrations where name = 'core_0013_screen_name'`)
      const reopened = await createSightline({ storage: fresh.storage() })
      await reopened.close()
      const rows = await fresh.raw<Record<string, unknown>>(`select distinct_id, 's' || mp_screen_name as mp_screen_name, mp_os from events order by distinct_id`)
      expect(rows).toEqual([
        { distinct_id: 'a', mp_screen_name: 'sHome', mp_os: 'iOS' },
        { distinct_id: 'b', mp_screen_name: 's42', mp_os: null },
        { distinct_id: 'c', mp_screen_name: null, mp_os: null },
      ])
    } finally {
      await fresh.dispose()
    }
  })
})
