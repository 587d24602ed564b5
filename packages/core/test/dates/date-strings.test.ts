import { describe, expect, it } from 'vitest'
import { parseAbsoluteDate } from '../../src/query/dates/absolute-date.js'
import { parseRelativeDate } from '../../src/query/dates/relative-date.js'

const wall = (text: string) => {
  const d = parseAbsoluteDate(text)
  return d && { wall: new Date(d.wall).toISOString(), micros: d.micros, offsetMinutes: d.offset === undefined ? undefined : d.offset / 60_000 }
}

describe('parseAbsoluteDate (what dateutil isoparse and strptime accept)', () => {
  it('reads dates, date-times and offsets', () => {
    expect(wall('2021-08-25')).toEqual({ wall: '2021-08-25T00:00:00.000Z', micros: 0, offsetMinutes: undefined })
    expect(wall('2021-08')).toEqual({ wall: '2021-08-01T00:00:00.000Z', micros: 0, offsetMinutes: undefined })
    expect(wall('2021')).toEqual({ wall: '2021-01-01T00:00:00.000Z', micros: 0, offsetMinutes: undefined })
    expect(wall('20210825T1030')).toEqual({ wall: '2021-08-25T10:30:00.000Z', micros: 0, offsetMinutes: undefined })
    expect(wall('2021-8-5')).toEqual({ wall: '2021-08-05T00:00:00.000Z', micros: 0, offsetMinutes: undefined })
    expect(wall('2021-08-25 10')).toEqual({ wall: '2021-08-25T10:00:00.000Z', micros: 0, offsetMinutes: undefined })
    expect(wall('2021-08-25T10:30:15.1234567+05:30')).toEqual({ wall: '2021-08-25T10:30:15.123Z', micros: 456, offsetMinutes: 330 })
    expect(wall('2021-08-25T10:30:15,5-0800')).toEqual({ wall: '2021-08-25T10:30:15.500Z', micros: 0, offsetMinutes: -480 })
    expect(wall('2021-08-25T10:30Z')).toEqual({ wall: '2021-08-25T10:30:00.000Z', micros: 0, offsetMinutes: 0 })
    expect(wall('2021-08-25T10:30-03')).toEqual({ wall: '2021-08-25T10:30:00.000Z', micros: 0, offsetMinutes: -180 })
    // isoparse reads 24:00 as the next midnight.
    expect(wall('2021-08-25T24:00:00')).toEqual({ wall: '2021-08-26T00:00:00.000Z', micros: 0, offsetMinutes: undefined })
  })

  it('rejects impossible values and other text', () => {
    for (const bad of ['2021-02-29', '2021-00-10', '2021-08-25T24:00:01', '2021-08-25T10:60', '2021-08-25T10:00+24:00', '0000-01-01', '2021-08T10:00', '-7d', 'now', '2021-08-25Z']) {
      expect(parseAbsoluteDate(bad)).toBeNull()
    }
  })
})

describe('parseRelativeDate (PostHog: re.search of -?(N)?[hdwmqysHDWMQY](Start|End)?)', () => {
  it('reads number, unit and position', () => {
    expect(parseRelativeDate('-7d')).toEqual({ amount: 7, unit: 'd', position: null })
    expect(parseRelativeDate('7d')).toEqual({ amount: 7, unit: 'd', position: null })
    expect(parseRelativeDate('mStart')).toEqual({ amount: null, unit: 'm', position: 'Start' })
    expect(parseRelativeDate('-1mEnd')).toEqual({ amount: 1, unit: 'm', position: 'End' })
    expect(parseRelativeDate('-30M')).toEqual({ amount: 30, unit: 'M', position: null })
    expect(parseRelativeDate('-0h')).toEqual({ amount: 0, unit: 'h', position: null })
    expect(parseRelativeDate('-2q')).toEqual({ amount: 2, unit: 'q', position: null })
    expect(parseRelativeDate('-90s')).toEqual({ amount: 90, unit: 's', position: null })
  })

  it('reads the first match anywhere in the text and ignores the rest, as re.search', () => {
    expect(parseRelativeDate('-14days')).toEqual({ amount: 14, unit: 'd', position: null })
    expect(parseRelativeDate('+7d')).toEqual({ amount: 7, unit: 'd', position: null })
    expect(parseRelativeDate('--7d')).toEqual({ amount: 7, unit: 'd', position: null })
    expect(parseRelativeDate('-7dstart')).toEqual({ amount: 7, unit: 'd', position: null })
    expect(parseRelativeDate('-1dStarts')).toEqual({ amount: 1, unit: 'd', position: 'Start' })
    expect(parseRelativeDate('-1mEnding')).toEqual({ amount: 1, unit: 'm', position: 'End' })
    expect(parseRelativeDate('-2weeks')).toEqual({ amount: 2, unit: 'w', position: null })
    expect(parseRelativeDate('-24hours')).toEqual({ amount: 24, unit: 'h', position: null })
    expect(parseRelativeDate('x7d')).toEqual({ amount: 7, unit: 'd', position: null })
    // The first match is "-01d": "2021" is followed by "-", which is no unit.
    expect(parseRelativeDate('2021-01-01d')).toEqual({ amount: 1, unit: 'd', position: null })
  })

  it('rejects what PostHog would silently read as "now"', () => {
    // Upper-case units PostHog matches but never maps; a first match with no number and no
    // position it reads ("7 days ago" first matches the bare "d", "last -2w" the "s" of "last").
    for (const bad of ['-3D', '-1Y', '-2W', 'all', 'today', 'yesterday', 'soon', '7 days ago', 'last -2w', '-7 d', 'qStart', 'MStart', '']) {
      expect(parseRelativeDate(bad)).toBeNull()
    }
  })
})
