/**
 * Rows and expressions with their values, each worked out by hand from the
 * semantics in packages/core/README.md ("HogQL expressions"). Three rows:
 * `r1` a Chrome event at 2024-03-10T06:30:15.123Z (01:30 EST in New York,
 * before that day's change to summer time at 07:00Z), `r2` a Safari event at
 * 12:00Z (08:00 EDT), `r3` an event with no properties on 2023-12-31T23:59:59Z.
 */
import type { HogqlRow, ScopeOptions } from './hogql-db.js'

export const ROWS: HogqlRow[] = [
  {
    id: 1,
    properties: { $browser: 'Chrome', n: 5, s: '7', b: true, price: 2.5, qty: 4, neg: -3.5, url: 'https://x.com/pricing?a=1', name: 'Ünïcode Ab' },
    person: { email: 'a@b.com' },
    timestamp: '2024-03-10T06:30:15.123Z',
    elementsChain: 'a:href="/x"',
  },
  { id: 2, properties: { $browser: 'Safari', n: 2.5, b: false, s: 'abc' }, timestamp: '2024-03-10T12:00:00Z', sessionId: 's1', group0: { industry: 'finance' }, groupKey0: 'acme' },
  { id: 3, event: 'signup', timestamp: '2023-12-31T23:59:59Z' },
]

const NY: ScopeOptions = { timezone: 'America/New_York' }
const CLOCK: ScopeOptions = { now: new Date('2024-03-11T00:00:00Z') }
const T = (iso: string) => `${iso.slice(0, 19)}.${iso.slice(20, 23).padEnd(6, '0')}Z`

