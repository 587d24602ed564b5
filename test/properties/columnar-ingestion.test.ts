/**
 * Columnar ingestion (issue 14): each storage writes a batch of events in a
 * few statements (DuckDB: one text parameter per column, split in SQL;
 * Postgres: one array per column), and capture reads persons in two narrow
 * lookups. Two properties hold that this changes nothing stored:
 *
 * - `insertEvents` of a whole batch stores exactly what inserting each row
 *   alone stores, every column included (the hot-property columns and the
 *   promoted slots the database computes, nulls, empty texts, and user text
 *   holding every separator the DuckDB encoding may pick);
 * - capture stores the same events, persons, overrides and definitions
 *   whether a list of events is sent as one batch or cut into batches at
 *   random points (each event then reads the same person).
 */
import fc from 'fast-check'
import { Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSightline, type CaptureInput } from '@sightline/core'
import { EVENT_COLUMNS, MATERIALIZED_NUMBERS, MATERIALIZED_PROPERTIES, slotColumns, type EventRow, type SightlineDatabase, type SlotFill, type StorageDriver } from '@sightline/core/storage'
import { openEngine, type Engine } from '../conformance/harness.js'
import type { FreshDatabase } from '../conformance/target.js'
import { describePropertySkip, propertyTargets } from '../filters/filter-db.js'
import { readDefinitions, readPersons } from './raw-reads.js'

const RUNS = Number(process.env.SIGHTLINE_COLUMNAR_RUNS ?? 8)

// DuckDB and one Postgres (the server when SIGHTLINE_PG_URL is set, else PGlite), for the suite's CPU.
const targets = propertyTargets
describePropertySkip()

/** Every separator the DuckDB encoding tries, its null prefix, quotes and non-ASCII text. */
const TRICKY = ['a', 'b', '+', '', '\u001e', '\u001f', '\u001d', '\u001c', '\ufdd0', '\ufdd1', '\uffff', 'é', '😀', ',', '"', "'", '\\', '\n', ' ', '[', ']', '{']
const text = fc.array(fc.constantFrom(...TRICKY), { maxLength: 5 }).map((parts) => parts.join(''))
/** Sometimes every separator at once, so that no separator is free and the column goes as JSON. */
const userText = fc.oneof({ weight: 5, arbitrary: text }, { weight: 1, arbitrary: fc.constant('\u001e\u001f\u001d\u001c\ufdd0\ufdd1\uffff') })

const PROMOTED = [
  { key: 'plan', type: 'String' as const },
  { key: 'amount', type: 'Numeric' as const },
]
const KEYS = [...MATERIALIZED_PROPERTIES.map((p) => p.key), ...MATERIALIZED_NUMBERS.map((p) => p.key), ...PROMOTED.map((p) => p.key), 'other']
const value = fc.oneof(userText, fc.integer({ min: -1000, max: 5000 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.constantFrom('12', ' 7', '1e3', 'x'))
const properties = fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 6 })

const pad = (n: number, width: number) => String(n).padStart(width, '0')
const micros = fc.integer({ min: Date.UTC(2024, 0, 1) * 1000, max: Date.UTC(2025, 11, 31) * 1000 })
const isoMicros = (us: number) => `${new Date(Math.floor(us / 1000)).toISOString().slice(0, 19)}.${pad(us % 1_000_000, 6)}Z`
const uuidOf = (i: number) => `00000000-0000-4000-8000-${pad(i + 1, 12)}`

const row = fc.record({
  event: userText,
  distinctId: userText,
  micros,
  properties,
  groups: fc.array(userText, { minLength: 5, maxLength: 5 }),
  sessionId: fc.option(userText, { nil: null }),
  elementsChain: userText,
  person: fc.option(fc.nat({ max: 3 }), { nil: null }),
})
type RowSpec = typeof row extends fc.Arbitrary<infer T> ? T : never

function eventRow(spec: RowSpec, i: number, projectId: number): EventRow {
  return {
    uuid: uuidOf(i),
    project_id: projectId,
    event: spec.event,
    distinct_id: spec.distinctId,
    timestamp: isoMicros(spec.micros),
    properties: JSON.stringify(spec.properties),
    group_0: spec.groups[0]!,
    group_1: spec.groups[1]!,
    group_2: spec.groups[2]!,
    group_3: spec.groups[3]!,
    group_4: spec.groups[4]!,
    session_id: spec.sessionId,
    inserted_at: '2026-01-01T00:00:00.000000Z',
    elements_chain: spec.elementsChain,
    person_id: spec.person === null ? null : `00000000-0000-5000-8000-${pad(spec.person, 12)}`,
  }
}

