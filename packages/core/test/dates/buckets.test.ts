import { describe, expect, it } from 'vitest'
import { bucketOf, bucketStarts } from '../../src/query/dates/buckets.js'
import type { Interval, WeekStartDay } from '../../src/query/dates/interval.js'

const HOUR = 3_600_000
const starts = (from: string, to: string, interval: Interval, timeZone: string, weekStartDay: WeekStartDay = 0) =>
  bucketStarts({ from: new Date(from), to: new Date(to) }, interval, timeZone, weekStartDay).map((d) => d.toISOString())
const lengthsInHours = (list: string[]) => list.slice(1).map((s, i) => (Date.parse(s) - Date.parse(list[i]!)) / HOUR)
const of = (instant: string, interval: Interval, timeZone: string, weekStartDay: WeekStartDay = 0) =>
  bucketOf(new Date(instant), interval, timeZone, weekStartDay).toISOString()

describe('day buckets', () => {
  it('Europe/Berlin spring forward: 2026-03-29 is 23 hours long', () => {
    // Berlin moves from CET (UTC+1) to CEST (UTC+2) at 2026-03-29T01:00Z
    // (last Sunday of March, 02:00 local). Local midnights: 03-28 at 03-27T23:00Z,
    // 03-29 at 03-28T23:00Z, 03-30 at 03-29T22:00Z (now UTC+2).
    const list = starts('2026-03-28T12:00:00Z', '2026-03-30T12:00:00Z', 'day', 'Europe/Berlin')
    expect(list).toEqual(['2026-03-27T23:00:00.000Z', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z'])
    expect(lengthsInHours(list)).toEqual([24, 23])
  })

  it('Europe/Berlin fall back: 2026-10-25 is 25 hours long', () => {
    // CEST -> CET at 2026-10-25T01:00Z. 10-25 starts 00:00 CEST = 10-24T22:00Z,
    // 10-26 starts 00:00 CET = 10-25T23:00Z.
    const list = starts('2026-10-25T00:00:00Z', '2026-10-26T00:00:00Z', 'day', 'Europe/Berlin')
    expect(list).toEqual(['2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z'])
    expect(lengthsInHours(list)).toEqual([25])
  })

  it('America/New_York: 23 hours on 2026-03-08, 25 on 2026-11-01', () => {
    // 03-08 starts 00:00 EST = 05:00Z; 03-09 starts 00:00 EDT = 04:00Z.
    expect(starts('2026-03-08T12:00:00Z', '2026-03-09T12:00:00Z', 'day', 'America/New_York')).toEqual([
      '2026-03-08T05:00:00.000Z',
      '2026-03-09T04:00:00.000Z',
    ])
    // 11-01 starts 00:00 EDT = 04:00Z; 11-02 starts 00:00 EST = 05:00Z.
    expect(lengthsInHours(starts('2026-11-01T12:00:00Z', '2026-11-02T12:00:00Z', 'day', 'America/New_York'))).toEqual([25])
  })

  it('Australia/Lord_Howe: half-hour changes give 24.5 and 23.5 hour days', () => {
    // DST (UTC+11) ends on Sun 2026-04-05 at 02:00 local -> 01:30 (UTC+10:30).
    // 04-05 starts 00:00 +11 = 04-04T13:00Z; 04-06 starts 00:00 +10:30 = 04-05T13:30Z.
    const april = starts('2026-04-05T00:00:00Z', '2026-04-05T20:00:00Z', 'day', 'Australia/Lord_Howe')
    expect(april).toEqual(['2026-04-04T13:00:00.000Z', '2026-04-05T13:30:00.000Z'])
    expect(lengthsInHours(april)).toEqual([24.5])
    // DST starts on Sun 2026-10-04 at 02:00 local (+10:30) -> 02:30 (+11).
    // 10-04 starts 00:00 +10:30 = 10-03T13:30Z; 10-05 starts 00:00 +11 = 10-04T13:00Z.
    expect(lengthsInHours(starts('2026-10-04T00:00:00Z', '2026-10-04T20:00:00Z', 'day', 'Australia/Lord_Howe'))).toEqual([23.5])
  })

  it('Asia/Kolkata (UTC+5:30) and Pacific/Chatham (UTC+13:45 in January) days', () => {
    // 2026-01-15T12:00Z is 17:30 on 01-15 in Kolkata, whose day began at
    // 00:00 +05:30 = 01-14T18:30Z; in Chatham it is 01:45 on 01-16, whose day
    // began at 00:00 +13:45 = 01-15T10:15Z (and 01-15 began at 01-14T10:15Z).
    expect(of('2026-01-15T12:00:00Z', 'day', 'Asia/Kolkata')).toBe('2026-01-14T18:30:00.000Z')
    expect(of('2026-01-15T12:00:00Z', 'day', 'Pacific/Chatham')).toBe('2026-01-15T10:15:00.000Z')
    expect(of('2026-01-15T10:14:59Z', 'day', 'Pacific/Chatham')).toBe('2026-01-14T10:15:00.000Z')
  })
})

describe('hour and minute buckets', () => {
  it('America/New_York fall back: the repeated hour is two buckets, 25 in the day', () => {
    // 01:00 EDT = 05:00Z, then at 06:00Z the clock reads 01:00 again (EST),
    // then 02:00 EST = 07:00Z: every bucket is one real hour.
    const list = starts('2026-11-01T04:00:00Z', '2026-11-02T04:59:59Z', 'hour', 'America/New_York')
    expect(list).toHaveLength(25)
    expect(list.slice(0, 4)).toEqual(['2026-11-01T04:00:00.000Z', '2026-11-01T05:00:00.000Z', '2026-11-01T06:00:00.000Z', '2026-11-01T07:00:00.000Z'])
    expect(new Set(lengthsInHours(list))).toEqual(new Set([1]))
  })

  it('America/New_York spring forward: 02:00 does not exist, 23 buckets', () => {
    // 01:00 EST = 06:00Z; at 07:00Z the clock jumps 02:00 -> 03:00 EDT.
    const list = starts('2026-03-08T05:00:00Z', '2026-03-09T03:59:59Z', 'hour', 'America/New_York')
    expect(list).toHaveLength(23)
    expect(list.slice(0, 3)).toEqual(['2026-03-08T05:00:00.000Z', '2026-03-08T06:00:00.000Z', '2026-03-08T07:00:00.000Z'])
  })

  it('Australia/Lord_Howe: a 30-minute hour in spring, a 90-minute one in autumn', () => {
    // 2026-10-04: 01:00 +10:30 = 10-03T14:30Z; at 15:30Z (02:00 +10:30) the clock
    // jumps to 02:30 +11, so the "02:00" bucket starts there and lasts until
    // 03:00 +11 = 16:00Z.
    expect(starts('2026-10-03T14:30:00Z', '2026-10-03T16:30:00Z', 'hour', 'Australia/Lord_Howe')).toEqual([
      '2026-10-03T14:30:00.000Z',
      '2026-10-03T15:30:00.000Z',
      '2026-10-03T16:00:00.000Z',
    ])
    // 2026-04-05: 01:00 +11 = 04-04T14:00Z; at 15:00Z (02:00 +11) the clock goes
    // back to 01:30 +10:30, and next shows a whole hour at 02:00 +10:30 = 15:30Z.
    expect(starts('2026-04-04T14:00:00Z', '2026-04-04T16:00:00Z', 'hour', 'Australia/Lord_Howe')).toEqual([
      '2026-04-04T14:00:00.000Z',
      '2026-04-04T15:30:00.000Z',
    ])
    expect(of('2026-04-04T15:10:00Z', 'hour', 'Australia/Lord_Howe')).toBe('2026-04-04T14:00:00.000Z')
  })

  it('Asia/Kolkata and Pacific/Chatham hours start at :30 and :45 local offsets', () => {
    // +05:30: local whole hours fall on UTC :30. +13:45: on UTC :15.
    expect(of('2026-01-15T12:10:00Z', 'hour', 'Asia/Kolkata')).toBe('2026-01-15T11:30:00.000Z')
    expect(of('2026-01-15T12:10:00Z', 'hour', 'Pacific/Chatham')).toBe('2026-01-15T11:15:00.000Z')
  })

  it('Pacific/Chatham fall back: 03:45 -> 02:45 keeps one-hour buckets on UTC :15', () => {
    // DST ends Sun 2026-04-05 at 03:45 +13:45 = 04-04T14:00Z, back to 02:45 +12:45.
    // Whole local hours are read at 12:15Z (02:00), 13:15Z (03:00), 14:15Z (03:00 again), 15:15Z (04:00).
    expect(starts('2026-04-04T12:15:00Z', '2026-04-04T15:15:00Z', 'hour', 'Pacific/Chatham')).toEqual([
      '2026-04-04T12:15:00.000Z',
      '2026-04-04T13:15:00.000Z',
      '2026-04-04T14:15:00.000Z',
      '2026-04-04T15:15:00.000Z',
    ])
    expect(of('2026-04-04T14:05:00Z', 'hour', 'Pacific/Chatham')).toBe('2026-04-04T13:15:00.000Z')
  })

  it('minute buckets are real minutes through a repeated hour', () => {
    expect(of('2026-11-01T06:00:30Z', 'minute', 'America/New_York')).toBe('2026-11-01T06:00:00.000Z')
    expect(starts('2026-11-01T05:59:10Z', '2026-11-01T06:01:00Z', 'minute', 'America/New_York')).toEqual([
      '2026-11-01T05:59:00.000Z',
      '2026-11-01T06:00:00.000Z',
      '2026-11-01T06:01:00.000Z',
    ])
  })
})

describe('week and month buckets', () => {
  it('weeks start on Sunday or Monday at local midnight', () => {
    // 2026-03-04 is a Wednesday. In Berlin (UTC+1) Sunday 03-01 00:00 = 02-28T23:00Z,
    // Monday 03-02 00:00 = 03-01T23:00Z.
    expect(of('2026-03-04T12:00:00Z', 'week', 'Europe/Berlin', 0)).toBe('2026-02-28T23:00:00.000Z')
    expect(of('2026-03-04T12:00:00Z', 'week', 'Europe/Berlin', 1)).toBe('2026-03-01T23:00:00.000Z')
    // The week holding the spring change is 167 hours long: Mon 03-23 .. Mon 03-30.
    expect(lengthsInHours(starts('2026-03-24T00:00:00Z', '2026-03-31T00:00:00Z', 'week', 'Europe/Berlin', 1))).toEqual([167])
  })

  it('US/Pacific weekly buckets across the 2022-11-06 change (a PostHog test case)', () => {
    // Sunday weeks: 10-30 00:00 PDT (UTC-7) = 07:00Z; 11-06 00:00 PDT = 07:00Z
    // (the change is at 02:00); 11-13 00:00 PST (UTC-8) = 08:00Z.
    expect(starts('2022-11-01T00:00:00Z', '2022-11-14T00:00:00Z', 'week', 'US/Pacific')).toEqual([
      '2022-10-30T07:00:00.000Z',
      '2022-11-06T07:00:00.000Z',
      '2022-11-13T08:00:00.000Z',
    ])
  })

  it('months start on the 1st at local midnight', () => {
    // New York: 02-01 00:00 EST = 05:00Z, 03-01 00:00 EST = 05:00Z, 04-01 00:00 EDT = 04:00Z.
    expect(starts('2026-02-15T00:00:00Z', '2026-04-15T00:00:00Z', 'month', 'America/New_York')).toEqual([
      '2026-02-01T05:00:00.000Z',
      '2026-03-01T05:00:00.000Z',
      '2026-04-01T04:00:00.000Z',
    ])
  })
})

it('an empty range has no buckets', () => {
  expect(starts('2026-01-02T00:00:00Z', '2026-01-01T00:00:00Z', 'day', 'UTC')).toEqual([])
})