/** [expression, values of r1, r2, r3, scope options]: values as the drivers return them (times as ISO text with microseconds). */
export const VALUES: Array<[string, unknown[], ScopeOptions?]> = [
  // fields
  ['event', ['$pageview', '$pageview', 'signup']],
  ['distinct_id', ['d1', 'd2', 'd3']],
  ['person_id', ['p1', 'p2', 'p3']],
  ['person.id', ['p1', 'p2', 'p3']],
  ['properties.$browser', ['Chrome', 'Safari', null]],
  ["properties['$browser']", ['Chrome', 'Safari', null]],
  ['properties.n', ['5', '2.5', null]],
  ['properties.b', ['true', 'false', null]],
  ['person.properties.email', ['a@b.com', null, null]],
  ["person.properties['email']", ['a@b.com', null, null]],
  ['elements_chain', ['a:href="/x"', '', '']],
  ['$session_id', [null, 's1', null]],
  ['properties.$session_id', [null, null, null]],
  ['$group_0', [null, 'acme', null]],
  ['group_0.properties.industry', [null, 'finance', null]],
  ['timestamp', [T('2024-03-10T06:30:15.123Z'), T('2024-03-10T12:00:00.000Z'), T('2023-12-31T23:59:59.000Z')]],
  // literals
  ["'it''s'", ["it's", "it's", "it's"]],
  ['1.5', [1.5, 1.5, 1.5]],
  ['-3', [-3, -3, -3]],
  ['true', [true, true, true]],
  ['null', [null, null, null]],
  // arithmetic: text read as numbers; * and / only on factors within 1e-150..1e150
  ['properties.n + 1', [6, 3.5, null]],
  ['properties.n - properties.price', [2.5, null, null]],
  ['properties.price * properties.qty', [10, null, null]],
  ['properties.n / 2', [2.5, 1.25, null]],
  ['properties.n / 0', [null, null, null]],
  ['-properties.n', [-5, -2.5, null]],
  ['properties.s * 2', [14, null, null]],
  ['2 + 3 * 4', [14, 14, 14]],
  ['7 / 2', [3.5, 3.5, 3.5]],
  ['true + 1', [2, 2, 2]],
  ['1e200 * 1e-100', [null, null, null]],
  // the IEEE product, as both databases and JavaScript round it
  ['1e150 * 1e150', [1e150 * 1e150, 1e150 * 1e150, 1e150 * 1e150]],
  ['1e300 + 1e300', [2e300, 2e300, 2e300]],
  // comparisons: a number on either side compares numerically; = and != are null-safe as HogQL prints them
  ['properties.n = 5', [true, false, false]],
  ['properties.n != 5', [false, true, true]],
  ["properties.n = '5.0'", [false, false, false]],
  ['properties.n > 3', [true, false, null]],
  ['properties.n >= 2.5', [true, true, null]],
  ['properties.n < 3', [false, true, null]],
  ['properties.n <= 5', [true, true, null]],
  ["properties.$browser = 'Chrome'", [true, false, false]],
  ["properties.$browser != 'Chrome'", [false, true, true]],
  ['properties.$browser = null', [false, false, true]],
  ['properties.$browser is null', [false, false, true]],
  ['properties.$browser is not null', [true, true, false]],
  ['properties.$browser = properties.$browser', [true, true, true]],
  ['properties.$browser != properties.missing', [true, true, false]],
  ['properties.b = true', [true, false, false]],
  ["properties.$browser < 'D'", [true, false, null]],
  // code point order ("C"), not a locale's: 'Ü' (U+00DC) sorts after 'Z'
  ["properties.name < 'Z'", [false, null, null]],
  ["properties.$browser like 'Ch%'", [true, false, null]],
  ["properties.$browser ilike 'CH%'", [true, false, null]],
  ["properties.$browser not like '%a%'", [true, false, null]],
  ["properties.$browser not ilike 's%'", [true, false, null]],
  ["properties.$browser like 'Chrom_'", [true, false, null]],
  ["properties.url like '%x.com/%'", [true, null, null]],
  ["properties.$browser in ('Chrome', 'Firefox')", [true, false, false]],
  ["properties.$browser not in ('Chrome')", [false, true, true]],
  ['properties.n in (5, 2.5)', [true, true, false]],
  ['properties.n in [1, 2]', [false, false, false]],
  ["properties.$browser =~ '^S'", [false, true, null]],
  ["properties.$browser !~ '^S'", [true, false, null]],
  ["properties.$browser =~* '^s'", [false, true, null]],
  ["properties.$browser !~* '^s'", [true, false, null]],
  ['properties.n between 2 and 4', [false, true, null]],
  ['properties.n not between 2 and 4', [true, false, null]],
  ["properties.$browser is distinct from 'Chrome'", [false, true, true]],
  ["properties.$browser is not distinct from 'Chrome'", [true, false, false]],
  // boolean operators (three-valued, as SQL and ClickHouse)
  ['properties.n > 3 and properties.b', [true, false, null]],
  ['properties.n > 3 or properties.b', [true, false, null]],
  ['not properties.b', [false, true, null]],
  ["properties.b ? 'y' : 'n'", ['y', 'n', 'n']],
  // functions
  ['lower(properties.name)', ['Ünïcode ab', null, null]],
  ['upper(properties.name)', ['ÜNïCODE AB', null, null]],
  ["concat(properties.$browser, '/', properties.n)", ['Chrome/5', 'Safari/2.5', '/']],
  ['properties.$browser || event', ['Chrome$pageview', 'Safari$pageview', 'signup']],
  ['toString(properties.n * 2)', ['10', '5', null]],
  ['toString(properties.n > 3)', ['1', '0', null]],
  ['toString(0.1 + 0.2)', ['0.30000000000000004', '0.30000000000000004', '0.30000000000000004']],
  ["toInt('12')", [12, 12, 12]],
  ["toInt('1.5')", [null, null, null]],
  // a property is text: '-3.5' does not spell an integer; read as a number first, it truncates
  ['toInt(properties.neg)', [null, null, null]],
  ['toInt(toFloat(properties.neg))', [-3, null, null]],
  ['toInt(properties.s)', [7, null, null]],
  ['toFloat(properties.s)', [7, null, null]],
  ['length(properties.name)', [10, null, null]],
  ['round(2.5)', [2, 2, 2]],
  ['round(3.5)', [4, 4, 4]],
  ['round(-2.5)', [-2, -2, -2]],
  ['round(properties.price)', [2, null, null]],
  ['round(1.2345, 2)', [1.23, 1.23, 1.23]],
  ['round(0.125, 2)', [0.12, 0.12, 0.12]],
  ['floor(-1.5)', [-2, -2, -2]],
  ['ceil(-1.5)', [-1, -1, -1]],
  ['abs(properties.neg)', [3.5, null, null]],
  ["if(properties.n > 3, 'big', 'small')", ['big', 'small', 'small']],
  ["multiIf(properties.n > 3, 'big', properties.n > 1, 'mid', 'none')", ['big', 'mid', 'none']],
  ["coalesce(properties.$browser, 'none')", ['Chrome', 'Safari', 'none']],
  ['coalesce(properties.n, 0)', [5, 2.5, 0]],
  ['ifNull(properties.price, 1)', [2.5, 1, 1]],
  ['isNull(properties.$browser)', [false, false, true]],
  ['isNotNull(properties.$browser)', [true, true, false]],
  ["match(properties.url, 'pricing')", [true, null, null]],
  // dates, in the project's zone
  ['toStartOfDay(timestamp)', [T('2024-03-10T00:00:00.000Z'), T('2024-03-10T00:00:00.000Z'), T('2023-12-31T00:00:00.000Z')]],
  ['toStartOfDay(timestamp)', [T('2024-03-10T05:00:00.000Z'), T('2024-03-10T05:00:00.000Z'), T('2023-12-31T05:00:00.000Z')], NY],
  ['toStartOfHour(timestamp)', [T('2024-03-10T06:00:00.000Z'), T('2024-03-10T12:00:00.000Z'), T('2023-12-31T23:00:00.000Z')], NY],
  ['toStartOfWeek(timestamp)', [T('2024-03-10T05:00:00.000Z'), T('2024-03-10T05:00:00.000Z'), T('2023-12-31T05:00:00.000Z')], NY],
  ['toStartOfWeek(timestamp, 1)', [T('2024-03-04T05:00:00.000Z'), T('2024-03-04T05:00:00.000Z'), T('2023-12-25T05:00:00.000Z')], NY],
  ['toStartOfMonth(timestamp)', [T('2024-03-01T05:00:00.000Z'), T('2024-03-01T05:00:00.000Z'), T('2023-12-01T05:00:00.000Z')], NY],
  ['toStartOfQuarter(timestamp)', [T('2024-01-01T00:00:00.000Z'), T('2024-01-01T00:00:00.000Z'), T('2023-10-01T00:00:00.000Z')]],
  ['toStartOfYear(timestamp)', [T('2024-01-01T00:00:00.000Z'), T('2024-01-01T00:00:00.000Z'), T('2023-01-01T00:00:00.000Z')]],
  ['toDate(timestamp)', [T('2024-03-10T05:00:00.000Z'), T('2024-03-10T05:00:00.000Z'), T('2023-12-31T05:00:00.000Z')], NY],
  ["toDateTime('2024-03-10 08:00:00') = timestamp", [false, true, false], NY],
  ["timestamp > '2024-01-01'", [true, true, false]],
  ["timestamp < '2024-03-10T12:00:00Z'", [true, false, true], NY],
  ["dateDiff('day', '2024-03-01', timestamp)", [9, 9, -61]],
  ["dateDiff('week', '2024-03-04', timestamp)", [0, 0, -10]],
  ["dateDiff('month', '2023-11-15', timestamp)", [4, 4, 1]],
  ["dateDiff('quarter', '2023-11-15', timestamp)", [1, 1, 0]],
  ["dateDiff('year', '2023-06-01', timestamp)", [1, 1, 0]],
  ["dateDiff('second', '2024-03-10T06:30:00Z', timestamp)", [15, 19800, -5985001]],
  ["dateDiff('minute', '2024-03-10T06:30:59Z', timestamp)", [0, 330, -99751]],
  // wall-clock hours: 00:00 to 08:00 EDT on the day the clocks skip 02:00 is 8
  ["dateDiff('hour', '2024-03-10 00:00:00', timestamp)", [1, 8, -1662], NY],
  ["dateDiff('day', timestamp, now())", [1, 1, 71], CLOCK],
]

