import { valueKey } from './funnel-breakdown-value.js'
import type { FunnelEvent } from './funnel-events.js'
import type { TargetResult } from './funnel-ordered.js'
import type { FunnelRun } from './funnel-runs.js'

/**
 * Unordered queues (unordered_steps.rs): one FIFO of events per step; `done`
 * counts the non-empty queues. Shared by the steps view and trends.
 */
export class StepQueues {
  readonly queues: FunnelEvent[][]
  done = 0
  constructor(readonly n: number) {
    this.queues = Array.from({ length: n }, () => [])
  }

  /** The oldest queue head and its queue (the first such queue on a tie). */
  oldest(): { e: FunnelEvent; index: number } | null {
    let found: { e: FunnelEvent; index: number } | null = null
    this.queues.forEach((q, index) => {
      const head = q[0]
      if (head && (found === null || head.ts < found.e.ts)) found = { e: head, index }
    })
    return found
  }

  pop(index: number): void {
    this.queues[index]!.shift()
    if (this.queues[index]!.length === 0) this.done -= 1
  }

  clear(): void {
    for (const q of this.queues) q.length = 0
    this.done = 0
  }

  /**
   * Adds a step event to the queue, among its steps, whose newest event is
   * oldest (an empty queue first, then the lowest step); returns false when
   * step attribution refuses it (the first event of an attempt must carry the run's value).
   */
  push(e: FunnelEvent, run: FunnelRun): boolean {
    let chosen = -1
    let chosenBack = Number.POSITIVE_INFINITY
    for (const f of e.flags) {
      if (f <= 0) continue
      const back = this.queues[f - 1]!.at(-1)?.ts ?? Number.NEGATIVE_INFINITY
      if (back < chosenBack) {
        chosen = f - 1
        chosenBack = back
      }
    }
    if (run.stepValue && this.done === run.stepValue.step && valueKey(e.value) !== run.stepValue.key) return false
    if (this.queues[chosen]!.length === 0) this.done += 1
    this.queues[chosen]!.push(e)
    return true
  }

  /** The queue heads' timestamps, ascending. */
  headTimes(): number[] {
    return this.queues.flatMap((q) => (q[0] ? [q[0].ts] : [])).sort((a, b) => a - b)
  }
}

/** Whether an event only carries exclusion codes: it resets an unordered funnel. */
export const isExclusionOnly = (e: FunnelEvent): boolean => e.flags.every((f) => f < 0)

/**
 * The unordered funnel of funnels.md §5: "step k" = k different steps within
 * one window, in any order. Progress is recorded when the oldest event leaves
 * the window (or everything is done) and at the last event; an exclusion
 * empties the queues; the first depth reached keeps its times.
 */
export function unorderedFunnel(run: FunnelRun, n: number, windowMicros: number): TargetResult {
  const queues = new StepQueues(n)
  let best = { k: 0, times: [] as number[] }
  const record = () => {
    if (queues.done > best.k) best = { k: queues.done, times: queues.headTimes() }
  }
  const events = run.events
  for (const [i, e] of events.entries()) {
    for (let o = queues.oldest(); o !== null; o = queues.oldest()) {
      if (queues.done < n && o.e.ts + windowMicros >= e.ts) break
      record()
      queues.pop(o.index)
    }
    if (isExclusionOnly(e)) queues.clear()
    else queues.push(e, run)
    if (best.k === n) break
    if (i === events.length - 1) record()
  }
  const times = best.times
  return { reached: best.k - 1, timings: times.slice(1).map((t, i) => (t - times[i]!) / 1_000_000), times }
}
