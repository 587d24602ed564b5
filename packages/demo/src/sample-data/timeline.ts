import { HOUR } from './time.js'

/** Relative traffic per UTC hour: Europe's working day overlapping America's. */
const HOUR_WEIGHTS = [
  0.3, 0.24, 0.2, 0.18, 0.18, 0.22, 0.32, 0.48, 0.68, 0.85, 0.95, 1.0, 1.02, 1.08, 1.15, 1.2, 1.2, 1.15, 1.05,
  0.92, 0.78, 0.62, 0.48, 0.37,
]
/** Relative traffic per UTC weekday, Sunday first. */
const WEEKDAY_WEIGHTS = [0.5, 1.0, 1.04, 1.02, 0.98, 0.88, 0.46]

/**
 * Maps "intensity positions" to instants: a uniform draw of positions over [0, total) gives
 * instants distributed like real traffic. Piecewise constant per hour, so both directions are a
 * lookup and a little arithmetic.
 */
export class Timeline {
  readonly total: number
  readonly #start: number
  readonly #end: number
  readonly #cumulative: Float64Array
  readonly #weights: Float64Array

  constructor(start: number, end: number) {
    const slots = Math.max(1, Math.ceil((end - start) / HOUR))
    this.#start = start
    this.#end = end
    this.#weights = new Float64Array(slots)
    this.#cumulative = new Float64Array(slots + 1)
    for (let i = 0; i < slots; i++) {
      const slotStart = start + i * HOUR
      const date = new Date(slotStart)
      const weight = (HOUR_WEIGHTS[date.getUTCHours()] ?? 1) * (WEEKDAY_WEIGHTS[date.getUTCDay()] ?? 1)
      this.#weights[i] = weight
      this.#cumulative[i + 1] = (this.#cumulative[i] ?? 0) + (weight * Math.min(HOUR, end - slotStart)) / HOUR
    }
    this.total = this.#cumulative[slots] ?? 0
  }

  /** The instant (ms) at `position`; positions at or past `total` map to the end. */
  timeAt(position: number): number {
    if (position >= this.total) return this.#end
    let lo = 0
    let hi = this.#weights.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1
      if ((this.#cumulative[mid] as number) <= position) lo = mid
      else hi = mid - 1
    }
    const offset = (position - (this.#cumulative[lo] as number)) / (this.#weights[lo] as number)
    return Math.min(this.#end, Math.floor(this.#start + (lo + offset) * HOUR))
  }

  /** The position of instant `time` (the inverse of timeAt). */
  positionOf(time: number): number {
    if (time >= this.#end) return this.total
    const slot = Math.max(0, Math.min(this.#weights.length - 1, Math.floor((time - this.#start) / HOUR)))
    const within = (time - this.#start - slot * HOUR) / HOUR
    return (this.#cumulative[slot] as number) + (this.#weights[slot] as number) * within
  }
}
