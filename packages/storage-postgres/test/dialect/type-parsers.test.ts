import { describe, expect, it } from 'vitest'
import { PgTypeOid, typeParsers } from '../../src/dialect/index.js'
import { parsePgArray } from '../../src/dialect/pg-text-array.js'
import { isoFromPgDate, isoFromPgTimestamp } from '../../src/dialect/pg-text-timestamp.js'

const parse = (oid: number, text: string) => typeParsers[oid]!(text)

describe('isoFromPgTimestamp', () => {
  it.each([
    ['2026-01-01 10:00:00+00', '2026-01-01T10:00:00.000000Z'],
    ['2026-01-01 10:00:00.1+00', '2026-01-01T10:00:00.100000Z'],
    ['2026-01-01 10:00:00.1234+00', '2026-01-01T10:00:00.123400Z'],
    ['2026-01-01 10:00:00.123456+00', '2026-01-01T10:00:00.123456Z'],
    ['2026-01-01 15:30:00.123456+05:30', '2026-01-01T10:00:00.123456Z'],
    ['2026-01-01 07:00:00-03', '2026-01-01T10:00:00.000000Z'],
    // Crossing midnight, a month and a year through the offset.
    ['2026-01-01 02:00:00+05:30', '2025-12-31T20:30:00.000000Z'],
    ['2024-02-28 23:30:00-01', '2024-02-29T00:30:00.000000Z'],
    // A local-mean-time offset with seconds (Amsterdam before 1937).
    ['1900-01-01 00:19:32+00:19:32', '1900-01-01T00:00:00.000000Z'],
    ['1969-12-31 23:59:59.999999+00', '1969-12-31T23:59:59.999999Z'],
    ['0001-01-01 00:00:00+00', '0001-01-01T00:00:00.000000Z'],
    ['0001-01-01 00:00:00+00 BC', '0000-01-01T00:00:00.000000Z'],
    ['0044-03-15 12:00:00+00 BC', '-000043-03-15T12:00:00.000000Z'],
    ['10000-01-01 00:00:00+00', '+010000-01-01T00:00:00.000000Z'],
    // timestamp without time zone: no offset, read as UTC.
    ['2026-01-01 10:00:00.5', '2026-01-01T10:00:00.500000Z'],
    ['infinity', 'infinity'],
    ['-infinity', '-infinity'],
  ])('%s -> %s', (text, iso) => {
    expect(isoFromPgTimestamp(text)).toBe(iso)
  })

  it('rejects text in another DateStyle', () => {
    expect(() => isoFromPgTimestamp('Thu Jan 01 10:00:00 2026 UTC')).toThrow(TypeError)
    expect(() => isoFromPgTimestamp('01/01/2026 10:00:00 UTC')).toThrow(TypeError)
  })
})

describe('isoFromPgDate', () => {
  it.each([
    ['2026-02-28', '2026-02-28'],
    ['0044-03-15 BC', '-000043-03-15'],
    ['12345-06-07', '+012345-06-07'],
    ['infinity', 'infinity'],
  ])('%s -> %s', (text, iso) => {
    expect(isoFromPgDate(text)).toBe(iso)
  })
})

describe('parsePgArray', () => {
  it.each<[string, unknown[]]>([
    ['{}', []],
    ['{a,b}', ['a', 'b']],
    ['{"b c","",NULL,"NULL",null}', ['b c', '', null, 'NULL', null]],
    ['{"quote\\"back\\\\slash","{}","a,b"}', ['quote"back\\slash', '{}', 'a,b']],
    ['{{1,2},{3,NULL}}', [['1', '2'], ['3', null]]],
    ['[0:1]={x,y}', ['x', 'y']],
    ['{"{\\"a\\": 1}"}', ['{"a": 1}']],
  ])('%s', (text, expected) => {
    expect(parsePgArray(text, (element) => element)).toEqual(expected)
  })

  it('rejects what Postgres never writes', () => {
    for (const text of ['', '{', '{a', '{a,}', '{"a}', '{a}x', 'a,b']) {
      expect(() => parsePgArray(text, (element) => element), text).toThrow(TypeError)
    }
  })
})

