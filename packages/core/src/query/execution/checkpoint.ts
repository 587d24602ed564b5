import { setImmediate } from 'node:timers/promises'
import { activeQueryScope } from './cancellation.js'

/**
 * A point between two stretches of an analysis' JavaScript work (shaping
 * rows, building links): the event loop turns once, so other requests and
 * this analysis' own timeout get their turn, and an analysis that was
 * cancelled or timed out meanwhile stops here with its scope's reason
 * instead of finishing work nobody will read.
 */
export async function checkpoint(): Promise<void> {
  await setImmediate()
  activeQueryScope()?.signal.throwIfAborted()
}
