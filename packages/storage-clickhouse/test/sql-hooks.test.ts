import { describe, expect, it } from 'vitest'
import { sql, type Expression } from 'kysely'
import { clickhouseSqlHooks as h } from '@sightline/storage-clickhouse'
import { chdbKysely } from './open-chdb.js'

// Each hook evaluated on chDB; the expected values are the contract's (packages/core/src/storage.ts), worked out by hand.
describe('clickhouseSqlHooks on chDB', () => {
  const db = chdbKysely()

  const value = async (e: Expression<unknown>) => (await sql<{ v: unknown }>`select ${e} as v`.execute(db())).rows[0]!.v
  const text = (s: string | null) => sql<string | null>`${s === null ? sql`cast(null as Nullable(String))` : sql`${s}`}`

  it('jsonText: strings unquoted, other scalars as JSON, null for a missing key or JSON null', async () => {
    const doc = JSON.stringify({ s: 'x', n: 12, b: true, z: null, o: { k: [1, 'two'] }, '': 'empty', '$browser': 'Firefox', q: "it's" })
    const at = (key: string) => value(h.jsonText(sql`${doc}`, key))
    expect(await at('s')).toBe('x')
    expect(await at('n')).toBe('12')
    expect(await at('b')).toBe('true')
    expect(await at('z')).toBeNull()
    expect(await at('missing')).toBeNull()
    expect(await at('o')).toBe('{"k":[1,"two"]}')
    expect(await at('')).toBe('empty')
    expect(await at('$browser')).toBe('Firefox')
    expect(await at('q')).toBe("it's")
  })

  it('jsonText: escapes, look-alikes of the markers it tests for, and documents that are no JSON', async () => {
    const doc = String.raw`{"esc":"a\"b\u00e9\n","emoji":"\ud83d\ude00","nullText":"null","empty":"","quoted":"\"x\"","spaced":" s ","arr":[1, "x"],"neg":-0,"f":1.50}`
    const at = (json: string, key: string) => value(h.jsonText(sql`${json}`, key))
    // The escapes decoded: a quote, é, a newline; a surrogate pair as its one character.
    expect(await at(doc, 'esc')).toBe('a"bé\n')
    expect(await at(doc, 'emoji')).toBe('\u{1F600}')
    // Strings that read like the markers are strings: "null" is not JSON null, "" not a missing key, "\"x\"" keeps its quotes.
    expect(await at(doc, 'nullText')).toBe('null')
    expect(await at(doc, 'empty')).toBe('')
    expect(await at(doc, 'quoted')).toBe('"x"')
    expect(await at(doc, 'spaced')).toBe(' s ')
    // Other values as ClickHouse writes their JSON back: without the spaces, numbers in their shortest form (-0 as 0).
    expect(await at(doc, 'arr')).toBe('[1,"x"]')
    expect(await at(doc, 'neg')).toBe('0')
    expect(await at(doc, 'f')).toBe('1.5')
    // Text that is no JSON document has no properties.
    expect(await at('not json', 'k')).toBeNull()
    expect(await at('', 'k')).toBeNull()
  })

  it('regexMatch finds a match anywhere and is null for null', async () => {
    expect(await value(h.regexMatch(text('abc'), 'b'))).toBe(1)
    expect(await value(h.regexMatch(text('abc'), '^b'))).toBe(0)
    expect(await value(h.regexMatch(text(null), 'b'))).toBeNull()
  })

  it('textToDouble reads only SQL_NUMBER_PATTERN texts within the magnitude bounds', async () => {
    const cases: Array<[string | null, number | null]> = [
      ['1e5', 100000], ['-2.5', -2.5], ['.5', 0.5], ['1.', 1], ['0', 0], ['-0.0e-3', -0],
      [' 1', null], ['+1', null], ['1e400', null], ['1e-400', null], ['Infinity', null], ['NaN', null], ['0x10', null], ['1e1000', null], [null, null],
    ]
    for (const [input, expected] of cases) expect(await value(h.textToDouble(text(input))), String(input)).toBe(expected)
  })

  it('textToTimestamp reads SQL_TIMESTAMP_PATTERN texts naming real dates', async () => {
    const us = async (s: string) => value(sql`toUnixTimestamp64Micro(${h.textToTimestamp(text(s))})`)
    expect(await us('2026-02-28T10:00:00.123456Z')).toBe(Date.UTC(2026, 1, 28, 10) * 1000 + 123456)
    expect(await us('2026-02-28 10:00')).toBe(Date.UTC(2026, 1, 28, 10) * 1000)
    expect(await us('2026-02-28')).toBe(Date.UTC(2026, 1, 28) * 1000)
    for (const bad of ['2026-02-30', '2026-13-01', '2026-02-28T10:00:00+01:00', 'yesterday', '26-02-28']) expect(await us(bad), bad).toBeNull()
  })

  it('textInList is true for a listed text, false for another, null for null', async () => {
    expect(await value(h.textInList(text('b'), ['a', "b'"]))).toBe(0)
    expect(await value(h.textInList(text("b'"), ['a', "b'"]))).toBe(1)
    expect(await value(h.textInList(text(null), ['a']))).toBeNull()
  })

  it('epochMicros and intDiv', async () => {
    expect(await value(h.epochMicros(sql`toDateTime64('1970-01-01 00:00:01.000002', 6, 'UTC')`))).toBe(1_000_002)
    expect(await value(h.intDiv(sql`toInt64(7)`, sql`toInt64(2)`))).toBe(3)
  })

  it('addMonths counts calendar months on the UTC date, the day clamped to the month', async () => {
    const moved = async (text: string, zone: string, months: number) =>
      value(sql`toString(toTimeZone(${h.addMonths(sql`toDateTime64(${text}, 6, ${zone})`, months)}, 'UTC'))`)
    // 2026 is not a leap year: 31 January plus a month is 28 February, microseconds kept; 2024 is.
    expect(await moved('2026-01-31 10:00:00.123456', 'UTC', 1)).toBe('2026-02-28 10:00:00.123456')
    expect(await moved('2024-01-31 23:30:00', 'UTC', 1)).toBe('2024-02-29 23:30:00.000000')
    expect(await moved('2024-02-29 12:00:00', 'UTC', 12)).toBe('2025-02-28 12:00:00.000000')
    // A value in New York's zone: 30 March 23:30 there is 31 March 03:30 UTC, and a month on is 30 April 03:30 UTC (not 30 April 23:30 New York).
    expect(await moved('2026-03-30 23:30:00', 'America/New_York', 1)).toBe('2026-04-30 03:30:00.000000')
  })

  it('quantileCont interpolates at (n - 1) * q and is null over no values', async () => {
    // [1, 2, 3, 10] at q = 0.5: position 1.5, halfway between 2 and 3.
    const q = (p: number, rows: string) => sql<{ v: number | null }>`select ${h.quantileCont(sql`x`, p)} as v from (select arrayJoin(${sql.raw(rows)}) as x)`.execute(db())
    expect((await q(0.5, '[1, 2, 3, 10]')).rows[0]!.v).toBe(2.5)
    expect((await q(0.9, '[1, 2, 3, 10]')).rows[0]!.v).toBeCloseTo(7.9, 10) // position 2.7: 3 + 0.7 * 7
    expect((await q(0.5, 'CAST([], \'Array(Float64)\')')).rows[0]!.v).toBeNull()
    expect(() => h.quantileCont(sql`x`, 1.5)).toThrow(RangeError)
  })

  it('regexReplace replaces every match with the text taken literally', async () => {
    expect(await value(h.regexReplace(text('a.b.c'), '[.]', '/'))).toBe('a/b/c')
    expect(await value(h.regexReplace(text('a.b'), '[.]', '\\'))).toBe('a\\b')
    expect(await value(h.regexReplace(text('/p/123/x/45'), '[0-9]+', ':id'))).toBe('/p/:id/x/:id')
    expect(await value(h.regexReplace(text(null), 'a', 'b'))).toBeNull()
  })

  it('jsonEntries: a row per top-level key of an object, values as jsonText spells them; none for anything else', async () => {
    const docs = [JSON.stringify({ s: 'x', n: 1.5, z: null, o: { k: [1] }, "it's": true }), '[1, 2]', '"s"', 'not json', null]
    const { rows } = await sql<{ d: number; key: string; value: string | null }>`
      select d, kv.key as key, kv.value as value from (select arrayJoin(arrayEnumerate(${docs})) as d, ${docs}[d] as j) as t ${h.jsonEntries(sql`t.j`, 'kv')}
      order by d, key`.execute(db())
    expect(rows).toEqual([
      { d: 1, key: "it's", value: 'true' },
      { d: 1, key: 'n', value: '1.5' },
      { d: 1, key: 'o', value: '{"k":[1]}' },
      { d: 1, key: 's', value: 'x' },
      { d: 1, key: 'z', value: null },
    ])
  })

  it('eventUuid orders uuids as their text (a UUID compares its second half first)', async () => {
    const uuids = ['00000000-0000-0000-0000-000000000001', '00000000-0000-0000-0100-000000000000', '00000000-0000-0001-0000-000000000000', '01000000-0000-0000-0000-000000000000']
    const { rows } = await sql<{ v: string }>`select ${h.eventUuid(sql`u`)} as v from (select arrayJoin(arrayMap(x -> toUUID(x), ${[...uuids].reverse()})) as u) order by v`.execute(db())
    expect(rows.map((r) => r.v)).toEqual(uuids)
  })

  it('binaryText orders by bytes', async () => {
    const { rows } = await sql<{ v: string }>`select arrayJoin(['b', 'B', 'é', 'a']) as v order by ${h.binaryText(sql`v`)}`.execute(db())
    expect(rows.map((r) => r.v)).toEqual(['B', 'a', 'b', 'é'])
  })
})
