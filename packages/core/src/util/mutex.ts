/** A promise-chain mutex: `run` calls execute one at a time, in call order. */
export class Mutex {
  #tail: Promise<unknown> = Promise.resolve()

  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(fn, fn)
    // The chain continues whether fn resolves or rejects; the caller sees the outcome.
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    )
    return result
  }
}
