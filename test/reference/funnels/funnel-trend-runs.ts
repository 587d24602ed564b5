import { valueKey } from './funnel-breakdown-value.js'
import type { FunnelEvent } from './funnel-events.js'
import type { FunnelRun } from './funnel-runs.js'
import { isExclusionOnly, StepQueues } from './funnel-unordered.js'

/** Per entry period (bucket start, ms): 1 = converted, -1 = entered without converting. */
export type PeriodOutcomes = Map<number, 1 | -1>

type Exclusion = 'not' | 'partial' | 'full'
interface Attempt {
  max: { step: number; ts: number; excluded: Exclusion }
  /** entered[k]: the step-0 time of the path that completed k steps, and whether an exclusion hit it. */
  entered: Array<{ ts: number; excluded: boolean } | null>
}

/**
 * Ordered and strict funnel trends (funnels.md §10.2, trends.rs) over `n`
 * steps (the funnel cut at `to_step`). A step-0 event opens its period's
 * attempt, or moves its start; later steps advance every open attempt; an
 * attempt that completes is its period's conversion. At the end, unless some
 * attempt completed over an exclusion ("full"), every open attempt that
 * reached `fromStep` and is not partially excluded is an entrant.
 */
export function orderedTrendOutcomes(
  run: FunnelRun,
  n: number,
  windowMicros: number,
  strict: boolean,
  fromStep: number,
  periodOf: (e: FunnelEvent) => number,
): PeriodOutcomes {
  const attempts = new Map<number, Attempt>()
  const results: PeriodOutcomes = new Map()
  for (const e of run.events) {
    for (const code of [...e.flags].reverse()) {
      const s = Math.abs(code)
      const unmatched = run.stepValue !== null && run.stepValue.step === s - 1 && valueKey(e.value) !== run.stepValue.key
      if (code === 1) {
        const period = periodOf(e)
        if (unmatched || results.has(period)) continue
        const a = attempts.get(period)
        if (!a || (a.max.step === 1 && a.max.excluded !== 'not')) {
          const entered: Attempt['entered'] = Array.from({ length: n + 1 }, () => null)
          entered[1] = { ts: e.ts, excluded: false }
          attempts.set(period, { max: { step: 1, ts: e.ts, excluded: 'not' }, entered })
        } else a.entered[1] = { ts: e.ts, excluded: false }
        continue
      }
      for (const [period, a] of attempts) {
        const prev = a.entered[s - 1]
        if (!prev || e.ts - prev.ts > windowMicros) continue
        if (a.entered[s]?.ts === prev.ts) continue
        if (code < 0) {
          if (!prev.excluded) {
            prev.excluded = true
            if (a.max.step === s - 1 && e.ts - a.max.ts <= windowMicros) a.max.excluded = 'partial'
          }
          continue
        }
        if (unmatched) continue
        if (!prev.excluded) a.entered[s] = { ts: prev.ts, excluded: false }
        if (a.entered[n]) {
          results.set(period, 1)
          attempts.delete(period)
        } else if (s > a.max.step || (s === a.max.step && a.max.excluded === 'partial')) {
          a.max = { step: s, ts: e.ts, excluded: prev.excluded ? 'full' : 'not' }
        }
      }
    }
    if (strict) {
      for (const a of attempts.values()) for (let i = 1; i <= n; i++) if (!e.flags.includes(i)) a.entered[i] = null
    }
  }
  if (![...attempts.values()].some((a) => a.max.excluded === 'full')) {
    for (const [period, a] of attempts) {
      if (!results.has(period) && a.max.step >= fromStep + 1 && a.max.excluded !== 'partial') results.set(period, -1)
    }
  }
  return results
}

/**
 * Unordered funnel trends (funnels.md §10.4, unordered_trends.rs): the
 * sliding window of the unordered steps; when the oldest event leaves it (or
 * everything is done, or at the last event) the number of distinct steps is
 * recorded for the period of that oldest event, keeping each period's
 * highest. A period is an entrant from `fromStep + 1` distinct steps and a
 * conversion at all `n` (the reading funnels.md's terse "reaches to_step" is
 * given here; see the file header of funnel-reference.ts).
 */
export function unorderedTrendOutcomes(
  run: FunnelRun,
  n: number,
  windowMicros: number,
  fromStep: number,
  periodOf: (e: FunnelEvent) => number,
): PeriodOutcomes {
  const queues = new StepQueues(n)
  const best = new Map<number, number>()
  const drain = (e: FunnelEvent, last: boolean) => {
    for (let o = queues.oldest(); o !== null; o = queues.oldest()) {
      if (!(last || queues.done >= n || o.e.ts + windowMicros < e.ts)) break
      const period = periodOf(o.e)
      if (queues.done > (best.get(period) ?? 0)) best.set(period, queues.done)
      queues.pop(o.index)
    }
  }
  const events = run.events
  for (const [i, e] of events.entries()) {
    drain(e, false)
    if (isExclusionOnly(e)) queues.clear()
    else queues.push(e, run)
    if (i === events.length - 1) drain(e, true)
  }
  const results: PeriodOutcomes = new Map()
  for (const [period, done] of best) if (done >= fromStep + 1) results.set(period, done >= n ? 1 : -1)
  return results
}
