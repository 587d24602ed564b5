/**
 * A seeded pseudo-random source (sfc32, seeded through splitmix32): the same seed always yields
 * the same sequence, on every platform. Not for cryptography.
 */
export class Random {
  #a: number
  #b: number
  #c: number
  #d: number
  #spareNormal: number | undefined

  constructor(seed: number) {
    // splitmix32 spreads a small or zero seed over all 128 bits of state, which sfc32 needs
    // to avoid a long run of poor output right after seeding.
    let s = seed >>> 0
    const split = (): number => {
      s = (s + 0x9e3779b9) | 0
      let z = s
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
      return (z ^ (z >>> 16)) >>> 0
    }
    this.#a = split()
    this.#b = split()
    this.#c = split()
    this.#d = split()
    for (let i = 0; i < 12; i++) this.uint32()
  }

  /** Uniform integer in [0, 2^32). */
  uint32(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0
    this.#d = (this.#d + 1) | 0
    this.#a = this.#b ^ (this.#b >>> 9)
    this.#b = (this.#c + (this.#c << 3)) | 0
    this.#c = (this.#c << 21) | (this.#c >>> 11)
    this.#c = (this.#c + t) | 0
    return t >>> 0
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296
  }

  /** Uniform integer in [min, max], both ends included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p
  }

  /** One element, uniformly; the array must not be empty. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick() needs at least one item')
    return items[Math.floor(this.next() * items.length)] as T
  }

  /** Standard normal deviate (Box-Muller; the second value of each pair is kept for the next call). */
  normal(): number {
    if (this.#spareNormal !== undefined) {
      const spare = this.#spareNormal
      this.#spareNormal = undefined
      return spare
    }
    const u = 1 - this.next() // (0, 1]: log(0) would be -Infinity
    const v = this.next()
    const r = Math.sqrt(-2 * Math.log(u))
    this.#spareNormal = r * Math.sin(2 * Math.PI * v)
    return r * Math.cos(2 * Math.PI * v)
  }

  /** Log-normal draw: `exp(mu + sigma * N(0, 1))`; its median is `exp(mu)`. */
  logNormal(mu: number, sigma: number): number {
    return Math.exp(mu + sigma * this.normal())
  }

  /** Pareto draw with scale `xm` (the minimum) and shape `alpha`; smaller alpha, heavier tail. */
  pareto(xm: number, alpha: number): number {
    return xm / Math.pow(1 - this.next(), 1 / alpha)
  }

  /** Exponential draw with the given mean: the gap between events of a Poisson process. */
  exponential(mean: number): number {
    return -mean * Math.log(1 - this.next())
  }

  /** Geometric draw on {0, 1, 2, ...} with the given mean (the number of failures before a success). */
  geometric(mean: number): number {
    if (mean <= 0) return 0
    const p = 1 / (1 + mean)
    return Math.floor(Math.log(1 - this.next()) / Math.log(1 - p))
  }

  /** `length` lowercase hexadecimal digits. */
  hex(length: number): string {
    let out = ''
    while (out.length < length) out += this.uint32().toString(16).padStart(8, '0')
    return out.slice(0, length)
  }
}

/** Mixes numbers into one 32-bit seed, so that sub-streams (one per company, say) stay independent. */
export function deriveSeed(...parts: readonly number[]): number {
  let h = 0x811c9dc5
  for (const part of parts) {
    h = Math.imul(h ^ (part >>> 0), 0x01000193)
    h ^= h >>> 15
    h = Math.imul(h, 0x2c1b3c6d)
    h ^= h >>> 12
  }
  return h >>> 0
}

/** Draws one value with probability proportional to its weight. */
export type WeightedPicker<T> = (random: Random) => T

/**
 * Builds a picker for `[value, weight]` entries; the cumulative weights are computed once, so a
 * draw costs one random number and a binary search.
 */
export function weighted<T>(entries: readonly (readonly [T, number])[]): WeightedPicker<T> {
  if (entries.length === 0) throw new RangeError('weighted() needs at least one entry')
  const values = entries.map(([value]) => value)
  const cumulative = new Float64Array(entries.length)
  let total = 0
  entries.forEach(([, weight], i) => {
    if (!(weight >= 0) || !Number.isFinite(weight)) throw new RangeError(`invalid weight ${weight}`)
    total += weight
    cumulative[i] = total
  })
  if (total <= 0) throw new RangeError('weighted() needs a positive total weight')
  return (random) => {
    const x = random.next() * total
    let lo = 0
    let hi = cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((cumulative[mid] as number) > x) hi = mid
      else lo = mid + 1
    }
    return values[lo] as T
  }
}
