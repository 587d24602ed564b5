/**
 * The legacy parameter readers (PostHog's `Filter` reading a GET query string
 * or a JSON body): which keys' text becomes JSON, booleans and integers, and
 * what is refused. Expectations written from PostHog's legacy endpoints: list
 * and object keys arrive as JSON text, flags as "true"/"false", counts as digits.
 * A unit test of a pure decoder (no public entry point returns what it read).
 */
import { describe, expect, it } from 'vitest'
import { ValidationError } from '@sightline/core'
import { readLegacyParams } from '../../packages/core/src/query/analysis/legacy-params.js'
import { readLegacyParams as readFunnelParams } from '../../packages/core/src/query/funnels/params/legacy-values.js'

const readers = [
  {
    name: 'trend',
    read: readLegacyParams,
    json: ['events', 'actions', 'properties', 'breakdowns', 'breakdown'],
    boolean: ['filter_test_accounts', 'explicit_date', 'compare', 'breakdown_hide_other_aggregation', 'breakdown_normalize_url'],
    integer: ['breakdown_limit', 'breakdown_histogram_bin_count', 'breakdown_group_type_index', 'smoothing_intervals', 'entity_order', 'stickiness_days'],
  },
  {
    name: 'funnel',
    read: readFunnelParams,
    json: ['events', 'actions', 'exclusions', 'properties', 'breakdowns', 'breakdown', 'funnel_step_breakdown', 'funnel_custom_steps'],
    boolean: ['filter_test_accounts', 'explicit_date', 'breakdown_normalize_url'],
    integer: [
      'funnel_window_interval',
      'funnel_window_days',
      'funnel_from_step',
      'funnel_to_step',
      'breakdown_limit',
      'breakdown_group_type_index',
      'breakdown_attribution_value',
      'aggregation_group_type_index',
      'bin_count',
      'funnel_step',
    ],
  },
] as const

const refusal = (run: () => unknown): ValidationError => {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError)
    return error as ValidationError
  }
  throw new Error('expected a ValidationError')
}

describe.each(readers)('the $name parameter reader', ({ name, read, json, boolean, integer }) => {
  it('reads nothing as no parameters, and refuses what is not an object', () => {
    expect(read(undefined)).toEqual({})
    expect(read(null)).toEqual({})
    for (const bad of [[], 'events', 3, true]) {
      const error = refusal(() => read(bad))
      expect(error.issues).toEqual([{ path: [], message: `${name} parameters are a JSON object` }])
      expect(error.message).toContain(`invalid ${name} parameters`)
    }
  })

  it.each(json)('parses JSON text in %s (a list or an object, spaces before it allowed)', (key) => {
    expect(read({ [key]: '[{"id":"a"}]' })[key]).toEqual([{ id: 'a' }])
    expect(read({ [key]: ' {"a":1}' })[key]).toEqual({ a: 1 })
    // Text that does not start as a list or an object is left for the schema to judge.
    expect(read({ [key]: 'x[1]' })[key]).toBe('x[1]')
    expect(read({ [key]: '$pageview' })[key]).toBe('$pageview')
    const error = refusal(() => read({ [key]: '[1,' }))
    expect(error.issues).toEqual([{ path: [key], message: 'is not valid JSON' }])
  })

  it.each(boolean)('reads "true" and "false" in %s as booleans, in any case, spaces around ignored', (key) => {
    expect(read({ [key]: 'true' })[key]).toBe(true)
    expect(read({ [key]: 'FALSE' })[key]).toBe(false)
    expect(read({ [key]: ' True ' })[key]).toBe(true)
    for (const other of ['yes', 'xtrue', 'truex', '1']) expect(read({ [key]: other })[key]).toBe(other)
  })

  it.each(integer)('reads integer text in %s as a number (at most 15 digits, spaces around ignored)', (key) => {
    expect(read({ [key]: '12' })[key]).toBe(12)
    expect(read({ [key]: ' -3 ' })[key]).toBe(-3)
    expect(read({ [key]: '123456789012345' })[key]).toBe(123456789012345)
    for (const other of ['1.5', '12a', 'a12', '1234567890123456', '']) expect(read({ [key]: other })[key]).toBe(other)
  })

  it('leaves other keys as given, and does not change its argument', () => {
    const params = { date_from: '[1]', interval: 'true', custom: '12', events: '[]' }
    expect(read(params)).toEqual({ date_from: '[1]', interval: 'true', custom: '12', events: [] })
    expect(params.events).toBe('[]')
  })
})
