/**
 * A first-come, first-served lock over a single connection. `unlock` hands
 * the lock straight to the next waiter, so no caller can slip in between.
 */
export class ConnectionMutex {
  #locked = false
  readonly #waiters: Array<() => void> = []

  /** Resolves once the caller holds the lock. */
  async lock(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true
      return
    }
    await new Promise<void>((resolve) => this.#waiters.push(resolve))
  }

  /** Releases the lock held by the caller. */
  unlock(): void {
    const next = this.#waiters.shift()
    if (next) next()
    else this.#locked = false
  }
}