/** Every column of a project's events but `project_id`, each as text (or null), by uuid. */
async function storedRows(db: FreshDatabase, projectId: number, columns: ReadonlyArray<string>): Promise<Array<Record<string, unknown>>> {
  // Prefixed, so the raw reader never turns a numeric text into a number.
  const texts = columns.map((c) => `case when ${c} is null then null else 's' || cast(${c} as varchar) end as ${c}`).join(', ')
  const rows = await db.raw<Record<string, unknown>>(`select ${texts} from events where project_id = $1 order by 1`, [projectId])
  // jsonb's text spacing is its own; compare documents parsed.
  return rows.map((r) => ({ ...r, properties: JSON.parse(String(r.properties).slice(1)) }))
}

describe.each(targets)('columnar ingestion on $name', (target) => {
  let fresh: FreshDatabase
  let driver: StorageDriver
  let db: Kysely<SightlineDatabase>
  let slots: SlotFill[]
  let nextProject: () => Promise<number>

  beforeAll(async () => {
    fresh = await target.fresh()
    const sightline = await createSightline({ storage: fresh.storage() })
    const org = await sightline.organizations.create({ name: 'Columnar' })
    const projects: number[] = []
    for (let i = 0; i < 2 * (RUNS + 2) + 2; i++) projects.push((await sightline.projects.create({ organizationId: org.id, name: `p${i}` })).id)
    await sightline.close()
    nextProject = async () => projects.shift()!
    const adapter = fresh.storage()
    driver = await adapter.open()
    db = new Kysely<SightlineDatabase>({ dialect: driver.dialect })
    const [text, numeric] = [slotColumns('String')[0]!, slotColumns('Numeric')[0]!]
    slots = [
      { column: text, value: (p) => adapter.sql.jsonText(p, 'plan') },
      { column: numeric, value: (p) => adapter.sql.textToDouble(adapter.sql.jsonText(p, 'amount')) },
    ]
  })
  afterAll(async () => {
    await db?.destroy()
    await driver?.close()
    await fresh?.dispose()
  })

  const columns = () => [...EVENT_COLUMNS.filter((c) => c !== 'project_id'), ...MATERIALIZED_PROPERTIES.map((p) => p.column), ...MATERIALIZED_NUMBERS.map((p) => p.column), ...slots.map((s) => s.column)]

  it('insertEvents of a batch stores what inserting each row alone stores, every column included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 12 }), async (specs) => {
        const [batch, alone] = [await nextProject(), await nextProject()]
        const stored = await db.transaction().execute((trx) => driver.insertEvents(trx, specs.map((s, i) => eventRow(s, i, batch)), slots))
        expect(stored).toBe(specs.length)
        for (const [i, s] of specs.entries()) await db.transaction().execute((trx) => driver.insertEvents(trx, [eventRow(s, i, alone)], slots))
        const [a, b] = [await storedRows(fresh, batch, columns()), await storedRows(fresh, alone, columns())]
        expect(a).toHaveLength(specs.length)
        expect(a).toEqual(b)
        // And each row holds what was sent (the reference itself is not trusted blindly).
        for (const [i, s] of specs.entries()) {
          const r = a.find((x) => x.uuid === `s${uuidOf(i)}`)!
          expect([r.event, r.distinct_id, r.session_id, r.elements_chain, r.group_4]).toEqual([`s${s.event}`, `s${s.distinctId}`, s.sessionId === null ? null : `s${s.sessionId}`, `s${s.elementsChain}`, `s${s.groups[4]}`])
          expect(r.properties).toEqual(JSON.parse(JSON.stringify(s.properties)))
        }
      }),
      { numRuns: RUNS },
    )
  }, 120_000)

  it('a batch larger than one statement is stored whole, hot columns filled from each row', async () => {
    const projectId = await nextProject()
    const n = 10_001
    const rows = Array.from({ length: n }, (_, i) =>
      eventRow({ event: 'e', distinctId: `d${i % 7}`, micros: Date.UTC(2025, 0, 1) * 1000 + i, properties: { $pathname: `/p${i}`, amount: i }, groups: ['', '', '', '', ''], sessionId: i % 2 ? null : '', elementsChain: '', person: null }, i, projectId),
    )
    const stored = await db.transaction().execute((trx) => driver.insertEvents(trx, rows, slots))
    expect(stored).toBe(n)
    const [check] = await fresh.raw<{ n: unknown; wrong: unknown; nulls: unknown }>(
      `select count(*) as n, sum(case when mp_pathname = '/p' || cast(${slots[1]!.column} as bigint) then 0 else 1 end) as wrong, sum(case when session_id is null then 1 else 0 end) as nulls from events where project_id = $1`,
      [projectId],
    )
    expect([Number(check!.n), Number(check!.wrong), Number(check!.nulls)]).toEqual([n, 0, (n - 1) / 2])
  }, 120_000)
})

