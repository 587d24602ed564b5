import { DAY, startOfUtcDay } from './time.js'

export interface SampleDataOptions {
  /** Same seed, same events. Default 42. */
  seed?: number
  /** Number of people. Default 5,000, or targetEvents / 60 when only targetEvents is given. */
  persons?: number
  /** Length of the window that ends at `end`. Default 90. */
  days?: number
  /** Exclusive end of the window. Default: the start of the current UTC day. Pass the engine's clock. */
  end?: Date
  /** Approximate number of events. Default 300,000, or persons * 60 when only persons is given. */
  targetEvents?: number
  /** Maximum events per batch. Default 5,000. */
  batchSize?: number
}

/** The options with defaults applied and checked; times in epoch milliseconds. */
export interface Settings {
  readonly seed: number
  readonly persons: number
  readonly start: number
  readonly end: number
  readonly targetEvents: number
  readonly batchSize: number
}

const EVENTS_PER_PERSON = 60

export function resolveSettings(options: SampleDataOptions): Settings {
  const { seed = 42, days = 90, batchSize = 5_000 } = options
  // Keep the default 60 events per person when only one size is given, so that a bigger data set
  // has more people rather than a few impossibly busy ones (and a smaller one is actually small).
  const persons =
    options.persons ??
    (options.targetEvents === undefined ? 5_000 : Math.max(1, Math.round(options.targetEvents / EVENTS_PER_PERSON)))
  const targetEvents = options.targetEvents ?? persons * EVENTS_PER_PERSON
  const end = options.end?.getTime() ?? startOfUtcDay(Date.now())
  if (!Number.isFinite(seed)) throw new RangeError(`seed must be a finite number, got ${seed}`)
  if (!Number.isInteger(persons) || persons < 1) throw new RangeError(`persons must be a positive integer, got ${persons}`)
  if (!Number.isFinite(days) || days <= 0) throw new RangeError(`days must be a positive number, got ${days}`)
  if (!Number.isFinite(targetEvents) || targetEvents < 0) throw new RangeError(`targetEvents must be >= 0, got ${targetEvents}`)
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`)
  if (!Number.isFinite(end)) throw new RangeError('end must be a valid Date')
  return Object.freeze({ seed, persons, start: end - Math.round(days * DAY), end, targetEvents, batchSize })
}
