import { describe, expect, test } from 'vitest'
import { analysisParamsOf } from '../src/internal/analysis-params.js'
import { MAX_JSON_DEPTH } from '../src/internal/body.js'

const read = (query: string, reserved?: ReadonlySet<string>) => analysisParamsOf(new URLSearchParams(query), reserved)

describe('analysis parameters from a GET query string', () => {
  test('JSON text of lists, objects, numbers, booleans and null is that value; other text stays text', () => {
    expect(read('events=%5B%7B%22id%22%3A%22a%22%7D%5D&total_intervals=7&cumulative=true&breakdown=null&period=Day&date_from=-7d')).toEqual({
      events: [{ id: 'a' }],
      total_intervals: 7,
      cumulative: true,
      breakdown: null,
      period: 'Day',
      date_from: '-7d',
    })
  })

  test('keys whose values only look like numbers stay text: dates, formulas, path points and keys, breakdown values', () => {
    expect(read('date_from=2024&date_to=2025&formula=2&start_point=404&end_point=1e3&path_start_key=1_2&breakdown_value=1.0&client_query_id=42')).toEqual({
      date_from: '2024',
      date_to: '2025',
      formula: '2',
      start_point: '404',
      end_point: '1e3',
      path_start_key: '1_2',
      breakdown_value: '1.0',
      client_query_id: '42',
    })
  })

  test('format and the reserved paging keys are not parameters; a repeated key keeps its last value', () => {
    expect(read('format=csv&period=Day&period=Week')).toEqual({ period: 'Week' })
    expect(read('limit=5&offset=10&period=Day', new Set(['format', 'limit', 'offset']))).toEqual({ period: 'Day' })
  })

  test('JSON nesting deeper than the body limit is a 400 naming the key', () => {
    const deep = `${'['.repeat(MAX_JSON_DEPTH + 2)}${']'.repeat(MAX_JSON_DEPTH + 2)}`
    expect(() => read(`events=${encodeURIComponent(deep)}`)).toThrow(expect.objectContaining({ status: 400, body: expect.objectContaining({ attr: 'events' }) }))
  })
})
