import { Random, deriveSeed } from '../random.js'
import { MinQueue } from './min-queue.js'
import type { PersonPlan } from './person-plan.js'
import { newPersonState, type PersonState } from './person-state.js'
import type { SampleEvent } from './sample-event.js'
import { nextPosition, scheduleNext } from './schedule-next.js'
import { SessionWriter, type Pending } from './session-writer.js'
import type { Settings } from './settings.js'
import { HOUR } from './time.js'
import type { Timeline } from './timeline.js'

/** Events are sorted and released per slice; an hour keeps the buffer small even at 10M events. */
const SLICE = HOUR

/** Drains a queue of next-session times one time slice at a time, yielding full batches in time order. */
export function* generateBatches(settings: Settings, timeline: Timeline, plans: readonly PersonPlan[]): Generator<SampleEvent[]> {
  const random = new Random(deriveSeed(settings.seed, 2))
  const writer = new SessionWriter(random, settings)
  const queue = new MinQueue(plans.length)
  const people = plans.map((plan, i): PersonState => {
    const position = plan.firstSessionAtStart
      ? plan.startPosition
      : nextPosition(random, plan.startPosition, plan.endPosition, plan.sessions)
    const at = timeline.timeAt(position)
    if (at < settings.end) queue.push(i, at)
    return newPersonState(i + 1, plan, position)
  })

  let carry: Pending[] = []
  let batch: SampleEvent[] = []
  for (let sliceEnd = settings.start + SLICE; ; sliceEnd += SLICE) {
    const limit = Math.min(sliceEnd, settings.end)
    while (queue.size > 0 && queue.peekKey() < limit) {
      const at = queue.peekKey()
      const person = people[queue.pop()] as PersonState
      writer.writeSession(person, at)
      const next = scheduleNext(random, timeline, person)
      if (next < settings.end) queue.push(person.number - 1, next)
    }
    // Sessions that run past the slice leave their late events for the next one, which keeps the
    // batches in time order without holding more than about a slice of events.
    const pending = carry.length > 0 ? carry.concat(writer.take()) : writer.take()
    pending.sort((a, b) => a.at - b.at)
    let split = 0
    while (split < pending.length && (pending[split] as Pending).at < limit) {
      batch.push((pending[split] as Pending).event)
      split++
      if (batch.length === settings.batchSize) {
        yield batch
        batch = []
      }
    }
    carry = pending.slice(split)
    if (limit >= settings.end) break
  }
  if (batch.length > 0) yield batch
}
