import type { FunnelViz } from '../funnel-request.js'
import { invalid } from './legacy-values.js'

/**
 * `funnel_from_step` / `funnel_to_step` (0-based), read by trends and time to
 * convert; the steps view ignores them. Defaults 0 and the last step. Time to
 * convert reads `funnelToStep or last`, so 0 means the last step there.
 * Throws ValidationError with PostHog's messages, naming the field.
 */
export function stepRange(from: number | null | undefined, to: number | null | undefined, viz: FunnelViz, n: number): { fromStep: number; toStep: number } {
  if (viz === 'steps') return { fromStep: 0, toStep: n - 1 }
  const fromStep = from ?? 0
  let toStep = to ?? n - 1
  if (viz === 'time_to_convert' && toStep === 0) toStep = n - 1
  if (viz === 'time_to_convert' && (toStep < 1 || toStep > n - 1)) {
    const allowed = Array.from({ length: n - 1 }, (_, i) => i + 1).join(', ')
    throw invalid(['funnel_to_step'], `Filter parameter funnel_to_step can only be one of ${allowed} for time to convert!`)
  }
  if (fromStep < 0 || fromStep > n - 2) throw invalid(['funnel_from_step'], `funnelFromStep is out of bounds. It must be between 0 and ${n - 2}.`)
  if (toStep < 1 || toStep > n - 1) throw invalid(['funnel_to_step'], `funnelToStep is out of bounds. It must be between 1 and ${n - 1}.`)
  if (toStep <= fromStep) throw invalid(['funnel_to_step'], 'Funnel step range is invalid. funnelToStep should be greater than funnelFromStep.')
  return { fromStep, toStep }
}
