import { ValidationError } from '../../../errors.js'
import { legacyParamsReader } from '../../analysis/legacy-params.js'

export const invalid = (path: ReadonlyArray<string | number>, message: string): ValidationError =>
  new ValidationError([{ path, message }], { context: 'invalid funnel parameters' })

/** A legacy funnel request (and funnel correlation's) as one object: see `legacyParamsReader`. */
export const readLegacyParams = legacyParamsReader(
  {
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
  'funnel',
)

/** Blank text (missing, null, or only spaces) is absent. */
export const blank = (s: string | null | undefined): string | null => (s === undefined || s === null || s.trim() === '' ? null : s)
