import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { Schema } from 'effect'
import { CaptureInput } from '../src/model/capture-input.js'
import { isPlainCaptureInput } from '../src/model/capture-input-fast-check.js'

const accepts = (u: unknown) => Schema.decodeUnknownExit(CaptureInput)(u)._tag === 'Success'

/** Values near the edges of every field: the fast check must never accept what the schema refuses. */
const field = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.string({ maxLength: 3 }),
  fc.string({ minLength: 199, maxLength: 202 }),
  fc.constant(''),
  fc.constantFrom(' ', '  \t', '\u00a0\n'),
  fc.uuid(),
  fc.constant('0190F5A0-0000-7000-8000-00000000000A'),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.date(),
  fc.constant(new Date(Number.NaN)),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue(), { maxKeys: 3 }),
)

/** A valid input with one or two fields replaced by an edge value: close to the boundary the two checks share. */
const valid = fc.record(
  {
    event: fc.string({ minLength: 1, maxLength: 200 }),
    distinctId: fc.string({ minLength: 1, maxLength: 200 }),
    timestamp: fc.oneof(fc.string(), fc.date({ noInvalidDate: true })),
    properties: fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue(), { maxKeys: 3 }),
    uuid: fc.uuid(),
    sentAt: fc.date({ noInvalidDate: true }),
    offset: fc.double({ noNaN: true, noDefaultInfinity: true }),
  },
  { requiredKeys: ['event', 'distinctId'] },
)
const keys = fc.constantFrom('event', 'distinctId', 'timestamp', 'properties', 'uuid', 'sentAt', 'offset', 'extra')
const input = fc
  .tuple(valid, fc.array(fc.tuple(keys, field), { minLength: 1, maxLength: 2 }))
  .map(([base, edits]) => Object.assign({ ...base }, Object.fromEntries(edits)))

describe('isPlainCaptureInput', () => {
  it('accepts nothing the CaptureInput schema refuses', () => {
    fc.assert(
      fc.property(fc.oneof(input, fc.anything()), (u) => {
        if (isPlainCaptureInput(u)) expect(accepts(u)).toBe(true)
      }),
      { numRuns: 3000 },
    )
  })

  it('accepts the common shapes, so that capture skips schema decoding for them', () => {
    const ok = [
      { event: '$pageview', distinctId: 'a' },
      { event: 'e', distinctId: 'a', timestamp: '2026-01-01T00:00:00Z', properties: { x: 1 }, uuid: '0190f5a0-0000-7000-8000-000000000001' },
      { event: 'e', distinctId: 'a', timestamp: new Date(), sentAt: new Date(), offset: 10 },
    ]
    for (const u of ok) {
      expect(isPlainCaptureInput(u)).toBe(true)
      expect(accepts(u)).toBe(true)
    }
    expect(isPlainCaptureInput({ event: '', distinctId: 'a' })).toBe(false)
    expect(isPlainCaptureInput({ event: 'e', distinctId: 'a', properties: [] })).toBe(false)
    // A blank distinct id is refused by both (issue 13: it used to be stored).
    for (const distinctId of [' ', '  \t', '\u3000']) {
      expect(isPlainCaptureInput({ event: 'e', distinctId })).toBe(false)
      expect(accepts({ event: 'e', distinctId })).toBe(false)
    }
    expect(accepts({ event: 'e', distinctId: ' a ' })).toBe(true)
  })
})
