import { Schema } from 'effect'
import { decodeOrThrow } from '../../../util/decode.js'
import type { ActorSteps, FunnelViz } from '../funnel-request.js'
import { invalid } from './legacy-values.js'

export const ActorStepFields = Schema.Struct({
  funnel_step: Schema.optional(Schema.NullOr(Schema.Int)),
  funnel_custom_steps: Schema.optional(Schema.NullOr(Schema.Array(Schema.Int))),
})

/**
 * PostHog's `_get_funnel_person_step_condition`: a non-empty
 * `funnel_custom_steps` wins over `funnel_step` (which is then not read at
 * all) and lists the actors whose furthest step is any of them (`steps IN
 * custom_steps`: [1, 3] of a three-step funnel is those who stopped after
 * step 1 plus those who finished). Its values are 1-based steps; one that no
 * actor can have (0, negative, past the last step) matches nobody, as
 * PostHog's `IN` does, and repeats change nothing. Otherwise `funnel_step` is
 * required: 1..N reached that step or further, -N..-2 stopped just before it.
 * Throws ValidationError naming the field.
 */
export function decodeActorSteps(params: Readonly<Record<string, unknown>>, n: number, viz: FunnelViz = 'steps'): ActorSteps {
  if (viz === 'trends') return decodeTrendsPeriod(params)
  const p = decodeOrThrow(ActorStepFields, params, 'invalid funnel parameters')
  const custom = p.funnel_custom_steps ?? []
  if (custom.length > 0) return { reachedExactly: [...new Set(custom.filter((s) => s >= 1 && s <= n))].sort((a, b) => a - b) }
  const step = p.funnel_step
  if (step === undefined || step === null) {
    throw invalid(['funnel_step'], 'funnel_step is required: n lists who reached step n, -n who dropped off before it (or funnel_custom_steps, the furthest steps to list)')
  }
  if (step === 0 || step === -1 || step > n || step < -n) {
    throw invalid(['funnel_step'], `funnel_step is between 1 and ${n}, or between -${n} and -2 (dropped off before that step)`)
  }
  return step > 0 ? { reachedAtLeast: step } : { reachedExactly: [-step - 1] }
}

/**
 * PostHog's `ClickhouseFunnelTrendsActors` (chosen for `funnel_viz_type`
 * trends): `entrance_period_start` (a date or date-time, read as
 * `relative_date_parse` reads it, in the project's zone) names the period,
 * `drop_off` (`str_to_bool` of its text: y, yes, t, true, on, 1 are true)
 * who: true those who did not convert, false those who did. Both are required, with PostHog's
 * messages. ValidationError naming the field.
 */
function decodeTrendsPeriod(params: Readonly<Record<string, unknown>>): ActorSteps {
  const rawDrop = params.drop_off
  if (rawDrop === undefined || rawDrop === null) throw invalid(['drop_off'], 'Filter parameter drop_off must be provided and a bool for funnel trends persons!')
  const dropOff = TRUE_TEXTS.includes(String(rawDrop).trim().toLowerCase())
  const start = params.entrance_period_start
  if (typeof start !== 'string' || start.trim() === '') {
    throw invalid(['entrance_period_start'], 'Filter parameter entrance_period_start must be provided and a datetime for funnel trends persons!')
  }
  return { period: { start, dropOff } }
}

/** PostHog's `str_to_bool`: these texts are true, any other false. */
const TRUE_TEXTS: ReadonlyArray<string> = ['y', 'yes', 't', 'true', 'on', '1']

