/** Upper bound of remembered definitions; past it the cache starts over (a few more upserts, no harm). */
const MAX_ENTRIES = 200_000
const HOUR_MS = 3_600_000

/**
 * Which definitions this engine wrote recently, so a batch skips upserting
 * names already written in the same hour with a known type. PostHog keeps
 * `last_seen_at` to the hour for the same reason (property-defs-rs); the
 * saving is a dozen statements per capture batch.
 */
export class DefinitionsCache {
  readonly #written = new Map<string, number>()

  /** True when `key` was written this hour (and, for properties, with a known type). */
  isFresh(key: string, nowMs: number): boolean {
    return this.#written.get(key) === Math.floor(nowMs / HOUR_MS)
  }

  static eventKey(projectId: number, name: string): string {
    return `${projectId}\u0000event\u0000${name}`
  }

  static propertyKey(projectId: number, kind: string, groupTypeIndex: number, name: string): string {
    return `${projectId}\u0000${kind}:${groupTypeIndex}\u0000${name}`
  }

  /** Forgets a key, so its next sighting is written: after a definition is deleted or renamed. */
  forget(key: string): void {
    this.#written.delete(key)
  }

  /** Records writes; call only after their transaction committed. */
  remember(keys: Iterable<string>, nowMs: number): void {
    if (this.#written.size > MAX_ENTRIES) this.#written.clear()
    const hour = Math.floor(nowMs / HOUR_MS)
    for (const key of keys) this.#written.set(key, hour)
  }
}
