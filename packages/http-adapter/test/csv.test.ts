import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { csvCell, csvLine, toCsv } from '../src/internal/csv.js'
import { analysisCsvResponse } from '../src/internal/csv-analyses.js'
import { csvTableResponse } from '../src/internal/csv-stream.js'

/** RFC 4180, written from the RFC for these tests: records end in CRLF, a quoted field doubles its quotes and may hold commas and line breaks. */
function parseCsv(text: string): string[][] {
  const records: string[][] = []
  let record: string[] = []
  let i = 0
  while (i < text.length) {
    let field = ''
    if (text[i] === '"') {
      i++
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field')
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"'
            i += 2
            continue
          }
          i++
          break
        }
        field += text[i++]
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r') {
        if (text[i] === '"' || text[i] === '\n') throw new Error(`bare ${JSON.stringify(text[i])} in an unquoted field at ${i}`)
        field += text[i++]
      }
    }
    record.push(field)
    if (text[i] === ',') {
      i++
      continue
    }
    if (text.slice(i, i + 2) !== '\r\n') throw new Error(`expected CRLF at ${i}`)
    i += 2
    records.push(record)
    record = []
  }
  return records
}

/** What a cell must read as once parsed: text that a spreadsheet would run as a formula gains a leading `'`. */
const expectedText = (value: string | number | boolean | null): string =>
  value === null ? '' : value === true ? 'True' : value === false ? 'False' : typeof value === 'number' ? String(value) : /^[=+\-@\t\r]/.test(value) ? `'${value}` : value

describe('csvCell and csvLine (RFC 4180, formulas neutralised)', () => {
  test('quotes, commas and line breaks are quoted, quotes doubled; formulas prefixed; numbers never', () => {
    expect(csvCell('plain')).toBe('plain')
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('two\nlines')).toBe('"two\nlines"')
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"')
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe('"\'=HYPERLINK(""http://evil"",""x"")"')
    expect(['+1', '-1', '@SUM(A1)', '\tx'].map(csvCell)).toEqual(["'+1", "'-1", "'@SUM(A1)", "'\tx"])
    expect(csvCell('\rx')).toBe('"\'\rx"')
    // A negative count is a number: a spreadsheet must read it as one.
    expect(csvCell(-2)).toBe('-2')
    expect([null, undefined, true, false, 0, 1.5].map(csvCell)).toEqual(['', '', 'True', 'False', '0', '1.5'])
  })

  test('property: parsing the lines back gives every cell, formula text with its guard', () => {
    const cell = fc.oneof(
      fc.string({ unit: fc.constantFrom('a', 'z', ' ', ',', '"', '\r', '\n', '=', '+', '-', '@', '\t', "'", 'é', '😀') }),
      fc.string(),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
    )
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 5 }), (rows) => {
        const text = rows.map((row) => csvLine(row)).join('')
        expect(parseCsv(text)).toEqual(rows.map((row) => row.map(expectedText)))
      }),
      { numRuns: 300 },
    )
  })
})

describe("toCsv (djangorestframework-csv's PaginatedCSVRenderer)", () => {
  test('renders the results of a list envelope, nested fields as dotted headers, sorted', () => {
    const csv = toCsv({
      count: 2,
      next: null,
      previous: null,
      results: [
        { id: 1, name: 'Signups', filters: { events: [{ id: '$pageview', math: 'total' }] }, saved: true },
        { id: 2, name: 'Has, comma "quoted"', filters: {}, saved: false, tags: ['a', 'b'], deleted: null },
      ],
    })
    expect(csv).toBe(
      [
        'deleted,filters.events.0.id,filters.events.0.math,id,name,saved,tags.0,tags.1',
        ',$pageview,total,1,Signups,True,,',
        ',,,2,"Has, comma ""quoted""",False,a,b',
        '',
      ].join('\r\n'),
    )
  })

  test('a single object is one row; nothing is an empty document', () => {
    expect(toCsv({ a: 1, b: 'x\ny' })).toBe('a,b\r\n1,"x\ny"\r\n')
    expect(toCsv({ count: 0, next: null, previous: null, results: [] })).toBe('')
    expect(toCsv(null)).toBe('')
  })

  test('a name a spreadsheet would run is neutralised there too', () => {
    expect(toCsv({ results: [{ name: '=cmd|" /C calc"!A0', n: -1 }] })).toBe('n,name\r\n-1,"\'=cmd|"" /C calc""!A0"\r\n')
  })
})

