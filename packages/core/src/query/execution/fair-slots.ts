interface Waiter {
  readonly grant: (release: () => void) => void
  readonly signal: AbortSignal
  readonly onAbort: () => void
}

/**
 * A fixed number of slots shared by keys (projects), granted in turn: when a
 * slot frees, the waiting key served least recently gets it (one never served
 * first, then by arrival), so one key with many waiters cannot starve another
 * with one. Within a key, waiters are served in arrival order.
 */
export class FairSlots {
  #free: number
  #grants = 0
  /** Keys with waiters, in arrival order. */
  readonly #waiting = new Map<number, Waiter[]>()
  /** Per key holding a slot or waiting: slots held and the number of its last grant. Forgotten when it has neither. */
  readonly #keys = new Map<number, { held: number; lastGrant: number }>()

  constructor(slots: number) {
    if (!(Number.isInteger(slots) && slots >= 1) && slots !== Number.POSITIVE_INFINITY) throw new RangeError(`maxConcurrent must be a positive integer, got ${slots}`)
    this.#free = slots
  }

  /** A slot for `key` now, or null when none is free or others wait for one (who come first). */
  tryAcquire(key: number): (() => void) | null {
    return this.#free > 0 && this.#waiting.size === 0 ? this.#take(key) : null
  }

  /**
   * Resolves with the function that frees the slot, once one is granted to
   * `key`; rejects with `signal.reason` if the signal aborts first (the
   * waiter is then forgotten). The release function is safe to call twice.
   */
  acquire(key: number, signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason)
    const now = this.tryAcquire(key)
    if (now) return Promise.resolve(now)
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: resolve,
        signal,
        onAbort: () => {
          this.#forget(key, waiter)
          reject(signal.reason)
        },
      }
      signal.addEventListener('abort', waiter.onAbort, { once: true })
      const queue = this.#waiting.get(key)
      if (queue) queue.push(waiter)
      else this.#waiting.set(key, [waiter])
      this.#grant()
    })
  }

  /** Gives `key` a slot; returns the function that frees it (once). */
  #take(key: number): () => void {
    this.#free--
    const state = this.#keys.get(key) ?? { held: 0, lastGrant: 0 }
    state.held++
    state.lastGrant = ++this.#grants
    this.#keys.set(key, state)
    let released = false
    return () => {
      if (released) return
      released = true
      this.#free++
      state.held--
      this.#tidy(key)
      this.#grant()
    }
  }

  #grant(): void {
    while (this.#free > 0 && this.#waiting.size > 0) {
      let chosen: number | undefined
      let oldest = Number.POSITIVE_INFINITY
      for (const key of this.#waiting.keys()) {
        const last = this.#keys.get(key)?.lastGrant ?? 0
        if (last < oldest) [chosen, oldest] = [key, last]
      }
      const queue = this.#waiting.get(chosen!)!
      const waiter = queue.shift()!
      if (queue.length === 0) this.#waiting.delete(chosen!)
      waiter.signal.removeEventListener('abort', waiter.onAbort)
      waiter.grant(this.#take(chosen!))
    }
  }

  /** Keys holding a slot or waiting for one: none once every slot is free and no one waits. */
  get activeKeys(): number {
    return this.#keys.size + [...this.#waiting.keys()].filter((k) => !this.#keys.has(k)).length
  }

  #tidy(key: number): void {
    if ((this.#keys.get(key)?.held ?? 0) === 0 && !this.#waiting.has(key)) this.#keys.delete(key)
  }

  #forget(key: number, waiter: Waiter): void {
    const queue = this.#waiting.get(key)
    if (!queue) return
    const at = queue.indexOf(waiter)
    if (at >= 0) queue.splice(at, 1)
    if (queue.length === 0) {
      this.#waiting.delete(key)
      this.#tidy(key)
    }
  }
}

