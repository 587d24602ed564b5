import { describe, expect, it } from 'vitest'
import { ValidationError } from '../../src/errors.js'
import type { Interval } from '../../src/query/dates/interval.js'
import { resolveDateRange } from '../../src/query/dates/resolve-date-range.js'

// PostHog reads the first `-?N?unit(Start|End)?` anywhere in a relative date
// (re.search in posthog/utils.py relative_date_parse_with_delta_mapping) and
// ignores the rest. Every expected bound below is worked out by hand from
// now = Wednesday 2021-08-25 10:20:30 UTC, in a UTC project with Sunday weeks.
const context = { timezone: 'UTC', weekStartDay: 0 as const, now: new Date('2021-08-25T10:20:30Z') }

async function bounds(dateFrom: string, dateTo?: string, interval: Interval = 'day') {
  const r = await resolveDateRange({ dateFrom, dateTo, interval }, context)
  return [r.from.toISOString(), r.toMicros % 1000 === 999 ? `${r.to.toISOString().slice(0, -1)}999Z` : r.to.toISOString()]
}
const END_OF_TODAY = '2021-08-25T23:59:59.999999Z'

describe('relative dates in the spellings PostHog accepts', () => {
  it('reads the leading number and unit and ignores the rest of the word', async () => {
    // 25 - 14 = 11; truncated to the day (date_from, day interval).
    expect(await bounds('-14days')).toEqual(['2021-08-11T00:00:00.000Z', END_OF_TODAY])
    expect(await bounds('-14d')).toEqual(['2021-08-11T00:00:00.000Z', END_OF_TODAY])
    expect(await bounds('-2weeks')).toEqual(['2021-08-11T00:00:00.000Z', END_OF_TODAY])
    // August 25 back 30 days: 25 days to July 31, 5 more to July 26.
    expect(await bounds('-30days ago')).toEqual(['2021-07-26T00:00:00.000Z', END_OF_TODAY])
    // Calendar months: 2021-08-25 minus 6 months is 2021-02-25.
    expect(await bounds('-6months')).toEqual(['2021-02-25T00:00:00.000Z', END_OF_TODAY])
  })

  it('reads -1w, -3m, -1y as weeks, calendar months and calendar years', async () => {
    expect(await bounds('-1w')).toEqual(['2021-08-18T00:00:00.000Z', END_OF_TODAY])
    expect(await bounds('-3m')).toEqual(['2021-05-25T00:00:00.000Z', END_OF_TODAY])
    expect(await bounds('-1y')).toEqual(['2020-08-25T00:00:00.000Z', END_OF_TODAY])
  })

  it('truncates -24h to the hour only, with a day interval too', async () => {
    // 10:20:30 a day earlier, cut to 10:00; a daily series does not round an `hours` delta to midnight.
    expect(await bounds('-24h')).toEqual(['2021-08-24T10:00:00.000Z', END_OF_TODAY])
    expect(await bounds('-24hours')).toEqual(['2021-08-24T10:00:00.000Z', END_OF_TODAY])
    // By hour: 08:20:30 cut to 08:00; a missing date_to ends the current hour.
    expect(await bounds('-2hours', undefined, 'hour')).toEqual(['2021-08-25T08:00:00.000Z', '2021-08-25T10:59:59.999999Z'])
  })

  it('reads the starts and ends of days, months and years', async () => {
    expect(await bounds('dStart')).toEqual(['2021-08-25T00:00:00.000Z', END_OF_TODAY])
    expect(await bounds('mStart')).toEqual(['2021-08-01T00:00:00.000Z', END_OF_TODAY])
    expect(await bounds('yStart')).toEqual(['2021-01-01T00:00:00.000Z', END_OF_TODAY])
    expect(await bounds('-1dStart', '-1dEnd')).toEqual(['2021-08-24T00:00:00.000Z', '2021-08-24T23:59:59.999999Z'])
    // -3mStart: May 25 moved to May 1. -1mEnding reads as -1mEnd: July 25 moved to day 31, then to the end of that day.
    expect(await bounds('-3mStart', '-1mEnding')).toEqual(['2021-05-01T00:00:00.000Z', '2021-07-31T23:59:59.999999Z'])
  })

  it('never reads the sign, and skips text before the first match', async () => {
    expect(await bounds('+7d')).toEqual(['2021-08-18T00:00:00.000Z', END_OF_TODAY])
    expect(await bounds('x7d')).toEqual(['2021-08-18T00:00:00.000Z', END_OF_TODAY])
    // A lower-case position is no position: -7dstart is -7d.
    expect(await bounds('-7dstart')).toEqual(['2021-08-18T00:00:00.000Z', END_OF_TODAY])
  })

  it('refuses, naming the field, what PostHog would read as "now" whatever it says', async () => {
    // "7 days ago" first matches the bare "d"; "last -2w" the "s" of "last"; -3D an upper-case unit PostHog never maps.
    for (const [field, text] of [
      ['date_from', '7 days ago'],
      ['date_from', 'last -2w'],
      ['date_from', '-3D'],
      ['date_to', 'yesterday'],
      ['date_to', 'today'],
    ] as const) {
      const error = await resolveDateRange(field === 'date_from' ? { dateFrom: text } : { dateTo: text }, context).then(
        () => null,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(ValidationError)
      expect((error as ValidationError).attr).toBe(field)
      expect((error as ValidationError).issues[0]?.message).toContain(`cannot read ${JSON.stringify(text)}`)
    }
  })
})
