import { sql, type Expression } from 'kysely'
import { NO_BIN } from '../breakdowns/breakdown-markers.js'
import { sqlCast } from '../../db/sql-cast.js'

/** One equal-width bin: `lo <= value < hi`, shown as `"[lo,hi]"`. */
export interface HistogramBin {
  readonly lo: number
  readonly hi: number
  readonly label: string
}

const floor2 = (x: number) => Math.floor(x * 100 + 1e-9) / 100

/**
 * A float as Python's `str()` writes it (`1.0`, `5.5`, `1e-05`, `1e+16`):
 * shortest round-trip digits as in JavaScript, but with a `.0` on integral
 * values and scientific notation below 1e-4 and from 1e16, as Python does.
 */
export function pythonFloat(x: number): string {
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : x < 0 ? '-inf' : 'nan'
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0'
  const abs = Math.abs(x)
  if (abs >= 1e16 || abs < 1e-4) {
    const [mantissa, exponent] = x.toExponential().split('e') as [string, string]
    const e = Number(exponent)
    return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`
  }
  const text = String(x)
  return /[.e]/.test(text) ? text : `${text}.0`
}

/**
 * PostHog's histogram breakdown (reference §7.1): `count` equal-width bins
 * between the smallest and largest value, edges floored to two decimals, the
 * last upper edge raised by 0.01 so that the largest value falls inside.
 * Empty when there are no values.
 */
export function histogramBins(min: number | null, max: number | null, count: number): HistogramBin[] {
  if (min === null || max === null) return []
  const edges = Array.from({ length: count + 1 }, (_, i) => floor2(min + ((max - min) * i) / count))
  return edges.slice(0, -1).map((lo, i) => {
    const hi = i === count - 1 ? edges[count]! + 0.01 : edges[i + 1]!
    return { lo, hi, label: `[${pythonFloat(lo)},${pythonFloat(hi)}]` }
  })
}

/** The bin label of a numeric SQL value (null: not a number), `NO_BIN` when no bin holds it. Edges and labels are bound parameters. */
export function binLabelSql(value: Expression<number | null>, bins: ReadonlyArray<HistogramBin>): Expression<string> {
  if (bins.length === 0) return sql<string>`cast(${NO_BIN} as text)`
  const branches = bins.map((b) => sql`when ${value} >= ${sqlCast(b.lo, 'float8')} and ${value} < ${sqlCast(b.hi, 'float8')} then cast(${b.label} as text)`)
  return sql<string>`(case ${sql.join(branches, sql` `)} else cast(${NO_BIN} as text) end)`
}
