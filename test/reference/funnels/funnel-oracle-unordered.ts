/**
 * One target's unordered funnel (funnels.md §5, the UDF
 * `funnel-udf/src/unordered_steps.rs`): "step k" is k different steps done
 * within one window, in any order. Exclusions reset progress instead of
 * removing the target.
 */
import type { FunnelRun } from './funnel-oracle-attribution.js'
import type { FunnelEvent } from './funnel-oracle-events.js'
import type { Outcome } from './funnel-oracle-ordered.js'

/** A sliding window of events, one FIFO queue per step; shared with unordered funnel trends. */
export class StepQueues {
  readonly queues: FunnelEvent[][]
  done = 0

  constructor(stepCount: number) {
    this.queues = Array.from({ length: stepCount }, () => [])
  }

  /** The queue whose head is the oldest event (the first such queue on a tie), or -1. */
  oldest(): number {
    let index = -1
    this.queues.forEach((q, i) => {
      if (q.length > 0 && (index < 0 || q[0]!.micros < this.queues[index]![0]!.micros)) index = i
    })
    return index
  }

  pop(index: number): void {
    this.queues[index]!.shift()
    if (this.queues[index]!.length === 0) this.done--
  }

  clear(): void {
    for (const q of this.queues) q.length = 0
    this.done = 0
  }

  /**
   * Adds a step event to the step whose newest event is oldest (empty first;
   * the lowest step on a tie), unless `skip(done)` says the attribution refuses it.
   */
  push(e: FunnelEvent, skip: (done: number) => boolean): void {
    const steps = e.flags.filter((f) => f > 0)
    const back = (s: number) => this.queues[s - 1]!.at(-1)?.micros ?? 0
    let s = steps[0]!
    for (const t of steps) if (back(t) < back(s)) s = t
    if (skip(this.done)) return
    if (this.queues[s - 1]!.length === 0) this.done++
    this.queues[s - 1]!.push(e)
  }

  /** The heads' times, sorted. */
  headTimes(): number[] {
    return this.queues.filter((q) => q.length > 0).map((q) => q[0]!.micros).sort((a, b) => a - b)
  }
}

/** `null` when the target never did any step. */
export function unorderedOutcome(run: FunnelRun, stepCount: number, windowMicros: number): Outcome | null {
  const window = new StepQueues(stepCount)
  let best: Outcome = { depth: 0, gaps: [] }
  const record = () => {
    if (window.done <= best.depth) return
    const times = window.headTimes()
    best = { depth: window.done, gaps: times.slice(1).map((t, k) => t - times[k]!) }
  }
  // Step attribution (step 0 only, for unordered funnels): the first event of an attempt must carry the value.
  const attribution = run.attribution
  const events = run.events
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!
    for (let o = window.oldest(); o >= 0; o = window.oldest()) {
      // Progress is recorded when an old event leaves the window (or a full window is emptied).
      if (window.done < stepCount && window.queues[o]![0]!.micros + windowMicros >= e.micros) break
      record()
      window.pop(o)
    }
    if (e.flags.every((f) => f < 0)) window.clear()
    else window.push(e, (done) => attribution !== null && done === attribution.step && e.valueKey !== attribution.valueKey)
    if (best.depth === stepCount) break
    if (i === events.length - 1) record()
  }
  return best.depth === 0 ? null : best
}
