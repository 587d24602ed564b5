import { dataset, ev, MARCH, type FunnelExample } from './funnel-example-builders.js'

const TRENDS = { funnel_viz_type: 'trends', events: [{ id: 'a' }, { id: 'b' }] }
const ABC = [{ id: 'a' }, { id: 'b' }, { id: 'c' }]
const ONE_DAY = { date_from: '2024-03-05', date_to: '2024-03-05', days: ['2024-03-05'], labels: ['5-Mar-2024'] }
const day = (data: number[], more: Record<string, unknown> = {}) => ({ count: 1, data, days: ONE_DAY.days, labels: ONE_DAY.labels, ...more })
const oneDay = { date_from: ONE_DAY.date_from, date_to: ONE_DAY.date_to }

/** Worked examples of funnel trends and time to convert. Derived by hand. */
export const TREND_EXAMPLES: FunnelExample[] = [
  {
    name: 'trends by day: an entry belongs to the day of its step-0 event',
    data: dataset([
      ev('p1', 'a', '2024-03-04T10:00:00Z'),
      ev('p1', 'b', '2024-03-05T09:00:00Z'),
      ev('p2', 'a', '2024-03-04T11:00:00Z'),
      ev('p3', 'a', '2024-03-05T10:00:00Z'),
      ev('p3', 'b', '2024-03-05T10:30:00Z'),
      ev('p4', 'a', '2024-03-04T12:00:00Z'),
      ev('p4', 'b', '2024-03-04T12:10:00Z'),
      ev('p4', 'a', '2024-03-06T12:00:00Z'),
    ]),
    params: { ...TRENDS, date_from: '2024-03-04', date_to: '2024-03-06' },
    expected: [{ count: 3, data: [66.67, 100, 0], days: ['2024-03-04', '2024-03-05', '2024-03-06'], labels: ['4-Mar-2024', '5-Mar-2024', '6-Mar-2024'] }],
    why: "Mar 4: p1 (converts the next day, still counted on Mar 4), p2 (never), p4 (converts the same day): 2 of 3 = 66.67. Mar 5: p3, 1 of 1 = 100. Mar 6: p4 again, a new entry without b: 0 of 1. A person counts once per day but can count on several days.",
  },
  {
    name: 'trends by day across a daylight-saving change (America/New_York)',
    data: {
      ...dataset([
        ev('p1', 'a', '2024-03-10T04:30:00Z'),
        ev('p1', 'b', '2024-03-10T06:00:00Z'),
        ev('p2', 'a', '2024-03-11T04:30:00Z'),
        ev('p3', 'a', '2024-03-10T05:30:00Z'),
        ev('p3', 'b', '2024-03-10T07:30:00Z'),
        ev('p4', 'a', '2024-03-11T03:30:00Z'),
      ]),
      project: { timezone: 'America/New_York', weekStartDay: 0, testAccountFilters: [] },
    },
    params: { ...TRENDS, date_from: '2024-03-09', date_to: '2024-03-11' },
    expected: [{ count: 3, data: [100, 50, 0], days: ['2024-03-09', '2024-03-10', '2024-03-11'], labels: ['9-Mar-2024', '10-Mar-2024', '11-Mar-2024'] }],
    why: 'Clocks go from 02:00 EST to 03:00 EDT on Mar 10, a 23-hour day: Mar 9 starts 05:00Z, Mar 10 05:00Z, Mar 11 04:00Z. p1 enters 04:30Z = Mar 9 23:30 EST and converts: Mar 9 1/1. p3 enters 05:30Z = Mar 10 00:30 EST and converts; p4 enters Mar 11 03:30Z = Mar 10 23:30 EDT and does not: Mar 10 1/2 = 50. p2 enters Mar 11 04:30Z = Mar 11 00:30 EDT (a fixed -5 h would say Mar 10): Mar 11 0/1.',
  },
  {
    name: 'trends from_step and to_step',
    data: dataset([
      ev('p1', 'a', '10:00'),
      ev('p1', 'b', '10:10'),
      ev('p1', 'c', '10:20'),
      ev('p2', 'a', '10:00'),
      ev('p2', 'b', '10:10'),
      ev('p3', 'a', '10:00'),
    ]),
    params: { ...oneDay, funnel_viz_type: 'trends', events: ABC, funnel_from_step: 1, funnel_to_step: 2 },
    expected: [day([50])],
    why: 'Entrants are those who reached step 1 (p1, p2; p3 stopped at step 0); conversions those who reached step 2 (p1): 1 of 2.',
  },
  {
    name: 'trends to_step cuts the funnel',
    data: dataset([ev('p1', 'a', '10:00'), ev('p1', 'b', '10:10'), ev('p2', 'a', '10:00'), ev('p3', 'a', '10:00'), ev('p3', 'c', '10:10')]),
    params: { ...oneDay, funnel_viz_type: 'trends', events: ABC, funnel_to_step: 1 },
    expected: [day([33.33])],
    why: 'Converting means reaching b; c is no longer part of the funnel. p1 converts; p2 and p3 (a then c) do not: 1 of 3 = 33.33.',
  },
  {
    name: 'trends by hour',
    data: dataset([ev('p1', 'a', '10:15'), ev('p1', 'b', '10:45'), ev('p2', 'a', '11:30')]),
    params: { ...TRENDS, interval: 'hour', date_from: '2024-03-05T10:00:00', date_to: '2024-03-05T12:00:00' },
    expected: [
      {
        count: 3,
        data: [100, 0, 0],
        days: ['2024-03-05 10:00:00', '2024-03-05 11:00:00', '2024-03-05 12:00:00'],
        labels: ['5-Mar 10:00', '5-Mar 11:00', '5-Mar 12:00'],
      },
    ],
    why: 'Hourly periods from 10:00 to the hour holding date_to (12:00, an absolute date_to is used as given with an hour interval). p1 enters at 10:15 and converts; p2 enters at 11:30 and does not; nobody enters at 12:00.',
  },
  {
    name: 'trends by week: labels are the week clipped to the range',
    data: dataset([ev('p1', 'a', '2024-04-26T10:00:00Z'), ev('p1', 'b', '2024-04-27T10:00:00Z'), ev('p2', 'a', '2024-05-06T10:00:00Z')]),
    params: { ...TRENDS, interval: 'week', date_from: '2024-04-25', date_to: '2024-05-10' },
    expected: [{ count: 3, data: [100, 0, 0], days: ['2024-04-21', '2024-04-28', '2024-05-05'], labels: ['25–27 Apr', '28-Apr – 4-May', '5–10 May'] }],
    why: 'Weeks start on Sunday: Apr 21, Apr 28, May 5. Labels are each week cut to Apr 25..May 10: "25–27 Apr", "28-Apr – 4-May" (two months), "5–10 May". p1 enters Apr 26 and converts; p2 enters May 6 and does not.',
  },
  {
    name: 'trends with a breakdown: one series per value, by value',
    data: dataset([
      ev('p1', 'a', '10:00', { $browser: 'Safari' }),
      ev('p2', 'a', '10:00', { $browser: 'Chrome' }),
      ev('p2', 'b', '10:10'),
      ev('p3', 'a', '10:00', { $browser: 'Chrome' }),
    ]),
    params: { ...oneDay, ...TRENDS, breakdown: '$browser', breakdown_type: 'event' },
    expected: [day([50], { breakdown_value: ['Chrome'] }), day([0], { breakdown_value: ['Safari'] })],
    why: 'Chrome: p2 converts, p3 does not: 50. Safari: p1 does not: 0. Listed by value; trends values stay lists (unboxing is for the steps view).',
  },
  {
    name: 'trends breakdown_limit keeps the values with the most entrants, no Other',
    data: dataset([
      ev('p1', 'a', '10:00', { $browser: 'Safari' }),
      ev('p2', 'a', '10:00', { $browser: 'Chrome' }),
      ev('p2', 'b', '10:10'),
      ev('p3', 'a', '10:00', { $browser: 'Chrome' }),
    ]),
    params: { ...oneDay, ...TRENDS, breakdown: '$browser', breakdown_type: 'event', breakdown_limit: 1 },
    expected: [day([50], { breakdown_value: ['Chrome'] })],
    why: 'Chrome has 2 entrants, Safari 1; with limit 1 only Chrome is kept and nothing is merged.',
  },
  {
    name: 'unordered trends',
    data: dataset([ev('p1', 'b', '10:00'), ev('p1', 'a', '10:30'), ev('p2', 'a', '10:00')]),
    params: { ...oneDay, ...TRENDS, funnel_order_type: 'unordered' },
    expected: [day([50])],
    why: 'p1 did both steps in reverse order: a conversion for the day of its oldest event. p2 did one step: an entrant. 1 of 2.',
  },
  {
    name: 'trends exclusion: excluded attempts count nowhere',
    data: dataset([
      ev('p1', 'a', '10:00'),
      ev('p1', 'x', '10:05'),
      ev('p1', 'b', '10:10'),
      ev('p2', 'a', '10:00'),
      ev('p2', 'b', '10:10'),
      ev('p3', 'a', '10:00'),
      ev('p3', 'x', '10:05'),
    ]),
    params: { ...oneDay, ...TRENDS, exclusions: [{ id: 'x', funnel_from_step: 0, funnel_to_step: 1 }] },
    expected: [day([100])],
    why: "p1 completes over an exclusion (fully excluded): it gives no entry. p3's attempt is partially excluded (x after its last step, in the window): not an entrant. p2 converts: 1 of 1.",
  },
  {
    name: 'time to convert: automatic bins',
    data: dataset([
      ev('p1', 'a', '10:00'),
      ev('p1', 'b', '11:00'),
      ev('p2', 'a', '10:00'),
      ev('p2', 'b', '10:37'),
      ev('p3', 'a', '2024-03-05T00:00:00Z'),
      ev('p3', 'b', '2024-03-05T23:00:00Z'),
      ev('p4', 'a', '10:00'),
    ]),
    params: { ...MARCH, funnel_viz_type: 'time_to_convert', events: [{ id: 'a' }, { id: 'b' }] },
    expected: { bins: [[2220, 2], [42510, 0], [82800, 1]], average_conversion_time: 29540 },
    why: 'funnels.md §11: samples 3600, 2220 and 82800 s (p4 never converts). 3 samples -> ceil(cbrt 3) = 2 bins; min 2220, max 82800, width ceil(80580 / 2) = 40290; starts 2220, 42510, 82800. 2220 and 3600 fall in bin 0, 82800 in bin 2. Mean 29540.',
  },
  {
    name: 'time to convert: bin_count 7',
    data: dataset([
      ev('p1', 'a', '10:00'),
      ev('p1', 'b', '11:00'),
      ev('p2', 'a', '10:00'),
      ev('p2', 'b', '10:37'),
      ev('p3', 'a', '2024-03-05T00:00:00Z'),
      ev('p3', 'b', '2024-03-05T23:00:00Z'),
    ]),
    params: { ...MARCH, funnel_viz_type: 'time_to_convert', events: [{ id: 'a' }, { id: 'b' }], bin_count: 7 },
    expected: {
      bins: [[2220, 2], [13732, 0], [25244, 0], [36756, 0], [48268, 0], [59780, 0], [71292, 1], [82804, 0]],
      average_conversion_time: 29540,
    },
    why: 'Width ceil(80580 / 7) = 11512; 8 starts 2220 + k x 11512. 82800 is (82800 - 2220) / 11512 = 6.9997 widths in: bin 6 (71292).',
  },
  {
    name: 'time to convert between chosen steps',
    data: dataset([
      ev('p1', 'a', '10:00:00'),
      ev('p1', 'b', '10:01:40'),
      ev('p1', 'c', '10:10:00'),
      ev('p2', 'a', '10:00:00'),
      ev('p2', 'b', '10:00:50'),
      ev('p2', 'c', '10:12:30'),
      ev('p3', 'a', '10:00:00'),
      ev('p3', 'b', '10:00:10'),
    ]),
    params: { ...MARCH, funnel_viz_type: 'time_to_convert', events: ABC, funnel_from_step: 1, funnel_to_step: 2 },
    expected: { bins: [[500, 1], [600, 0], [700, 1]], average_conversion_time: 600 },
    why: 'Samples are the b -> c times of those who reached c: p1 500 s, p2 700 s (p3 stops at b). 2 samples -> 2 bins of width 100 from 500: starts 500, 600, 700. Mean 600.',
  },
]