const ID = fc.constantFrom('d0', 'd1', 'd2', 'd3', 'anon')
/** Events that change identity or not, personless ones, `$set`s, groups and hot properties. */
const step: fc.Arbitrary<CaptureInput> = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(ID, properties).map(([id, p]) => ({ event: 'pageview', distinctId: id, properties: p })) },
  { weight: 2, arbitrary: fc.tuple(ID, properties).map(([id, p]) => ({ event: 'pageview', distinctId: id, properties: { ...p, $process_person_profile: false } })) },
  { weight: 2, arbitrary: fc.tuple(ID, fc.constantFrom('free', 'pro'), fc.integer({ max: 9, min: 0 })).map(([id, plan, n]) => ({ event: '$set', distinctId: id, properties: { $set: { plan, n }, $set_once: { first: plan } } })) },
  { weight: 2, arbitrary: fc.tuple(ID, ID).map(([id, anon]) => ({ event: '$identify', distinctId: id, properties: { $anon_distinct_id: anon } })) },
  { weight: 1, arbitrary: fc.tuple(ID, ID).map(([id, alias]) => ({ event: '$create_alias', distinctId: id, properties: { alias } })) },
  { weight: 1, arbitrary: fc.tuple(ID, ID).map(([id, alias]) => ({ event: '$merge_dangerously', distinctId: id, properties: { alias } })) },
  { weight: 1, arbitrary: fc.tuple(ID, fc.constantFrom('c1', 'c2')).map(([id, company]) => ({ event: 'order', distinctId: id, properties: { $groups: { company }, amount: 3 } })) },
)

/** What capture stored for a project, with nothing that names the project (person uuids are read as their distinct ids). */
async function captured(db: FreshDatabase, projectId: number) {
  const persons = await readPersons(db, projectId)
  const definitions = await readDefinitions(db, projectId)
  const eventColumns = ['uuid', 'event', 'distinct_id', 'timestamp', 'properties', 'group_0', 'session_id', 'elements_chain', ...MATERIALIZED_PROPERTIES.map((p) => p.column), ...MATERIALIZED_NUMBERS.map((p) => p.column), slotColumns('String')[0]!, slotColumns('Numeric')[0]!]
  const events = await storedRows(db, projectId, eventColumns)
  // The person each event reads, as analyses read it, named by that person's distinct ids.
  const read = await db.raw<{ uuid: unknown; ids: unknown }>(
    `select cast(e.uuid as varchar) as uuid, cast(coalesce(ov.person_id, e.person_id) as varchar) as ids from events as e
     left join person_distinct_id_overrides as ov on ov.project_id = e.project_id and ov.distinct_id = e.distinct_id
     where e.project_id = $1`,
    [projectId],
  )
  const idsOf = new Map<string, string>()
  for (const m of await db.raw<{ distinct_id: string; person_uuid: unknown }>('select distinct_id, person_uuid from person_distinct_ids where project_id = $1', [projectId])) {
    idsOf.set(String(m.person_uuid), [...(idsOf.get(String(m.person_uuid))?.split(',') ?? []), m.distinct_id].sort().join(','))
  }
  const readPerson = Object.fromEntries(read.map((r) => [String(r.uuid), r.ids === null ? null : (idsOf.get(String(r.ids)) ?? 'dangling')]))
  return {
    events,
    readPerson,
    persons: persons.persons,
    personRows: persons.personRows,
    eventNames: [...definitions.eventNames].sort(),
    properties: [...definitions.properties].map(([kind, names]) => [kind, Object.fromEntries([...names].sort(([a], [b]) => (a < b ? -1 : 1)))]).sort(),
  }
}

describe.each(targets)('capture cut into batches on $name', (target) => {
  let e: Engine & { close(): Promise<void> }
  beforeAll(async () => {
    e = await openEngine(target)
  })
  afterAll(() => e?.close())

  it('stores the same events, persons, definitions and read persons as one batch of the same events', async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 20 }), fc.array(fc.nat(), { maxLength: 4 }), async (steps, cuts) => {
        const inputs = steps.map((s, i) => ({ ...s, uuid: uuidOf(i), timestamp: new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString() }))
        const whole = (await e.sightline.projects.create({ organizationId: e.organizationId, name: `whole${++run}` })).id
        const cut = (await e.sightline.projects.create({ organizationId: e.organizationId, name: `cut${run}` })).id
        for (const p of [whole, cut]) for (const { key, type } of PROMOTED) await e.sightline.properties.promote(p, key, { type })
        await e.sightline.capture(whole, structuredClone(inputs))
        const at = [...new Set(cuts.map((c) => c % inputs.length))].sort((a, b) => a - b)
        let from = 0
        for (const to of [...at, inputs.length]) {
          if (to > from) await e.sightline.capture(cut, structuredClone(inputs.slice(from, to)))
          from = Math.max(from, to)
        }
        const [a, b] = [await captured(e.db, whole), await captured(e.db, cut)]
        expect(b.events).toEqual(a.events)
        expect(b.readPerson).toEqual(a.readPerson)
        expect(b.persons).toEqual(a.persons)
        expect(b.personRows).toBe(a.personRows)
        expect(b.eventNames).toEqual(a.eventNames)
        expect(b.properties).toEqual(a.properties)
      }),
      { numRuns: RUNS },
    )
  }, 120_000)
})
