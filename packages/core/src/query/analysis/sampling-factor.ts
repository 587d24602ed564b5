import { ValidationError } from '../../errors.js'

/**
 * What an answer says when its request sent a `sampling_factor` other than 1:
 * the factor was not applied, every event was read. PostHog samples events
 * (ClickHouse `SAMPLE`, by a hash of the distinct id) and scales the counts
 * back up (`correct_result_for_sampling`), so its sampled answer estimates
 * the exact one; Sightline answers that exact one, which a client drawing
 * PostHog's sampled answer can draw as is.
 */
export interface SamplingNotice {
  /** The factor the request sent. */
  readonly sampling_factor: number
  /** Always false: every event was read and the counts are exact. */
  readonly sampling_factor_applied: false
}

/**
 * Reads `sampling_factor` as PostHog's `SamplingFactorMixin` does (a number,
 * or its text in a GET query): absent, null, blank or 1 ask for no sampling
 * (null); anything else is the factor, between 0 (excluded) and 1. Throws a
 * ValidationError naming `sampling_factor` for any other value.
 */
export function readSamplingFactor(params: Readonly<Record<string, unknown>>, context: string): number | null {
  const raw = params.sampling_factor
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return null
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*[0-9.eE+-]+\s*$/.test(raw) ? Number(raw) : Number.NaN
  if (!Number.isFinite(value) || value <= 0 || value > 1) {
    throw new ValidationError([{ path: ['sampling_factor'], message: 'sampling_factor is a number above 0 and at most 1 (1 or absent: every event)' }], { context })
  }
  return value === 1 ? null : value
}

/** The fields an analysis' answer adds for `params`: a SamplingNotice when a factor other than 1 was sent, else none. */
export function samplingNotice(params: unknown): SamplingNotice | Record<never, never> {
  if (typeof params !== 'object' || params === null) return {}
  const factor = readSamplingFactor(params as Record<string, unknown>, 'invalid parameters')
  return factor === null ? {} : { sampling_factor: factor, sampling_factor_applied: false }
}
