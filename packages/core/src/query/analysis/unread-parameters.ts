import { ValidationError } from '../../errors.js'
import { readSamplingFactor } from './sampling-factor.js'

/** The analyses whose requests are checked for PostHog keys they do not read. */
export type AnalysisKind = 'trends' | 'stickiness' | 'lifecycle' | 'funnels' | 'funnel-persons' | 'retention' | 'paths'

interface Unread {
  readonly key: string
  readonly in: ReadonlyArray<AnalysisKind>
  /** Whether the value asks for something (a default value changes nothing and passes). */
  readonly asks: (value: unknown) => boolean
  readonly message: string
}

const given = (v: unknown): boolean => v !== undefined && v !== null && v !== '' && v !== false && v !== 'false'
// A list, or its JSON text from a GET query; an empty one asks for nothing.
const nonEmptyList = (v: unknown): boolean => (Array.isArray(v) ? v.length > 0 : typeof v === 'string' ? !/^\s*(\[\s*\])?\s*$/.test(v) : given(v))

const SERIES: ReadonlyArray<AnalysisKind> = ['trends', 'stickiness', 'lifecycle', 'funnels']

/**
 * PostHog filter keys that change what PostHog computes and that Sightline
 * does not compute (packages/core/README.md lists every key's rule). Sent
 * with a value that asks for something, each is a 400 naming the key rather
 * than an answer that silently differs from PostHog's. Keys an analysis
 * refuses in its own decoder (paths' `funnel_paths`) are not repeated here.
 */
const UNREAD: ReadonlyArray<Unread> = [
  { key: 'data_warehouse', in: SERIES, asks: nonEmptyList, message: 'data warehouse series are not supported; use events or actions' },
  { key: 'data_warehouse_entities', in: SERIES, asks: nonEmptyList, message: 'data warehouse series are not supported; use events or actions' },
  {
    key: 'explicit_date',
    in: ['retention'],
    asks: given,
    message: "retention's window is date_to and total_intervals; an explicit date range is not supported",
  },
]

/**
 * Throws a ValidationError naming the first key of `params` that `kind` does
 * not read and that asks for something. Also checks `sampling_factor`, which
 * every analysis reads and none applies (sampling-factor.ts: the answer says so).
 */
export function refuseUnreadParameters(params: Readonly<Record<string, unknown>>, kind: AnalysisKind, context: string): void {
  readSamplingFactor(params, context)
  for (const rule of UNREAD) {
    if (rule.in.includes(kind) && rule.asks(params[rule.key])) throw new ValidationError([{ path: [rule.key], message: rule.message }], { context })
  }
}

/**
 * Funnel steps marked optional (`optionalInFunnel`, which PostHog's funnels
 * let a person skip) are not supported: a 400 naming the step's key.
 */
export function refuseOptionalSteps(params: Readonly<Record<string, unknown>>, context: string): void {
  for (const kind of ['events', 'actions'] as const) {
    const list = params[kind]
    if (!Array.isArray(list)) continue
    list.forEach((item, i) => {
      if (typeof item === 'object' && item !== null && given((item as Record<string, unknown>).optionalInFunnel)) {
        throw new ValidationError([{ path: [kind, i, 'optionalInFunnel'], message: 'optional funnel steps are not supported' }], { context })
      }
    })
  }
}
