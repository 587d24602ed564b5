/**
 * The automatic promotion of numeric properties (`properties.promoteNumbersAfter`):
 * once that many analyses of a project read an event property as a number
 * from the JSON, and its definition says `Numeric`, the engine promotes it to
 * a `Numeric` slot by itself; text properties, read as numbers or not, are
 * never promoted. Answers are those counted by hand before, while the slot
 * fills and once analyses read it; a wrong value written into the slot shows
 * only then, which is how we know the slot is read.
 *
 * Cost: about 1 s of CPU on DuckDB and one Postgres (`propertyTargets`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSightline, ValidationError, type CaptureInput } from '@sightline/core'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { openEngine, type Engine } from '../conformance/harness.js'
import { describePropertySkip, propertyTargets } from '../filters/filter-db.js'

describePropertySkip()
const DAY = { date_from: '2026-02-20', date_to: '2026-02-27', interval: 'month' } as const

let uuids = 0
const ev = (day: number, properties: Record<string, unknown>): CaptureInput => ({
  event: 'load',
  distinctId: `u${day}`,
  uuid: `00000000-0000-4000-8000-${String(++uuids).padStart(12, '0')}`,
  timestamp: `2026-02-${String(20 + day).padStart(2, '0')}T12:00:00Z`,
  properties,
})

interface Row {
  data: number[]
}

describe('the promoteNumbersAfter option', () => {
  it.each([0, 1.5, -2, '3'])('refuses %j by name before opening anything', async (after) => {
    const refused = await createSightline({ storage: duckdbStorage(), properties: { promoteNumbersAfter: after as number } }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ValidationError)
    expect(String((refused as Error).message)).toContain('promoteNumbersAfter')
  })
})

describe.each(propertyTargets)('automatic promotion of numeric properties on $name', (target) => {
  let e: Engine & { close(): Promise<void> }
  beforeAll(async () => {
    e = await openEngine(target, undefined, { properties: { promoteNumbersAfter: 2 } })
  })
  afterAll(() => e?.close())

  const project = async (name: string) => (await e.sightline.projects.create({ organizationId: e.organizationId, name, timezone: 'UTC' })).id
  const math = async (projectId: number, kind: 'sum' | 'p90', property: string) =>
    ((await e.sightline.query.trend(projectId, { events: [{ id: 'load', math: kind, math_property: property }], ...DAY })).result as Row[])[0]!.data.reduce((a, b) => a + b, 0)
  const count = async (projectId: number) => ((await e.sightline.query.trend(projectId, { events: [{ id: 'load' }], ...DAY })).result as Row[])[0]!.data.reduce((a, b) => a + b, 0)

  it('promotes a property defined as Numeric after two analyses read it as a number, with the same answers', async () => {
    const p = await project('numbers')
    // ms: 100, 300, 200, 400 (numbers, so the definition says Numeric); note: text.
    await e.sightline.capture(p, [ev(0, { ms: 100, note: '7' }), ev(1, { ms: 300, note: '8' }), ev(2, { ms: 200, note: 'x' }), ev(3, { ms: 400 })])
    expect(await count(p)).toBe(4)
    expect(await e.sightline.properties.list(p)).toEqual([])

    // One analysis reading ms as a number: not yet.
    expect(await math(p, 'sum', 'ms')).toBe(1000)
    expect(await e.sightline.properties.list(p)).toEqual([])
    // The second one promotes it; `backfill` waits for the promotion, then fills the stored events.
    // Sorted 100, 200, 300, 400: position 0.9 * 3 = 2.7, 300 + 0.7 * 100.
    expect(await math(p, 'p90', 'ms')).toBeCloseTo(370, 9)
    const [slot] = await e.sightline.properties.backfill(p)
    expect(slot).toEqual({ key: 'ms', type: 'Numeric', slot: 1, state: 'ready' })

    expect(await math(p, 'sum', 'ms')).toBe(1000)
    expect(await math(p, 'p90', 'ms')).toBeCloseTo(370, 9)
    // Analyses read the slot now: a wrong value written there shows.
    await e.db.raw(`update events set ps_num_1 = 1100 where project_id = $1 and distinct_id = 'u3'`, [p])
    expect(await math(p, 'sum', 'ms')).toBe(1700)

    // `note` (its definition says String) is read as a number by two analyses and never promoted: 7 + 8.
    expect(await math(p, 'sum', 'note')).toBe(15)
    expect(await math(p, 'sum', 'note')).toBe(15)
    expect((await e.sightline.properties.list(p)).map((s) => s.key)).toEqual(['ms'])
  })

  it('counts analyses per project: another project reading the same key once promotes nothing', async () => {
    const a = await project('a')
    const b = await project('b')
    await e.sightline.capture(a, [ev(0, { size: 5 })])
    await e.sightline.capture(b, [ev(0, { size: 6 })])
    expect(await math(a, 'sum', 'size')).toBe(5)
    expect(await math(b, 'sum', 'size')).toBe(6)
    expect(await e.sightline.properties.list(a)).toEqual([])
    expect(await e.sightline.properties.list(b)).toEqual([])
  })
})
