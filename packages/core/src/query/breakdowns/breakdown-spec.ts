import { Schema } from 'effect'
import { ValidationError } from '../../errors.js'
import { decodeOrThrow } from '../../util/decode.js'

/** PostHog's BREAKDOWN_VALUES_LIMIT: the breakdown values trends and retention keep by default (reference §6). */
export const DEFAULT_BREAKDOWN_LIMIT = 25

export const BREAKDOWN_TYPES = ['event', 'person', 'group', 'cohort', 'session', 'hogql'] as const
export type BreakdownType = (typeof BREAKDOWN_TYPES)[number]

/** One breakdown dimension, normalised from PostHog's legacy keys. */
export interface BreakdownSpec {
  readonly type: BreakdownType
  /** The property key (event, person, group, session), the HogQL expression, or for cohorts unused. */
  readonly property: string
  /** Cohort breakdowns: the cohort ids ('all' = every person, PostHog's "all users"). */
  readonly cohorts: ReadonlyArray<number | 'all'>
  readonly groupTypeIndex: number | null
  /** Strip one trailing `/`, `?` or `#` from values (PostHog's `breakdown_normalize_url`). */
  readonly normalizeUrl: boolean
  /** Numeric values are put into this many equal-width bins. */
  readonly histogramBinCount: number | null
}

const Scalar = Schema.Union([Schema.String, Schema.Finite])
const BreakdownsItem = Schema.Struct({
  property: Scalar,
  type: Schema.optional(Schema.NullOr(Schema.String)),
  group_type_index: Schema.optional(Schema.NullOr(Schema.Int)),
  normalize_url: Schema.optional(Schema.NullOr(Schema.Boolean)),
  histogram_bin_count: Schema.optional(Schema.NullOr(Schema.Int)),
})
const BreakdownFields = Schema.Struct({
  breakdown: Schema.optional(Schema.NullOr(Schema.Union([Scalar, Schema.Array(Scalar)]))),
  breakdown_type: Schema.optional(Schema.NullOr(Schema.String)),
  breakdown_group_type_index: Schema.optional(Schema.NullOr(Schema.Int)),
  breakdown_normalize_url: Schema.optional(Schema.NullOr(Schema.Boolean)),
  breakdown_histogram_bin_count: Schema.optional(Schema.NullOr(Schema.Int)),
  breakdowns: Schema.optional(Schema.NullOr(Schema.Array(BreakdownsItem))),
})

type BreakdownFieldsInput = typeof BreakdownFields.Encoded

/**
 * The breakdown keys of a legacy request: `breakdown` (a property, a list of
 * them, or cohort ids) with `breakdown_type` (default `event`), or the
 * `breakdowns` list. Default: no breakdown.
 */
export interface BreakdownParams extends BreakdownFieldsInput {
  /** Default `event` (PostHog's typo `events` reads as `event`). */
  readonly breakdown_type?: BreakdownType | 'events' | null
}

const invalid = (path: ReadonlyArray<string | number>, message: string): never => {
  throw new ValidationError([{ path, message }], { context: 'invalid breakdown' })
}

function breakdownType(value: string | null | undefined, path: ReadonlyArray<string | number>): BreakdownType {
  // PostHog: the type defaults to `event` once a breakdown is set, and the typo `events` means `event`.
  const t = value === undefined || value === null || value === '' ? 'event' : value === 'events' ? 'event' : value
  if (!(BREAKDOWN_TYPES as ReadonlyArray<string>).includes(t)) invalid(path, `unknown breakdown type ${JSON.stringify(value)}; use one of ${BREAKDOWN_TYPES.join(', ')}`)
  return t as BreakdownType
}

function groupIndex(type: BreakdownType, index: number | null | undefined, path: ReadonlyArray<string | number>): number | null {
  if (type !== 'group') return null
  if (index === undefined || index === null) return invalid(path, 'a group breakdown needs breakdown_group_type_index (0 to 4)')
  if (index < 0 || index > 4) return invalid(path, 'breakdown_group_type_index must be between 0 and 4')
  return index
}

function binCount(n: number | null | undefined, path: ReadonlyArray<string | number>): number | null {
  if (n === undefined || n === null) return null
  if (n < 1 || n > 1000) return invalid(path, 'histogram bin count must be between 1 and 1000')
  return n
}

/**
 * The breakdown dimensions of a legacy filter: `breakdowns` (multi, at most
 * `maxDimensions`) or `breakdown` + `breakdown_type`. A list-valued
 * `breakdown` of event or person properties is several dimensions, as
 * PostHog's multi-property funnels; of cohorts, one cohort dimension.
 * Empty when the filter has no breakdown. ValidationError names the key.
 */
export function decodeBreakdowns(input: Record<string, unknown>, maxDimensions: number): BreakdownSpec[] {
  const p = decodeOrThrow(BreakdownFields, input, 'invalid breakdown')
  if (p.breakdowns && p.breakdowns.length > 0) {
    if (p.breakdowns.length > maxDimensions) invalid(['breakdowns'], `at most ${maxDimensions} breakdowns are allowed here`)
    return p.breakdowns.map((b, i) => {
      const type = breakdownType(b.type, ['breakdowns', i, 'type'])
      if (type === 'cohort') invalid(['breakdowns', i, 'type'], 'cohort breakdowns take `breakdown` with `breakdown_type: cohort`')
      return {
        type,
        property: String(b.property),
        cohorts: [],
        groupTypeIndex: groupIndex(type, b.group_type_index, ['breakdowns', i, 'group_type_index']),
        normalizeUrl: b.normalize_url === true,
        histogramBinCount: binCount(b.histogram_bin_count, ['breakdowns', i, 'histogram_bin_count']),
      }
    })
  }
  const b = p.breakdown
  if (b === undefined || b === null || b === '' || (Array.isArray(b) && b.length === 0)) {
    if (p.breakdown_type) invalid(['breakdown'], `breakdown_type ${JSON.stringify(p.breakdown_type)} needs a breakdown`)
    return []
  }
  const type = breakdownType(p.breakdown_type, ['breakdown_type'])
  const common = {
    groupTypeIndex: groupIndex(type, p.breakdown_group_type_index, ['breakdown_group_type_index']),
    normalizeUrl: p.breakdown_normalize_url === true,
    histogramBinCount: binCount(p.breakdown_histogram_bin_count, ['breakdown_histogram_bin_count']),
  }
  if (type === 'cohort') {
    const ids = (Array.isArray(b) ? b : [b]).map((v, i) => {
      if (v === 'all') return 'all' as const
      const n = typeof v === 'number' ? v : /^\d+$/.test(v) ? Number(v) : Number.NaN
      return Number.isSafeInteger(n) ? n : invalid(Array.isArray(b) ? ['breakdown', i] : ['breakdown'], `a cohort breakdown takes cohort ids or "all", got ${JSON.stringify(v)}`)
    })
    return [{ type, property: '', cohorts: ids, ...common }]
  }
  const properties = Array.isArray(b) ? b : [b]
  if (properties.length > maxDimensions) invalid(['breakdown'], `at most ${maxDimensions} breakdown properties are allowed here`)
  return properties.map((property) => ({ type, property: String(property), cohorts: [], ...common }))
}
