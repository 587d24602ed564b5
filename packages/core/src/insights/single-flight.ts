/**
 * In-process deduplication of concurrent work: while `run(key, fn)` is in
 * flight, further calls with the same key share its promise instead of
 * calling `fn` again. Settled work is forgotten at once (this is not a cache).
 */
export class SingleFlight<T> {
  readonly #inFlight = new Map<string, Promise<T>>()

  run(key: string, fn: () => Promise<T>): Promise<T> {
    const running = this.#inFlight.get(key)
    if (running) return running
    // Started on the next microtask, so the entry is in the map before `fn` can settle.
    const work: Promise<T> = Promise.resolve()
      .then(fn)
      .finally(() => {
        if (this.#inFlight.get(key) === work) this.#inFlight.delete(key)
      })
    this.#inFlight.set(key, work)
    return work
  }
}
