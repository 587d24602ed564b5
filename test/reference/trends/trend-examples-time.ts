/**
 * Worked examples of intervals, week starts, month ends and daylight-saving
 * days (reference §2, §3). Expected values worked out by hand.
 */
import { ev, NEW_YORK, UTC, type TrendExample } from './trend-example-data.js'

const pageviews = (...timestamps: string[]) => timestamps.map((t, i) => ev('$pageview', `u${i}`, t))
const PAGEVIEW = { events: [{ id: '$pageview' }] }
const MONDAY_UTC = { ...UTC, weekStartDay: 1 as const }
const WEEK_EVENTS = pageviews(
  '2024-01-02T12:00:00Z',
  '2024-01-03T00:00:00Z',
  '2024-01-07T12:00:00Z',
  '2024-01-08T00:00:00Z',
  '2024-01-14T23:59:00Z',
  '2024-01-15T09:00:00Z',
  '2024-01-16T23:00:00Z',
  '2024-01-17T00:00:00Z',
)

export const TIME_EXAMPLES: TrendExample[] = [
  {
    name: 'hour interval: an absolute date_to is used as given',
    data: {
      project: UTC,
      now: '2024-01-10T12:00:00Z',
      persons: {},
      events: pageviews('2024-01-10T07:59:59Z', '2024-01-10T08:00:00Z', '2024-01-10T08:59:59.999Z', '2024-01-10T10:30:00Z', '2024-01-10T10:30:01Z'),
    },
    params: { ...PAGEVIEW, interval: 'hour', date_from: '2024-01-10T08:00:00', date_to: '2024-01-10T10:30:00' },
    expected: [
      {
        data: [2, 0, 1],
        days: ['2024-01-10 08:00:00', '2024-01-10 09:00:00', '2024-01-10 10:00:00'],
        labels: ['10-Jan 08:00', '10-Jan 09:00', '10-Jan 10:00'],
        count: 3,
      },
    ],
    why: 'Range 08:00 .. 10:30:00 exactly. 08:00:00 and 08:59:59.999 fall in 08:00; 10:30:00 in 10:00; 10:30:01 is after date_to and 07:59:59 before date_from.',
  },
  {
    name: 'minute interval',
    data: {
      project: UTC,
      now: '2024-01-10T12:00:00Z',
      persons: {},
      events: pageviews('2024-01-10T11:57:59Z', '2024-01-10T11:58:30Z', '2024-01-10T11:59:59.999Z', '2024-01-10T12:00:30Z', '2024-01-10T12:00:31Z'),
    },
    params: { ...PAGEVIEW, interval: 'minute', date_from: '2024-01-10T11:58:00', date_to: '2024-01-10T12:00:30' },
    expected: [
      {
        data: [1, 1, 1],
        days: ['2024-01-10 11:58:00', '2024-01-10 11:59:00', '2024-01-10 12:00:00'],
        labels: ['10-Jan 11:58', '10-Jan 11:59', '10-Jan 12:00'],
      },
    ],
    why: 'Minute buckets 11:58, 11:59, 12:00 up to 12:00:30 exactly: one event in each; 11:57:59 and 12:00:31 are outside.',
  },
  {
    name: 'month interval: date_from rounds down to the 1st, February of a leap year ends on the 29th',
    data: {
      project: UTC,
      now: '2024-03-20T12:00:00Z',
      persons: {},
      events: pageviews(
        '2023-12-31T23:59:59Z',
        '2024-01-02T10:00:00Z',
        '2024-01-31T23:59:59Z',
        '2024-02-29T23:59:00Z',
        '2024-03-01T00:00:00Z',
        '2024-03-10T23:00:00Z',
        '2024-03-11T00:00:00Z',
      ),
    },
    params: { ...PAGEVIEW, interval: 'month', date_from: '2024-01-15', date_to: '2024-03-10' },
    expected: [
      {
        data: [2, 1, 2],
        days: ['2024-01-01', '2024-02-01', '2024-03-01'],
        labels: ['Jan 2024', 'Feb 2024', 'Mar 2024'],
        count: 5,
        filter: { insight: 'TRENDS', interval: 'month' },
      },
    ],
    why: 'The lower bound is Jan 1 (start of the month of Jan 15), so Jan 2 counts; Jan: Jan 2 and Jan 31 23:59:59; Feb: the 29th; Mar: Mar 1 00:00 and Mar 10 23:00. Dec 31 and Mar 11 are outside.',
  },
  {
    name: 'week interval, weeks starting Monday',
    data: { project: MONDAY_UTC, now: '2024-01-20T12:00:00Z', persons: {}, events: WEEK_EVENTS },
    params: { ...PAGEVIEW, interval: 'week', date_from: '2024-01-03', date_to: '2024-01-16' },
    expected: [{ data: [2, 2, 2], days: ['2024-01-01', '2024-01-08', '2024-01-15'], labels: ['3–7 Jan', '8–14 Jan', '15–16 Jan'] }],
    why: 'Monday weeks Jan 1, 8, 15. Range Jan 3 00:00 .. Jan 16 end, so Jan 2 and Jan 17 are out. Week Jan 1: Jan 3 and Sunday Jan 7; week Jan 8: Jan 8 and Sunday Jan 14; week Jan 15: Jan 15 and 16. Labels clip the first and last weeks to the range.',
  },
  {
    name: 'week interval, weeks starting Sunday (same events)',
    data: { project: UTC, now: '2024-01-20T12:00:00Z', persons: {}, events: WEEK_EVENTS },
    params: { ...PAGEVIEW, interval: 'week', date_from: '2024-01-03', date_to: '2024-01-16' },
    expected: [{ data: [1, 2, 3], days: ['2023-12-31', '2024-01-07', '2024-01-14'], labels: ['3–6 Jan', '7–13 Jan', '14–16 Jan'] }],
    why: 'Sunday weeks Dec 31, Jan 7, Jan 14. Week Dec 31: Jan 3; week Jan 7: Jan 7 and Jan 8; week Jan 14: Jan 14, 15, 16. The first bucket key (Dec 31) precedes date_from.',
  },
  {
    name: 'week labels: same month, across a year, a single day',
    data: { project: UTC, now: '2024-01-20T12:00:00Z', persons: {}, events: pageviews('2023-12-29T10:00:00Z', '2024-01-05T10:00:00Z', '2024-01-07T12:00:00Z') },
    params: { ...PAGEVIEW, interval: 'week', date_from: '2023-12-28', date_to: '2024-01-07' },
    expected: [
      {
        data: [1, 1, 1],
        days: ['2023-12-24', '2023-12-31', '2024-01-07'],
        labels: ['28–30 Dec', '31-Dec-2023 – 6-Jan-2024', '7-Jan-2024'],
      },
    ],
    why: 'Sunday weeks Dec 24, Dec 31, Jan 7, each clipped to Dec 28 .. Jan 7: Dec 28-30 (one month), Dec 31 - Jan 6 (years differ), Jan 7 alone (one day).',
  },
  {
    name: 'week labels across two months',
    data: { project: UTC, now: '2024-02-20T12:00:00Z', persons: {}, events: pageviews('2024-02-01T10:00:00Z', '2024-02-10T23:00:00Z') },
    params: { ...PAGEVIEW, interval: 'week', date_from: '2024-01-28', date_to: '2024-02-10' },
    expected: [{ data: [1, 1], days: ['2024-01-28', '2024-02-04'], labels: ['28-Jan – 3-Feb', '4–10 Feb'] }],
    why: 'Sunday weeks Jan 28 (to Feb 3: months differ) and Feb 4 (to Feb 10).',
  },
  {
    name: 'America/New_York: the 23-hour day of 2024-03-10',
    data: {
      project: NEW_YORK,
      now: '2024-03-20T12:00:00Z',
      persons: {},
      events: pageviews(
        '2024-03-09T04:59:59Z',
        '2024-03-10T04:59:59Z',
        '2024-03-10T05:00:00Z',
        '2024-03-11T03:59:59Z',
        '2024-03-11T04:00:00Z',
        '2024-03-12T04:00:00Z',
      ),
    },
    params: { ...PAGEVIEW, date_from: '2024-03-09', date_to: '2024-03-11' },
    expected: [
      {
        data: [1, 2, 1],
        days: ['2024-03-09', '2024-03-10', '2024-03-11'],
        action: { days: ['2024-03-09T00:00:00-05:00', '2024-03-10T00:00:00-05:00', '2024-03-11T00:00:00-04:00'] },
      },
    ],
    why: 'Mar 10 runs 05:00Z (EST) to Mar 11 04:00Z (EDT). 03-10T04:59:59Z is Mar 9 23:59:59 EST; 05:00Z is Mar 10 00:00; 03-11T03:59:59Z is Mar 10 23:59:59 EDT; 03-11T04:00Z is Mar 11 00:00. 03-09T04:59:59Z is Mar 8 and 03-12T04:00Z is Mar 12: outside.',
  },
  {
    name: 'America/New_York: hours of the spring-forward night (02:00 never happens)',
    data: {
      project: NEW_YORK,
      now: '2024-03-20T12:00:00Z',
      persons: {},
      events: pageviews('2024-03-10T04:59:59Z', '2024-03-10T06:30:00Z', '2024-03-10T07:00:00Z', '2024-03-10T08:00:00Z', '2024-03-10T08:00:01Z'),
    },
    params: { ...PAGEVIEW, interval: 'hour', date_from: '2024-03-10T00:00:00', date_to: '2024-03-10T04:00:00' },
    expected: [
      {
        data: [0, 1, 1, 1],
        days: ['2024-03-10 00:00:00', '2024-03-10 01:00:00', '2024-03-10 03:00:00', '2024-03-10 04:00:00'],
        labels: ['10-Mar 00:00', '10-Mar 01:00', '10-Mar 03:00', '10-Mar 04:00'],
      },
    ],
    why: 'Local 00:00 EST = 05:00Z to 04:00 EDT = 08:00Z. Buckets 00:00 (05Z), 01:00 (06Z), 03:00 (07Z), 04:00 (08Z). 06:30Z is 01:30 EST, 07:00Z is 03:00 EDT, 08:00Z is 04:00 EDT (= date_to). 04:59:59Z is the day before; 08:00:01Z is after date_to.',
  },
  {
    name: 'America/New_York: the 25-hour day of 2024-11-03',
    data: {
      project: NEW_YORK,
      now: '2024-11-20T12:00:00Z',
      persons: {},
      events: pageviews(
        '2024-11-03T03:59:59Z',
        '2024-11-03T05:30:00Z',
        '2024-11-03T06:30:00Z',
        '2024-11-04T04:30:00Z',
        '2024-11-04T05:00:00Z',
      ),
    },
    params: { ...PAGEVIEW, date_from: '2024-11-02', date_to: '2024-11-04' },
    expected: [
      {
        data: [1, 3, 1],
        days: ['2024-11-02', '2024-11-03', '2024-11-04'],
        action: { days: ['2024-11-02T00:00:00-04:00', '2024-11-03T00:00:00-04:00', '2024-11-04T00:00:00-05:00'] },
      },
    ],
    why: 'Nov 3 runs 04:00Z (EDT) to Nov 4 05:00Z (EST). 03:59:59Z is Nov 2 23:59:59 EDT; 05:30Z is 01:30 EDT and 06:30Z is 01:30 EST (both Nov 3); 11-04T04:30Z is Nov 3 23:30 EST; 11-04T05:00Z is Nov 4 00:00 EST.',
  },
  {
    name: 'America/New_York: hours of the fall-back night (01:00 happens twice)',
    data: {
      project: NEW_YORK,
      now: '2024-11-20T12:00:00Z',
      persons: {},
      events: pageviews('2024-11-03T03:59:00Z', '2024-11-03T05:30:00Z', '2024-11-03T06:30:00Z', '2024-11-03T06:45:00Z', '2024-11-03T07:00:00Z', '2024-11-03T07:00:01Z'),
    },
    params: { ...PAGEVIEW, interval: 'hour', date_from: '2024-11-03T00:00:00', date_to: '2024-11-03T02:00:00' },
    expected: [
      {
        data: [0, 1, 2, 1],
        days: ['2024-11-03 00:00:00', '2024-11-03 01:00:00', '2024-11-03 01:00:00', '2024-11-03 02:00:00'],
        labels: ['3-Nov 00:00', '3-Nov 01:00', '3-Nov 01:00', '3-Nov 02:00'],
      },
    ],
    why: 'Local 00:00 EDT = 04:00Z to 02:00 EST = 07:00Z: four one-hour buckets 04Z, 05Z (01:00 EDT), 06Z (01:00 EST), 07Z. 05:30Z in the first 01:00; 06:30Z and 06:45Z in the second; 07:00Z is 02:00 = date_to. 03:59Z is Nov 2; 07:00:01Z is after date_to.',
  },
  {
    name: '-24h with a day interval: cut to the hour, yet the first bucket is that whole day',
    data: {
      project: UTC,
      now: '2024-01-10T10:20:00Z',
      persons: {},
      events: pageviews('2024-01-09T05:20:00Z', '2024-01-09T10:00:00Z', '2024-01-10T09:00:00Z'),
    },
    params: { ...PAGEVIEW, date_from: '-24h' },
    expected: [{ data: [1, 1], days: ['2024-01-09', '2024-01-10'], labels: ['9-Jan-2024', '10-Jan-2024'] }],
    why: 'now - 24h = Jan 9 10:20, truncated to the hour (not the day): Jan 9 10:00. The 05:20 event is dropped, yet the first bucket is labelled Jan 9. date_to (now) extends to the end of Jan 10.',
  },
  {
    name: 'date_from "all" starts at the earliest event after 2015-01-01',
    data: {
      project: UTC,
      now: '2024-01-10T12:00:00Z',
      persons: {},
      events: pageviews('2014-06-01T00:00:00Z', '2024-01-08T10:00:00Z', '2024-01-10T09:00:00Z'),
    },
    params: { ...PAGEVIEW, date_from: 'all' },
    expected: [{ data: [1, 0, 1], days: ['2024-01-08', '2024-01-09', '2024-01-10'] }],
    why: 'The 2014 event is before PostHog\'s 2015-01-01 floor, so the earliest is Jan 8 10:00, rounded to the day; date_to defaults to now, extended to the end of Jan 10. The 2014 event is then outside the range.',
  },
]
