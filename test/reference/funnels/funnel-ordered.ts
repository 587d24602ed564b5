import { valueKey } from './funnel-breakdown-value.js'
import type { FunnelEvent } from './funnel-events.js'
import type { FunnelRun } from './funnel-runs.js'

/** What one run of the per-target algorithm reports. */
export interface TargetResult {
  /** 0-based index of the furthest step reached; -1 when not in the funnel (never entered, or excluded). */
  readonly reached: number
  /** Seconds from each step of the reported path to the next (`timings[i-1]`: step i-1 -> i). */
  readonly timings: ReadonlyArray<number>
  /** The reported path's step times, epoch microseconds (`times[i]`: step i); empty when not in the funnel. */
  readonly times: ReadonlyArray<number>
}

/** A partial path: its step-0 time, whether an exclusion hit it, its step times and event uuids. */
interface Path {
  readonly start: number
  excluded: boolean
  readonly times: ReadonlyArray<number>
  readonly uuids: ReadonlyArray<string>
}

const copy = (p: Path): Path => ({ ...p })

/**
 * The ordered and strict funnel of funnels.md §3-4 (PostHog's steps.rs), for
 * `n` steps and a window in microseconds. E[k] holds the newest-starting path
 * that completed k steps; the result is the furthest path, removed altogether
 * when an exclusion hit it. Events sharing a timestamp are one group: equal
 * flag lists are processed one by one; different ones are split into one
 * pseudo-event per step (exclusions dropped), by step, and strict resets skipped.
 */
export function orderedFunnel(run: FunnelRun, n: number, windowMicros: number, strict: boolean): TargetResult {
  const entered: Array<Path | null> = Array.from({ length: n + 1 }, () => null)
  let best: { k: number; path: Path } = { k: 0, path: { start: 0, excluded: false, times: [], uuids: [] } }

  const process = (e: FunnelEvent, flags: ReadonlyArray<number>, multi: boolean) => {
    for (const code of [...flags].reverse()) {
      const s = Math.abs(code)
      const p = entered[s - 1]
      if (!p || e.ts - p.start > windowMicros) continue
      if (entered[s]?.start === p.start) continue
      if (code < 0) {
        if (!p.excluded) {
          p.excluded = true
          if (best.k === s - 1 && e.ts - best.path.start <= windowMicros) best.path.excluded = true
        }
        continue
      }
      if (run.stepValue && run.stepValue.step === s - 1 && valueKey(e.value) !== run.stepValue.key) continue
      if (multi && p.uuids.includes(e.uuid)) continue
      const q: Path = { start: p.start, excluded: p.excluded, times: [...p.times, e.ts], uuids: [...p.uuids, e.uuid] }
      if (!p.excluded) entered[s] = copy(q)
      if (s > best.k || (s === best.k && best.path.excluded)) best = { k: s, path: copy(q) }
    }
    if (strict && !multi) {
      for (let i = 1; i <= n; i++) if (!flags.includes(i)) entered[i] = null
    }
  }

  const events = run.events
  for (let i = 0; i < events.length; ) {
    let j = i
    while (j < events.length && events[j]!.ts === events[i]!.ts) j++
    const group = events.slice(i, j)
    i = j
    entered[0] = { start: group[0]!.ts, excluded: false, times: [], uuids: [] }
    const first = JSON.stringify(group[0]!.flags)
    if (group.every((e) => JSON.stringify(e.flags) === first)) {
      for (const e of group) process(e, e.flags, false)
    } else {
      const pseudo = group.flatMap((e) => e.flags.filter((f) => f > 0).map((f) => ({ e, f })))
      pseudo.sort((a, b) => a.f - b.f) // stable: equal steps keep the events' order
      for (const { e, f } of pseudo) process(e, [f], true)
    }
    if (entered[n]) break
  }

  if (best.path.excluded) return { reached: -1, timings: [], times: [] }
  const times = best.path.times
  return { reached: best.k - 1, timings: times.slice(1).map((t, i) => (t - times[i]!) / 1_000_000), times }
}
