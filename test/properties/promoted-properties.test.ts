/**
 * Per-project promotion of event properties (`sightline.properties`): a
 * promoted property gets a slot column that captures fill at once and a
 * backfill fills for older events in batches; queries read the slot only
 * once it is `ready`. Answers must be the same before, during and after.
 *
 * - A worked example, counted by hand: sums, a p90, a breakdown and filters
 *   before the promotion, after a partial backfill with captures in between,
 *   and when ready. Writing a wrong value into the slot column directly
 *   changes no answer while it is backfilling and changes them once it is
 *   ready: the queries switch to the column exactly then.
 * - A property on random interleavings of captures, partial backfills,
 *   demotions and re-promotions: every query agrees with the same query on a
 *   twin project that holds the same events and never promotes anything.
 * - The pool: PROPERTY_SLOT_POOL slots per type, the next refused by name.
 * - The background backfill finishes behind the project's writes.
 *
 * Cost: SIGHTLINE_PROMOTION_RUNS (default 8) interleavings per storage (DuckDB
 * and one Postgres: `propertyTargets`), about 4 s of CPU on DuckDB and PGlite
 * together.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConflictError, createSightline, type CaptureInput } from '@sightline/core'
import { NOW, openEngine, type Engine } from '../conformance/harness.js'
import { describePropertySkip, propertyTargets } from '../filters/filter-db.js'
import { duckdbMemory } from '../targets/duckdb.js'

const RUNS = Number(process.env.SIGHTLINE_PROMOTION_RUNS ?? 8)
const POOL = 8
describePropertySkip()
const DAY = { date_from: '2026-02-20', date_to: '2026-02-27', interval: 'day' } as const

let uuids = 0
const uuid = () => `00000000-0000-4000-8000-${String(++uuids).padStart(12, '0')}`
const ev = (day: number, properties: Record<string, unknown>): CaptureInput => ({
  event: 'buy',
  distinctId: `u${day}`,
  uuid: uuid(),
  timestamp: `2026-02-${String(20 + day).padStart(2, '0')}T12:00:00Z`,
  properties,
})

interface Row {
  data: number[]
  breakdown_value?: unknown
}
const total = (rows: Row[]) => rows.map((r) => r.data.reduce((a, b) => a + b, 0))

describe('promotion on a storage without slots', () => {
  it('is refused by name, and nothing is written', async () => {
    const fresh = await duckdbMemory.fresh()
    const base = fresh.storage()
    // As ClickHouse declares it: its events are not the ones core's writes reach.
    const sightline = await createSightline({ storage: { ...base, capabilities: { ...base.capabilities, propertySlots: false } }, clock: () => NOW })
    try {
      const org = await sightline.organizations.create({ name: 'Acme' })
      const p = (await sightline.projects.create({ organizationId: org.id, name: 'Web' })).id
      const refused = await sightline.properties.promote(p, 'amount', { type: 'Numeric' }).catch((error: unknown) => error)
      expect(refused).toBeInstanceOf(ConflictError)
      expect((refused as Error).message).toBe('the duckdb storage cannot promote properties (its events are not updated in place)')
      expect(await sightline.properties.list(p)).toEqual([])
    } finally {
      await sightline.close()
      await fresh.dispose()
    }
  })
})

describe.each(propertyTargets)('promoted properties on $name', (target) => {
  let e: Engine & { close(): Promise<void> }
  beforeAll(async () => {
    e = await openEngine(target)
  })
  afterAll(() => e?.close())

  const project = async (name: string) => (await e.sightline.projects.create({ organizationId: e.organizationId, name, timezone: 'UTC' })).id
  const sum = async (projectId: number, properties: unknown[] = []) =>
    total((await e.sightline.query.trend(projectId, { events: [{ id: 'buy', math: 'sum', math_property: 'amount' }], properties: properties as never, ...DAY })).result as Row[])[0]
  const p90 = async (projectId: number) =>
    total((await e.sightline.query.trend(projectId, { events: [{ id: 'buy', math: 'p90', math_property: 'amount' }], ...DAY, interval: 'month' })).result as Row[])[0]
  const byPlan = async (projectId: number) =>
    Object.fromEntries(
      ((await e.sightline.query.trend(projectId, { events: [{ id: 'buy' }], breakdown: 'plan', ...DAY })).result as Row[]).map((r) => [String(r.breakdown_value), total([r])[0]]),
    )

  const byAmountBin = async (projectId: number) =>
    Object.fromEntries(
      ((await e.sightline.query.trend(projectId, { events: [{ id: 'buy' }], breakdown: 'amount', breakdown_histogram_bin_count: 2, ...DAY })).result as Row[]).map((r) => [
        String(r.breakdown_value),
        total([r])[0],
      ]),
    )

  it('answers as counted by hand before, during and after a backfill, and reads the slot only once ready', async () => {
    const p = await project('worked')
    await e.sightline.capture(p, [ev(0, { amount: 10, plan: 'free' }), ev(1, { amount: '5', plan: 'pro' }), ev(2, { amount: 'x', plan: 'pro' }), ev(3, { plan: 'free' })])
    // amounts 10 and 5; plans free 2, pro 2.
    expect(await sum(p)).toBe(15)
    expect(await byPlan(p)).toEqual({ free: 2, pro: 2 })

    const amount = await e.sightline.properties.promote(p, 'amount', { type: 'Numeric', background: false })
    const plan = await e.sightline.properties.promote(p, 'plan', { type: 'String', background: false })
    expect([amount.state, plan.state]).toEqual(['backfilling', 'backfilling'])
    // A capture while backfilling: it fills its own rows.
    await e.sightline.capture(p, [ev(4, { amount: 100, plan: 'team' })])
    // One batch of two events (days 0 and 1) per slot.
    await e.sightline.properties.backfill(p, { batchSize: 2, maxBatches: 1 })
    expect((await e.sightline.properties.list(p)).map((s) => s.state)).toEqual(['backfilling', 'backfilling'])
    expect(await sum(p)).toBe(115)
    expect(await sum(p, [{ key: 'amount', value: 7, operator: 'gt' }])).toBe(110)
    expect(await byPlan(p)).toEqual({ free: 2, pro: 2, team: 1 })

    // While backfilling, the JSON is read: a wrong value in the slot column changes nothing.
    const numberColumn = `ps_num_${amount.slot}`
    // Day 2 ('x', no number) is stored before the promotion and not backfilled yet.
    await e.db.raw(`update events set ${numberColumn} = 1000 where project_id = $1 and distinct_id = 'u2'`, [p])
    expect(await sum(p)).toBe(115)

    await e.sightline.capture(p, [ev(5, { amount: 1.5, plan: 'pro' })])
    expect(await e.sightline.properties.backfill(p, { batchSize: 2 })).toEqual([
      { key: 'plan', type: 'String', slot: plan.slot, state: 'ready' },
      { key: 'amount', type: 'Numeric', slot: amount.slot, state: 'ready' },
    ].sort((a, b) => (a.type < b.type ? -1 : 1)))
    // 10 + 5 + 100 + 1.5, read from the slots; the rest of the backfill rewrote day 2's wrong value.
    expect(await sum(p)).toBe(116.5)
    expect(await sum(p, [{ key: 'amount', value: 7, operator: 'gt' }])).toBe(110)
    expect(await sum(p, [{ key: 'plan', value: 'pro' }])).toBe(6.5)
    expect(await byPlan(p)).toEqual({ free: 2, pro: 3, team: 1 })
    // Sorted 1.5, 5, 10, 100: position 0.9 * 3 = 2.7, 10 + 0.7 * 90.
    expect(await p90(p)).toBeCloseTo(73, 9)
    // Two equal-width bins from 1.5 to 100 (the last edge raised by 0.01): 1.5, 5 and 10 in the first, 100 in the
    // second, 'x' and the missing amount in none.
    expect(await byAmountBin(p)).toEqual({ '[1.5,50.75]': 3, '[50.75,100.01]': 1, '["",""]': 2 })

    // Once ready, the column is what queries read: a wrong value shows, which is how we know.
    await e.db.raw(`update events set ${numberColumn} = 1000 where project_id = $1 and distinct_id = 'u4'`, [p])
    expect(await sum(p)).toBe(1016.5)
    // The histogram's bounds and bins read the column too: 1000 is the largest value now.
    expect(await byAmountBin(p)).toEqual({ '[1.5,500.75]': 3, '[500.75,1000.01]': 1, '["",""]': 2 })
    // So do HogQL's numeric readings of the property: the JSON still says 100, the column 1000.
    expect(await sum(p, [{ type: 'hogql', key: 'toFloat(properties.amount) > 500' }])).toBe(1000)
    expect(await sum(p, [{ type: 'hogql', key: 'properties.amount > 500' }])).toBe(1000)
    const hogqlSum = await e.sightline.query.trend(p, { events: [{ id: 'buy', math: 'hogql', math_hogql: 'sum(toFloat(properties.amount))' }], ...DAY })
    expect(total(hogqlSum.result as Row[])[0]).toBe(1016.5)
    await e.db.raw(`update events set ps_text_${plan.slot} = 'other' where project_id = $1 and distinct_id = 'u4'`, [p])
    expect(await byPlan(p)).toEqual({ free: 2, pro: 3, other: 1 })
    // Demoted: the JSON again, at once.
    await e.sightline.properties.demote(p, 'amount', { type: 'Numeric' })
    expect(await sum(p)).toBe(116.5)
  })

  it('answers as a twin project that never promotes, through random captures, backfills and demotions', async () => {
    const value = fc.oneof(fc.integer({ min: -50, max: 50 }), fc.constantFrom('7', '1e2', ' 3', 'x', true, null), fc.constantFrom('a', 'b', 'c'))
    const props = fc.record({ amount: value, plan: value }, { requiredKeys: [] })
    // The first batch's days end before later ones' may: events captured after a promotion then lie past its
    // backfill's range as well as within it, so both the capture's own filling and the backfill are needed.
    const batchOf = (lastDay: number) => fc.array(fc.tuple(fc.integer({ min: 0, max: lastDay }), props), { minLength: 1, maxLength: 4 })
    const batch = batchOf(7)
    const step = fc.oneof(
      batch.map((b) => ({ kind: 'capture' as const, b })),
      fc.record({ kind: fc.constant('backfill' as const), size: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('promote' as const), key: fc.constantFrom('amount', 'plan'), type: fc.constantFrom('String' as const, 'Numeric' as const) }),
      fc.record({ kind: fc.constant('demote' as const), key: fc.constantFrom('amount', 'plan'), type: fc.constantFrom('String' as const, 'Numeric' as const) }),
    )
    let run = 0
    await fc.assert(
      fc.asyncProperty(batchOf(3), fc.array(step, { minLength: 1, maxLength: 7 }), async (first, steps) => {
        run++
        const [p, twin] = [await project(`p${run}`), await project(`twin${run}`)]
        const capture = async (b: ReadonlyArray<readonly [number, Record<string, unknown>]>) => {
          for (const id of [p, twin]) await e.sightline.capture(id, b.map(([day, properties]) => ev(day, properties)))
        }
        const same = async () => {
          expect(await sum(p)).toBe(await sum(twin))
          expect(await sum(p, [{ key: 'amount', value: 0, operator: 'gt' }, { key: 'plan', value: ['a', '7'] }])).toBe(await sum(twin, [{ key: 'amount', value: 0, operator: 'gt' }, { key: 'plan', value: ['a', '7'] }]))
          expect(await byPlan(p)).toEqual(await byPlan(twin))
        }
        await capture(first)
        for (const s of steps) {
          if (s.kind === 'capture') await capture(s.b)
          else if (s.kind === 'backfill') await e.sightline.properties.backfill(p, { batchSize: s.size, maxBatches: 1 })
          else if (s.kind === 'promote') await e.sightline.properties.promote(p, s.key, { type: s.type, background: false })
          else await e.sightline.properties.demote(p, s.key, { type: s.type }).catch((error: unknown) => expect((error as Error).name).toBe('NotFoundError'))
          await same()
        }
        await e.sightline.properties.backfill(p)
        expect((await e.sightline.properties.list(p)).every((s) => s.state === 'ready')).toBe(true)
        await same()
      }),
      { numRuns: RUNS },
    )
  })

  it(`refuses a slot past the pool of ${POOL} per type, by name, and frees one on demotion`, async () => {
    const p = await project('pool')
    for (let i = 0; i < POOL; i++) expect((await e.sightline.properties.promote(p, `n${i}`, { type: 'Numeric' })).slot).toBe(i + 1)
    // The same key again keeps its slot; another type has its own pool.
    expect((await e.sightline.properties.promote(p, 'n3', { type: 'Numeric' })).slot).toBe(4)
    expect((await e.sightline.properties.promote(p, 'n3', { type: 'String' })).slot).toBe(1)
    const refused = await e.sightline.properties.promote(p, 'one_more', { type: 'Numeric' }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ConflictError)
    expect((refused as Error).message).toContain(`has promoted ${POOL} Numeric properties, the most a project can`)
    await e.sightline.properties.demote(p, 'n2', { type: 'Numeric' })
    expect(await e.sightline.properties.promote(p, 'one_more', { type: 'Numeric' })).toEqual({ key: 'one_more', type: 'Numeric', slot: 3, state: 'ready' })
  })

  it('promotes on a database written before the slots existed, once migrated', async () => {
    const fresh = await target.fresh()
    try {
      const first = await createSightline({ storage: fresh.storage(), clock: () => NOW })
      const org = await first.organizations.create({ name: 'Old' })
      const old = (await first.projects.create({ organizationId: org.id, name: 'Old', timezone: 'UTC' })).id
      await first.capture(old, [ev(0, { amount: 2, plan: 'a' }), ev(1, { amount: '3', plan: 'b' })])
      await first.close()
      // Back to the schema before the slots: no columns, no table, no migration record.
      for (const kind of ['text', 'num']) for (let i = 1; i <= POOL; i++) await fresh.raw(`alter table events drop column ps_${kind}_${i}`)
      await fresh.raw('drop table property_slots')
      await fresh.raw(`delete from sightline_migrations where name = 'core_0012_property_slots'`)
      const reopened = await createSightline({ storage: fresh.storage(), clock: () => NOW })
      try {
        await reopened.properties.promote(old, 'amount', { type: 'Numeric', background: false })
        expect(await reopened.properties.backfill(old)).toEqual([{ key: 'amount', type: 'Numeric', slot: 1, state: 'ready' }])
        const rows = (await reopened.query.trend(old, { events: [{ id: 'buy', math: 'sum', math_property: 'amount' }], ...DAY })).result as Row[]
        expect(total(rows)).toEqual([5])
      } finally {
        await reopened.close()
      }
    } finally {
      await fresh.dispose()
    }
  })

  it('takes its type from the property definition, and backfills in the background behind the project writes', async () => {
    const p = await project('background')
    await e.sightline.capture(p, [ev(0, { amount: 4 }), ev(1, { amount: 6 })])
    const promoted = await e.sightline.properties.promote(p, 'amount')
    expect(promoted).toMatchObject({ type: 'Numeric', state: 'backfilling' })
    // The backfill's batch was queued on the project's writes when promote returned: this capture runs after it.
    await e.sightline.capture(p, [ev(2, { amount: 10 })])
    expect((await e.sightline.properties.list(p))[0]!.state).toBe('ready')
    expect(await sum(p)).toBe(20)
  })
})
