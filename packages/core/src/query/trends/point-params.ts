import { Schema } from 'effect'
import { ValidationError } from '../../errors.js'
import { decodeOrThrow } from '../../util/decode.js'
import { parseAbsoluteDate } from '../dates/absolute-date.js'
import { instantOf } from '../dates/wall-clock.js'
import { LIFECYCLE_STATUSES, type LifecycleStatus } from '../lifecycle/lifecycle-sql.js'
import { readLegacyParams } from '../analysis/legacy-params.js'
import type { Period } from '../dates/periods.js'
import { bucketIndexOf } from '../dates/periods.js'
import type { TrendParams, TrendRequest } from './trend-request.js'

/** The clicked point of a persons URL (`persons-url.ts` writes these keys). */
export interface Point {
  /** The series, by its index after PostHog's ordering (`entity_order`). */
  readonly series: number
  /** The bucket's start as the URL gives it; null for the whole range (total-value displays). */
  readonly targetDate: string | null
  /** One entry per breakdown dimension; null for every value. */
  readonly breakdown: ReadonlyArray<string> | null
  readonly compareLabel: 'current' | 'previous' | null
  readonly lifecycleStatus: LifecycleStatus | null
  readonly stickinessDays: number | null
}

const PointParams = Schema.Struct({
  entity_order: Schema.optional(Schema.NullOr(Schema.Int)),
  target_date: Schema.optional(Schema.NullOr(Schema.String)),
  breakdown_value: Schema.optional(Schema.NullOr(Schema.Union([Schema.String, Schema.Finite, Schema.Array(Schema.String)]))),
  compare_label: Schema.optional(Schema.NullOr(Schema.Literals(['current', 'previous']))),
  lifecycle_type: Schema.optional(Schema.NullOr(Schema.Literals(LIFECYCLE_STATUSES))),
  stickiness_days: Schema.optional(Schema.NullOr(Schema.Int)),
})

type PointFields = typeof PointParams.Encoded

/** A point of a trend, stickiness or lifecycle result: what its `persons_urls[i].filter` (`persons.filter`) holds. */
export interface TrendPointParams extends PointFields {
  /** The series by its entity, as the links write it; the point is read from `entity_order` (default 0). */
  readonly entity_id?: string | number | null
  readonly entity_type?: 'events' | 'actions' | null
  readonly entity_math?: string | null
}

/**
 * The parameters of `sightline.query.trendPersons`: the trend's plus the
 * point, `{ ...params, ...result[i].persons_urls[j].filter }`.
 */
export interface TrendPersonsParams extends TrendParams, TrendPointParams {}

const invalid = (field: string, message: string): never => {
  throw new ValidationError([{ path: [field], message }], { context: 'invalid persons parameters' })
}

/**
 * Reads the point keys of a persons request against its decoded trend
 * request. Throws ValidationError naming the key: a series index out of
 * range, a breakdown value without a breakdown (or of the wrong width), the
 * previous period without `compare`, a stickiness day count out of 1..N
 * checked later against the period.
 */
export function decodePoint(params: unknown, request: TrendRequest): Point {
  const p = decodeOrThrow(PointParams, readLegacyParams(params), 'invalid persons parameters')
  const series = p.entity_order ?? 0
  if (series < 0 || series >= request.series.length) invalid('entity_order', `there are ${request.series.length} series (0 to ${request.series.length - 1})`)
  let breakdown: string[] | null = null
  if (p.breakdown_value !== undefined && p.breakdown_value !== null) {
    if (request.breakdowns.length === 0) invalid('breakdown_value', 'the request has no breakdown')
    const raw = p.breakdown_value
    if (request.multiBreakdown) {
      let list: unknown = raw
      if (typeof raw === 'string') {
        try {
          list = JSON.parse(raw)
        } catch {
          invalid('breakdown_value', 'a multi-breakdown value is a JSON list of strings')
        }
      }
      if (!Array.isArray(list) || list.length !== request.breakdowns.length || !list.every((v) => typeof v === 'string')) {
        invalid('breakdown_value', `a multi-breakdown value is a list of ${request.breakdowns.length} strings`)
      }
      breakdown = list as string[]
    } else {
      if (Array.isArray(raw)) invalid('breakdown_value', 'a single breakdown value is a string')
      breakdown = [String(raw)]
    }
  }
  const compareLabel = p.compare_label ?? null
  if (compareLabel === 'previous' && !request.compare) invalid('compare_label', '"previous" needs compare')
  const stickinessDays = p.stickiness_days ?? null
  if (request.insight === 'STICKINESS' && stickinessDays === null) invalid('stickiness_days', 'a stickiness point needs stickiness_days')
  const lifecycleStatus = p.lifecycle_type ?? null
  if (request.insight === 'LIFECYCLE' && lifecycleStatus === null) invalid('lifecycle_type', 'a lifecycle point needs lifecycle_type')
  const targetDate = p.target_date === undefined || p.target_date === null || p.target_date.trim() === '' ? null : p.target_date.trim()
  if (request.insight === 'LIFECYCLE' && targetDate === null) invalid('target_date', 'a lifecycle point needs target_date')
  return { series, targetDate, breakdown, compareLabel, lifecycleStatus, stickinessDays }
}

/**
 * The bucket of a period that `target_date` names: an ISO date-time (with an
 * offset, an instant; without, a wall-clock time in the project's zone) or a
 * `days[i]` value, inside the period's buckets. ValidationError otherwise.
 */
export function pointBucket(period: Period, targetDate: string): number {
  const parsed = parseAbsoluteDate(targetDate)
  if (!parsed) return invalid('target_date', `cannot read ${JSON.stringify(targetDate)}; use the bucket's date as the result shows it`)
  const micros = parsed.offset === undefined ? instantOf(period.timeZone, { wall: parsed.wall, micros: parsed.micros, fold: 0 }) : (parsed.wall - parsed.offset) * 1000 + parsed.micros
  const ms = Math.floor(micros / 1000)
  const i = bucketIndexOf(period.starts, ms)
  if (i < 0 || ms >= period.ends[i]!) return invalid('target_date', `${JSON.stringify(targetDate)} is not in the range of the result`)
  return i
}
