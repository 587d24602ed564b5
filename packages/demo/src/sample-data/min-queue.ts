/** Binary min-heap of person indexes keyed by their next session start; ties pop in no set order, but always the same one. */
export class MinQueue {
  readonly #items: Int32Array
  readonly #keys: Float64Array
  size = 0

  constructor(capacity: number) {
    this.#items = new Int32Array(capacity)
    this.#keys = new Float64Array(capacity)
  }

  peekKey(): number {
    return this.#keys[0] as number
  }

  push(item: number, key: number): void {
    let i = this.size++
    while (i > 0) {
      const parent = (i - 1) >>> 1
      if ((this.#keys[parent] as number) <= key) break
      this.#items[i] = this.#items[parent] as number
      this.#keys[i] = this.#keys[parent] as number
      i = parent
    }
    this.#items[i] = item
    this.#keys[i] = key
  }

  pop(): number {
    const top = this.#items[0] as number
    const lastItem = this.#items[--this.size] as number
    const lastKey = this.#keys[this.size] as number
    let i = 0
    for (;;) {
      let child = 2 * i + 1
      if (child >= this.size) break
      if (child + 1 < this.size && (this.#keys[child + 1] as number) < (this.#keys[child] as number)) child++
      if ((this.#keys[child] as number) >= lastKey) break
      this.#items[i] = this.#items[child] as number
      this.#keys[i] = this.#keys[child] as number
      i = child
    }
    this.#items[i] = lastItem
    this.#keys[i] = lastKey
    return top
  }
}
