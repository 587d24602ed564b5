/**
 * A rule for every parameter (issue 20): each of PostHog's filter keys
 * (posthog-keys.ts) is, for each analysis, read by Sightline, refused with a
 * 400 naming it, or inert for a stated reason; none is silently ignored.
 * Checked on the request decoders, which run before any SQL.
 */
import { describe, expect, it } from 'vitest'
import { ValidationError } from '../../packages/core/src/errors.js'
import { decodeCorrelationRequest } from '../../packages/core/src/query/correlation/decode-correlation-params.js'
import { decodeFunnelActorsRequest, decodeFunnelRequest } from '../../packages/core/src/query/funnels/params/decode-funnel-params.js'
import { decodePathsRequest } from '../../packages/core/src/query/paths/paths-request.js'
import { decodeRetentionRequest } from '../../packages/core/src/query/retention/retention-request.js'
import { decodeTrendRequest } from '../../packages/core/src/query/trends/trend-request.js'
import { ANALYSES, POSTHOG_KEYS, type Analysis } from './posthog-keys.js'

const AB = { events: [{ id: 'a' }, { id: 'b' }] }
const DECODERS: Record<Analysis, { decode: (params: unknown) => unknown; base: Record<string, unknown> }> = {
  trends: { decode: decodeTrendRequest, base: { events: [{ id: 'a' }] } },
  stickiness: { decode: decodeTrendRequest, base: { insight: 'STICKINESS', events: [{ id: 'a' }] } },
  lifecycle: { decode: decodeTrendRequest, base: { insight: 'LIFECYCLE', events: [{ id: 'a' }] } },
  funnels: { decode: decodeFunnelRequest, base: AB },
  correlation: { decode: decodeCorrelationRequest, base: AB },
  'funnel-persons': { decode: decodeFunnelActorsRequest, base: { ...AB, funnel_step: 1 } },
  retention: { decode: decodeRetentionRequest, base: {} },
  paths: { decode: decodePathsRequest, base: {} },
}

/** The attr of the ValidationError `decode` throws, or null when it accepts the request. */
function attrOf(analysis: Analysis, extra: Record<string, unknown>): string | null {
  const { decode, base } = DECODERS[analysis]
  try {
    decode({ ...base, ...extra })
    return null
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error
    return error.attr ?? ''
  }
}
const names = (attr: string | null, key: string) => attr === key || (attr !== null && attr.startsWith(`${key}__`))
// Values of the wrong type for any key: an object where a scalar or list is read, a fraction where text, a list or an object is.
const WRONG_TYPES: ReadonlyArray<unknown> = [{ wrong: 'type' }, 12.5]

describe('every PostHog filter key has a rule in every analysis', () => {
  it('the baseline requests are accepted', () => {
    for (const analysis of ANALYSES) expect(attrOf(analysis, {}), analysis).toBeNull()
  })

  it('the key list has no repeats', () => {
    expect(new Set(POSTHOG_KEYS.map((k) => k.key)).size).toBe(POSTHOG_KEYS.length)
  })

  for (const spec of POSTHOG_KEYS) {
    it(spec.key, () => {
      const problems: string[] = []
      for (const analysis of ANALYSES) {
        const rule = spec.rules[analysis]
        const context = spec.with ?? {}
        const sample = analysis in (spec.samples ?? {}) ? spec.samples![analysis] : spec.sample
        if (rule === 'read') {
          const attrs = WRONG_TYPES.map((bad) => attrOf(analysis, { ...context, [spec.key]: bad }))
          if (!attrs.some((a) => names(a, spec.key))) problems.push(`${analysis}: read, but a wrong type is not refused naming it (${attrs.join(', ')})`)
          const fine = attrOf(analysis, { ...context, [spec.key]: sample })
          if (names(fine, spec.key)) problems.push(`${analysis}: read, but the sample ${JSON.stringify(sample)} is refused`)
        } else if (rule === 'refused') {
          const attr = attrOf(analysis, { ...context, [spec.key]: sample })
          if (!names(attr, spec.key)) problems.push(`${analysis}: refused, but the sample gives ${attr ?? 'no error'}`)
        } else {
          const attr = attrOf(analysis, { ...context, [spec.key]: sample })
          if (attr !== null) problems.push(`${analysis}: ${'inert' in rule ? 'inert' : 'read elsewhere'}, but the sample gives a 400 at ${attr}`)
          const why = 'inert' in rule ? rule.inert : rule.readElsewhere
          if (why.length < 20) problems.push(`${analysis}: no reason given`)
        }
      }
      expect(problems).toEqual([])
    })
  }

  it('a funnel step marked optional is refused naming the step', () => {
    expect(attrOf('funnels', { events: [{ id: 'a' }, { id: 'b', optionalInFunnel: true }] })).toBe('events__1__optionalInFunnel')
    expect(attrOf('funnels', { events: [{ id: 'a' }, { id: 'b', optionalInFunnel: false }] })).toBeNull()
  })

  it('values that ask for nothing pass: sampling_factor 1, empty lists', () => {
    expect(attrOf('trends', { sampling_factor: 1 })).toBeNull()
    // A factor is read as PostHog's mixin reads it (GET text too); outside (0, 1] it is refused naming the key.
    expect(attrOf('paths', { sampling_factor: '0.25' })).toBeNull()
    for (const bad of [0, -0.5, 1.5, 'half']) expect(attrOf('funnels', { sampling_factor: bad }), String(bad)).toBe('sampling_factor')
    expect(attrOf('retention', { sampling_factor: null })).toBeNull()
    expect(attrOf('trends', { data_warehouse: [] })).toBeNull()
    expect(attrOf('funnel-persons', { funnel_custom_steps: '[]' })).toBeNull()
    // A list of steps is read (its JSON text too); the empty one leaves funnel_step to choose.
    expect(attrOf('funnel-persons', { funnel_custom_steps: '[1, 2]' })).toBeNull()
    expect(attrOf('funnel-persons', { funnel_step: null, funnel_custom_steps: [] })).toBe('funnel_step')
    expect(attrOf('funnel-persons', { funnel_step: 9, funnel_custom_steps: [2] })).toBeNull()
  })
})
