/**
 * The suite runs without isolation (vitest.config.ts): the test files of one
 * worker share one module graph and one process. What a file changes in
 * shared state is put back after it, even when the file forgot or failed
 * half-way: fake timers, spies, stubbed globals and environment variables.
 */
import { afterAll, vi } from 'vitest'

afterAll(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
  vi.unstubAllEnvs()
})
