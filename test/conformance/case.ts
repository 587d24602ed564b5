import { it } from 'vitest'
import type { ConformanceTarget } from './target.js'

/** A conformance case: skipped (with its reason in the name) when the target says it cannot run it. */
export function conformanceCase(target: ConformanceTarget, name: string, fn: () => Promise<void>, timeout?: number): void {
  const reason = target.skip?.[name]
  if (reason) it.skip(`${name} (skipped on ${target.name}: ${reason})`, fn)
  else it(name, fn, timeout)
}
