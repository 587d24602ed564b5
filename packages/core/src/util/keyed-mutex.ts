/**
 * Promise-chain mutexes by key: `run` calls with one key execute one at a
 * time, in call order; calls with different keys run concurrently. A key is
 * forgotten as soon as its last queued call settles, so the map holds only
 * keys with work queued or running, never every key ever seen.
 */
export class KeyedMutex {
  // Per key, the settling of its last queued call; it never rejects.
  readonly #tails = new Map<string, Promise<void>>()

  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve()
    const result = previous.then(fn)
    // The chain continues whether fn resolves or rejects; the caller sees the outcome.
    const tail = result.then(
      () => undefined,
      () => undefined,
    )
    this.#tails.set(key, tail)
    void tail.then(() => {
      // Only the last call of the key removes it: a later one has replaced the tail.
      if (this.#tails.get(key) === tail) this.#tails.delete(key)
    })
    return result
  }

  /** Keys with a call queued or running. */
  get activeKeys(): number {
    return this.#tails.size
  }

  /**
   * Resolves once no call of any key is queued or running, including calls
   * queued while waiting (each settles, so this ends once callers stop).
   */
  async idle(): Promise<void> {
    while (this.#tails.size > 0) await Promise.all(this.#tails.values())
  }
}