describe('csvTableResponse: written record by record', () => {
  test('a large table arrives in several pieces whose text is the whole table', async () => {
    const n = 20_000
    const response = csvTableResponse({ header: ['i', 'label'], *rows() { for (let i = 0; i < n; i++) yield [i, `row, ${i}`] } }, 'export-x.csv')
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="export-x.csv"')
    const reader = response.body!.getReader()
    const decoder = new TextDecoder()
    let text = ''
    let pieces = 0
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      pieces++
      text += decoder.decode(r.value, { stream: true })
    }
    // About 15 bytes a record: some 300 kB, in pieces of about 64 kB.
    expect(pieces).toBeGreaterThan(3)
    const records = parseCsv(text)
    expect(records).toHaveLength(n + 1)
    expect(records[0]).toEqual(['i', 'label'])
    expect(records[n]).toEqual([String(n - 1), `row, ${n - 1}`])
  })

  test('an empty result is the header alone', async () => {
    expect(await analysisCsvResponse('paths', { result: [] }).text()).toBe('source,target,value,average_conversion_time\r\n')
    expect(await analysisCsvResponse('trend', { result: [] }).text()).toBe('series\r\n')
    expect(await analysisCsvResponse('retention', { result: [] }).text()).toBe('cohort,cohort size\r\n')
  })
})

/** Tables of results written by hand in core's shapes, for the cases the end-to-end data does not reach. */
describe('analysis tables', () => {
  const text = (kind: Parameters<typeof analysisCsvResponse>[0], result: unknown) => analysisCsvResponse(kind, { result, last_refresh: '2026-01-15T12:00:00.000000Z' }).text()

  test('a formula over a total-value display has data null: `total count` only; a series without a label is `Series #n`', async () => {
    const result = [
      { data: null, days: [], count: 0, aggregated_value: 7, label: 'Formula (A+B)', action: null },
      { data: [1, 2], labels: ['a', 'b'], days: [], count: 3, action: { custom_name: null } },
    ]
    // Mixed only by hand: the second series fills the dated columns, the first leaves them empty.
    expect(await text('trend', result)).toBe('series,a,b,total,total count\r\nFormula (A+B),,,,7\r\nSeries #2,1,2,3,\r\n')
  })

  test('a multiple breakdown joins its parts with `::`; a missing breakdown cell is empty', async () => {
    const result = [
      { data: [1], labels: ['d'], label: 'x', breakdown_value: ['pro', 3], action: {} },
      { data: [2], labels: ['d'], label: 'y', action: {} },
    ]
    expect(await text('trend', result)).toBe('series,breakdown,d,total\r\nx,pro::3,1,1\r\ny,,2,2\r\n')
  })

  test('funnel: a cohort breakdown shows the cohort’s name; an unordered step its name; nobody entered, no rates', async () => {
    const steps = (breakdown: string, value: number, counts: number[]) =>
      counts.map((count, i) => ({ action_id: null, name: `Completed ${i + 1} step${i ? 's' : ''}`, custom_name: null, count, breakdown, breakdown_value: value, median_conversion_time: null, average_conversion_time: null }))
    const result = [steps('Paying users', 12, [4, 1]), steps('all users', 0, [0, 0])]
    expect(await text('funnel', result)).toBe(
      [
        'name,breakdown_value,action_id,count,conversion rate (%),conversion from previous step (%),median_conversion_time (seconds),average_conversion_time (seconds)',
        'Completed 1 step,Paying users,,4,100,,,',
        'Completed 2 steps,Paying users,,1,25,25,,',
        'Completed 1 step,all users,,0,,,,',
        'Completed 2 steps,all users,,0,,,,',
        '',
      ].join('\r\n'),
    )
  })

  test('funnel trends by breakdown: a breakdown column, no total', async () => {
    const result = [
      { count: 2, data: [50, 0], days: [], labels: ['1-Jan', '2-Jan'], breakdown_value: ['pro'] },
      { count: 2, data: [100, 12.5], days: [], labels: ['1-Jan', '2-Jan'], breakdown_value: ['free'] },
    ]
    expect(await text('funnel', result)).toBe('series,breakdown,1-Jan,2-Jan\r\nconversion rate (%),pro,50,0\r\nconversion rate (%),free,100,12.5\r\n')
  })

  test('correlation: an event with properties keeps its full name; an empty result is the header', async () => {
    const row = { event: { event: 'signup::$browser::Chrome', properties: {}, elements: [] }, success_count: 3, failure_count: 1, odds_ratio: 1.5, correlation_type: 'success' }
    expect(await text('funnelCorrelation', { events: [row], skewed: false })).toBe('event,correlation type,odds ratio,success count,failure count\r\nsignup::$browser::Chrome,success,1.5,3,1\r\n')
    expect(await text('funnelCorrelation', { events: [], skewed: true })).toBe('event,correlation type,odds ratio,success count,failure count\r\n')
  })

  test('the file is named after the endpoint and the time of computation', () => {
    expect(analysisCsvResponse('funnelCorrelation', { result: {}, last_refresh: '2026-03-04T05:06:07.000000Z' }).headers.get('content-disposition')).toBe(
      'attachment; filename="export-funnel-correlation-2026-03-04-050607.csv"',
    )
    expect(analysisCsvResponse('paths', { result: [] }).headers.get('content-disposition')).toBe('attachment; filename="export-path.csv"')
  })
})
