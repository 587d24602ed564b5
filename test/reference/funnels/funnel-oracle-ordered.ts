/**
 * One target's ordered or strict funnel (funnels.md §3-4, the UDF
 * `funnel-udf/src/steps.rs`): the furthest step over every attempt, and the
 * conversion times of the attempt that got there first.
 */
import type { FunnelRun } from './funnel-oracle-attribution.js'
import type { FunnelEvent } from './funnel-oracle-events.js'

/** How far a target got: `depth` steps done (1 = entered), and the gaps between its steps in microseconds. */
export interface Outcome {
  readonly depth: number
  readonly gaps: ReadonlyArray<number>
}

/** A partial path: where it started, whether an exclusion hit it, its step times and event uuids. */
interface Path {
  readonly start: number
  excluded: boolean
  readonly times: ReadonlyArray<number>
  readonly uuids: ReadonlyArray<string>
}

/**
 * `null` when the target never entered; 'excluded' when its furthest attempt
 * was hit by an exclusion (it then leaves the whole funnel).
 */
export function orderedOutcome(run: FunnelRun, stepCount: number, windowMicros: number, strict: boolean): Outcome | 'excluded' | null {
  // entered[k]: the latest partial path that has done k steps; entered[0] is "could start now".
  const entered: Array<Path | undefined> = new Array(stepCount + 1).fill(undefined)
  let best: { k: number; path: Path | undefined } = { k: 0, path: undefined }

  const process = (e: FunnelEvent, flags: ReadonlyArray<number>, multi: boolean) => {
    // Exclusions first, then steps from the highest down, so one event never fills two steps of a path.
    for (const code of [...flags].reverse()) {
      const s = Math.abs(code)
      const p = entered[s - 1]
      if (!p || e.micros - p.start > windowMicros) continue
      if (entered[s]?.start === p.start) continue
      if (code < 0) {
        if (p.excluded) continue
        p.excluded = true
        if (best.k === s - 1 && best.path && e.micros - best.path.start <= windowMicros) best.path.excluded = true
        continue
      }
      if (run.attribution && run.attribution.step === s - 1 && e.valueKey !== run.attribution.valueKey) continue
      if (multi && p.uuids.includes(e.uuid)) continue
      const q: Path = { start: p.start, excluded: p.excluded, times: [...p.times, e.micros], uuids: [...p.uuids, e.uuid] }
      if (!p.excluded) entered[s] = q
      // The best path is a copy: an exclusion marks it apart from the partial paths.
      if (s > best.k || (s === best.k && best.path?.excluded)) best = { k: s, path: { ...q } }
    }
    if (strict && !multi) {
      for (let i = 1; i <= stepCount; i++) if (!flags.includes(i)) entered[i] = undefined
    }
  }

  const events = run.events
  for (let i = 0; i < events.length; ) {
    let j = i
    while (j < events.length && events[j]!.micros === events[i]!.micros) j++
    const group = events.slice(i, j)
    i = j
    entered[0] = { start: group[0]!.micros, excluded: false, times: [], uuids: [] }
    const sameFlags = group.every((e) => e.flags.join() === group[0]!.flags.join())
    if (sameFlags) for (const e of group) process(e, e.flags, false)
    else {
      // Different events at one instant: one pseudo-event per step, by step number;
      // exclusions and the strict reset are skipped (steps.rs).
      const pseudo = group.flatMap((e) => e.flags.filter((f) => f > 0).map((f) => ({ e, f })))
      pseudo.sort((a, b) => a.f - b.f)
      for (const { e, f } of pseudo) process(e, [f], true)
    }
    if (entered[stepCount]) break
  }
  if (best.path?.excluded) return 'excluded'
  if (best.k === 0 || !best.path) return null
  const times = best.path.times
  return { depth: best.k, gaps: times.slice(1).map((t, k) => t - times[k]!) }
}
