import { generateBatches } from './sample-data/generate-batches.js'
import { planPersons } from './sample-data/plan-persons.js'
import type { SampleEvent } from './sample-data/sample-event.js'
import { resolveSettings, type SampleDataOptions } from './sample-data/settings.js'
import { Timeline } from './sample-data/timeline.js'

export type { SampleEvent } from './sample-data/sample-event.js'
export type { SampleDataOptions } from './sample-data/settings.js'

export interface SampleData {
  /** Inclusive start of the window: `end - days`. */
  readonly start: Date
  /** Exclusive end of the window. */
  readonly end: Date
  readonly persons: number
  /** What the batches will hold, usually within a few percent: a total for a progress bar. */
  readonly estimatedEvents: number
  /**
   * Batches of at most `batchSize` events (all full except the last), timestamps non-decreasing
   * across batches. Generated lazily, an hour of traffic at a time, so memory holds about an hour
   * of events plus a little state per person; iterating again regenerates the same events.
   */
  readonly batches: Iterable<SampleEvent[]>
}

/** Builds a deterministic, realistic product-analytics data set (see SampleDataOptions). */
export function generateSampleData(options: SampleDataOptions = {}): SampleData {
  const settings = resolveSettings(options)
  const timeline = new Timeline(settings.start, settings.end)
  const plans = planPersons(settings, timeline)
  const estimatedEvents = Math.round(plans.reduce((sum, plan) => sum + plan.expectedEvents, 0))
  return Object.freeze({
    start: new Date(settings.start),
    end: new Date(settings.end),
    persons: settings.persons,
    estimatedEvents,
    batches: { [Symbol.iterator]: () => generateBatches(settings, timeline, plans) },
  })
}
