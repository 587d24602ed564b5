import { setImmediate } from 'node:timers/promises'

/**
 * Resolves after the event loop has run once more: pending I/O callbacks and
 * timers (another request, a query's timeout) run before the caller's next
 * stretch of synchronous work.
 */
export const yieldToEventLoop = (): Promise<void> => setImmediate()
