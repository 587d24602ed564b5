import { describe, expect, test } from 'vitest'
import { toCsv } from '../src/internal/csv.js'

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
})
