/**
 * One target's funnel trends (funnels.md §10.2 and §10.4; the UDFs
 * `trends.rs` and `unordered_trends.rs`): for each period of a step-0
 * event, whether the target entered (reached `fromStep`) and whether it
 * converted (reached the last step of the funnel truncated at `toStep`).
 */
import type { FunnelRun } from './funnel-oracle-attribution.js'
import type { FunnelEvent } from './funnel-oracle-events.js'
import { StepQueues } from './funnel-oracle-unordered.js'

/** Period start (epoch ms) -> true when converted, false when entered only. */
export type PeriodOutcomes = Map<number, boolean>

type Exclusion = 'not' | 'partial' | 'full'
interface Attempt {
  max: { step: number; micros: number; excluded: Exclusion }
  /** entered[k]: start of the path that has done k steps, or null; and whether an exclusion hit it. */
  entered: Array<{ start: number; excluded: boolean } | null>
}

/**
 * Ordered and strict trends. `stepCount` is the truncated funnel's length,
 * `periodOf` gives an event's period start.
 */
export function orderedTrendOutcomes(
  run: FunnelRun,
  stepCount: number,
  fromStep: number,
  windowMicros: number,
  strict: boolean,
  periodOf: (e: FunnelEvent) => number,
): PeriodOutcomes {
  const attempts = new Map<number, Attempt>()
  const results: PeriodOutcomes = new Map()
  for (const e of run.events) {
    for (const code of [...e.flags].reverse()) {
      const s = Math.abs(code)
      const unmatched = run.attribution !== null && run.attribution.step === s - 1 && e.valueKey !== run.attribution.valueKey
      if (s === 1) {
        const period = periodOf(e)
        if (unmatched || results.has(period)) continue
        const attempt = attempts.get(period)
        // A period's attempt only moves its start forward, unless it is an excluded attempt still at step 0.
        if (!attempt || (attempt.max.step === 1 && attempt.max.excluded !== 'not')) {
          const entered: Attempt['entered'] = new Array(stepCount + 1).fill(null)
          entered[1] = { start: e.micros, excluded: false }
          attempts.set(period, { max: { step: 1, micros: e.micros, excluded: 'not' }, entered })
        } else attempt.entered[1] = { start: e.micros, excluded: false }
        continue
      }
      for (const [period, a] of [...attempts]) {
        const p = a.entered[s - 1]
        if (!p || e.micros - p.start > windowMicros) continue
        if (a.entered[s]?.start === p.start) continue
        if (code < 0) {
          if (p.excluded) continue
          p.excluded = true
          if (a.max.step === s - 1 && e.micros - a.max.micros <= windowMicros) a.max.excluded = 'partial'
          continue
        }
        if (unmatched) continue
        if (!p.excluded) a.entered[s] = { start: p.start, excluded: false }
        if (a.entered[stepCount]) {
          results.set(period, true)
          attempts.delete(period)
        } else if (s > a.max.step || (s === a.max.step && a.max.excluded === 'partial')) {
          a.max = { step: s, micros: e.micros, excluded: p.excluded ? 'full' : 'not' }
        }
      }
    }
    if (strict) {
      for (const a of attempts.values()) for (let i = 1; i <= stepCount; i++) if (!e.flags.includes(i)) a.entered[i] = null
    }
  }
  // A fully excluded attempt leaves only the conversions; otherwise every attempt that reached fromStep is an entrant.
  if (![...attempts.values()].some((a) => a.max.excluded === 'full')) {
    for (const [period, a] of attempts) {
      if (!results.has(period) && a.max.step >= fromStep + 1 && a.max.excluded !== 'partial') results.set(period, false)
    }
  }
  return results
}

/** Unordered trends: the distinct steps in the window, recorded for the period of its oldest event. */
export function unorderedTrendOutcomes(
  run: FunnelRun,
  stepCount: number,
  fromStep: number,
  windowMicros: number,
  periodOf: (e: FunnelEvent) => number,
): PeriodOutcomes {
  const window = new StepQueues(stepCount)
  const maxByPeriod = new Map<number, number>()
  const drain = (e: FunnelEvent, last: boolean) => {
    for (let o = window.oldest(); o >= 0; o = window.oldest()) {
      const head = window.queues[o]![0]!
      if (!(last || window.done >= stepCount || head.micros + windowMicros < e.micros)) break
      const period = periodOf(head)
      if (window.done > (maxByPeriod.get(period) ?? -1)) maxByPeriod.set(period, window.done)
      window.pop(o)
    }
  }
  const attribution = run.attribution
  run.events.forEach((e, i) => {
    drain(e, false)
    if (e.flags.every((f) => f < 0)) window.clear()
    else window.push(e, (done) => attribution !== null && done === attribution.step && e.valueKey !== attribution.valueKey)
    if (i === run.events.length - 1) drain(e, true)
  })
  const results: PeriodOutcomes = new Map()
  for (const [period, max] of maxByPeriod) if (max >= fromStep + 1) results.set(period, max >= stepCount)
  return results
}