describe('typeParsers', () => {
  it('covers every type of the contract and its array', () => {
    expect(Object.keys(typeParsers).map(Number).sort((a, b) => a - b)).toEqual(
      Object.values(PgTypeOid).sort((a, b) => a - b),
    )
  })

  it('reads int8 exactly or throws a RangeError', () => {
    expect(parse(PgTypeOid.int8, '9007199254740991')).toBe(Number.MAX_SAFE_INTEGER)
    expect(parse(PgTypeOid.int8, '-9007199254740991')).toBe(Number.MIN_SAFE_INTEGER)
    expect(() => parse(PgTypeOid.int8, '9007199254740992')).toThrow(RangeError)
    expect(() => parse(PgTypeOid.int8, '-9223372036854775808')).toThrow(RangeError)
    expect(() => parse(PgTypeOid._int8, '{1,9223372036854775807}')).toThrow(RangeError)
  })

  it('reads numeric exactly or throws a RangeError', () => {
    expect(parse(PgTypeOid.numeric, '12345.678')).toBe(12345.678)
    expect(parse(PgTypeOid.numeric, '2.50')).toBe(2.5)
    expect(parse(PgTypeOid.numeric, '0.000000100')).toBe(1e-7)
    expect(parse(PgTypeOid.numeric, '1500')).toBe(1500)
    expect(parse(PgTypeOid.numeric, '-0.1')).toBe(-0.1)
    expect(parse(PgTypeOid.numeric, '0.00')).toBe(0)
    expect(parse(PgTypeOid.numeric, '1.6666666666666667')).toBe(1.6666666666666667)
    expect(parse(PgTypeOid.numeric, 'NaN')).toBeNaN()
    expect(parse(PgTypeOid.numeric, '-Infinity')).toBe(-Infinity)
    expect(() => parse(PgTypeOid.numeric, '3.3333333333333333')).toThrow(RangeError)
    expect(() => parse(PgTypeOid.numeric, '12345678901234567890')).toThrow(RangeError)
    expect(() => parse(PgTypeOid.numeric, '0.1000000000000000000001')).toThrow(RangeError)
  })

  it('reads the other scalars', () => {
    expect(parse(PgTypeOid.bool, 't')).toBe(true)
    expect(parse(PgTypeOid.bool, 'f')).toBe(false)
    expect(parse(PgTypeOid.int2, '-32768')).toBe(-32768)
    expect(parse(PgTypeOid.float4, '1.1')).toBe(1.1)
    expect(parse(PgTypeOid.float8, '-Infinity')).toBe(-Infinity)
    expect(parse(PgTypeOid.float8, 'NaN')).toBeNaN()
    expect(parse(PgTypeOid.jsonb, '{"a": [1, null]}')).toEqual({ a: [1, null] })
    expect(parse(PgTypeOid.json, '"text"')).toBe('text')
    expect(parse(PgTypeOid.date, '2026-01-01')).toBe('2026-01-01')
  })

  it('reads arrays of them', () => {
    expect(parse(PgTypeOid._bool, '{t,f,NULL}')).toEqual([true, false, null])
    expect(parse(PgTypeOid._timestamptz, '{"2026-01-01 10:00:00+00","2026-01-01 15:30:00.5+05:30"}')).toEqual([
      '2026-01-01T10:00:00.000000Z',
      '2026-01-01T10:00:00.500000Z',
    ])
    expect(parse(PgTypeOid._jsonb, '{"{\\"a\\": 1}",NULL}')).toEqual([{ a: 1 }, null])
    expect(parse(PgTypeOid._numeric, '{1.5,NaN}')).toEqual([1.5, NaN])
    expect(parse(PgTypeOid._date, '{2026-01-01,infinity}')).toEqual(['2026-01-01', 'infinity'])
  })
})
