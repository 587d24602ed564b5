import { describe, expect, it } from 'vitest'
import { ValidationError } from '@sightline/core'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { SightlineOptions } from '../../packages/core/src/options.js'
import { decodeOrThrow } from '../../packages/core/src/util/decode.js'
import { DEFAULT_MAX_CONCURRENT_PER_PROJECT, DEFAULT_QUERY_TIMEOUT_MS } from '../../packages/core/src/query/execution/query-executor.js'

const decode = (queries: unknown) => decodeOrThrow(SightlineOptions, { storage: duckdbStorage(), queries }, 'invalid Sightline options')

describe('the queries option', () => {
  it("defaults to PostHog's figures: a 60 s timeout, 3 analyses at once per project", () => {
    expect([DEFAULT_QUERY_TIMEOUT_MS, DEFAULT_MAX_CONCURRENT_PER_PROJECT]).toEqual([60_000, 3])
    expect(decode(undefined).queries).toBeUndefined()
    expect(decode({}).queries).toEqual({})
  })

  it('takes a timeout and a limit', () => {
    expect(decode({ timeoutMs: 5_000, maxConcurrentPerProject: 10 }).queries).toEqual({ timeoutMs: 5_000, maxConcurrentPerProject: 10 })
  })

  it.each([
    ['a zero timeout', { timeoutMs: 0 }, 'timeoutMs'],
    ['a timeout no timer can wait for', { timeoutMs: 2 ** 31 }, 'timeoutMs'],
    ['a fractional timeout', { timeoutMs: 1.5 }, 'timeoutMs'],
    ['a zero limit', { maxConcurrentPerProject: 0 }, 'maxConcurrentPerProject'],
    ['a limit as text', { maxConcurrentPerProject: '3' }, 'maxConcurrentPerProject'],
  ])('refuses %s, naming the field', (_name, queries, field) => {
    expect(() => decode(queries)).toThrow(ValidationError)
    try {
      decode(queries)
    } catch (error) {
      expect((error as ValidationError).issues[0]?.path).toEqual(['queries', field])
    }
  })
})