/** [expression, hogqlToText of r1, r2, r3, scope options]. */
export const TEXTS: Array<[string, Array<string | null>, ScopeOptions?]> = [
  ['properties.n', ['5', '2.5', null]],
  ['properties.n * 2', ['10', '5', null]],
  ['1e17', ['100000000000000000', '100000000000000000', '100000000000000000']],
  ['properties.n > 3', ['1', '0', null]],
  ['timestamp', ['2024-03-10 01:30:15.123000', '2024-03-10 08:00:00.000000', '2023-12-31 18:59:59.000000'], NY],
  ['toStartOfDay(timestamp)', ['2024-03-10 00:00:00', '2024-03-10 00:00:00', '2023-12-31 00:00:00'], NY],
  ['toStartOfHour(timestamp)', ['2024-03-10 01:00:00', '2024-03-10 08:00:00', '2023-12-31 18:00:00'], NY],
  ['toDate(timestamp)', ['2024-03-10', '2024-03-10', '2023-12-31'], NY],
  ['toStartOfMonth(timestamp)', ['2024-03-01', '2024-03-01', '2023-12-01']],
  ['today()', ['2024-03-11', '2024-03-11', '2024-03-11'], CLOCK],
  ["if(properties.n > 3, timestamp, toStartOfDay(timestamp))", ['2024-03-10 06:30:15.123000', '2024-03-10 00:00:00.000000', '2023-12-31 00:00:00.000000']],
  ['properties.$browser', ['Chrome', 'Safari', null]],
]

/** [expression, ids `compileHogqlCondition` selects]: null is false. */
export const CONDITIONS: Array<[string, number[]]> = [
  ["properties.$browser = 'Chrome'", [1]],
  ['properties.n > 3', [1]],
  ['properties.b', [1]],
  ['not properties.b', [2]],
  ['properties.n', [1, 2]],
  ['properties.$browser != properties.missing', [1, 2]],
  ['1', [1, 2, 3]],
  ['null', []],
  ["event = 'signup' or properties.n < 3", [2, 3]],
]
