/**
 * Breakdown values (reference §7.1, §7.3): each row's value per breakdown,
 * null-normalised, with URL normalisation and histogram bins; rows grouped
 * by value. Cohort breakdowns put a row in every listed cohort of its person.
 */
import type { RefDataset } from '../shared/ref-dataset.js'
import { numericValue } from './trend-math.js'
import type { BreakdownSpec } from './trend-query.js'
import type { Row } from './trend-rows.js'

export const NULL_VALUE = '$$_posthog_breakdown_null_$$'
export const OTHER_VALUE = '$$_posthog_breakdown_other_$$'
/** The multiIf fallback of a histogram breakdown: a value in no bin (missing or not a number). */
export const NO_BIN = '["",""]'

export interface BreakdownGroup {
  /** Identity across series and periods (formula matching). */
  readonly key: string
  /** `breakdown_value` as PostHog returns it. */
  readonly value: string | number | string[]
  /** The label part: the value, parts joined by `::`, or a cohort's. */
  readonly label: string
  /** Ordering bucket: 0 real values, 1 null (any null part), 2 Other. */
  readonly bucket: 0 | 1 | 2
  /** Compared byte-wise, element by element, as the value-ascending tie-break. */
  readonly parts: ReadonlyArray<string>
  readonly rows: Row[]
}

const textOf = (v: unknown): string | null => (v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v))

function rawValue(spec: BreakdownSpec, row: Row, data: RefDataset): unknown {
  const key = String(spec.property)
  if (spec.type === 'person') return row.personProperties[key]
  if (spec.type === 'group') {
    const groupKey = row.event.groups?.[spec.groupTypeIndex as 0]
    return groupKey === undefined ? undefined : data.groups?.[spec.groupTypeIndex!]?.[groupKey]?.[key]
  }
  return row.event.properties[key]
}

/** A float as Python's str() writes it: 1.0, 5.5, 10.01. */
export const pyFloat = (x: number): string => (Number.isInteger(x) ? x.toFixed(1) : String(x))
const floor2 = (x: number) => Math.floor(x * 100 + 1e-9) / 100

/**
 * Equal-width bins between the smallest and largest value (§7.1), edges
 * floored to two decimals, the last upper edge + 0.01 so the maximum falls
 * inside; bin i holds lo <= v < hi and is labelled "[lo,hi]".
 */
function binner(spec: BreakdownSpec, rows: ReadonlyArray<Row>, data: RefDataset): (v: unknown) => string {
  const n = spec.histogramBinCount!
  const values = rows.map((r) => numericValue(rawValue(spec, r, data))).filter((v): v is number => v !== null)
  if (values.length === 0) return () => NO_BIN
  const lo = Math.min(...values)
  const hi = Math.max(...values)
  const edges = Array.from({ length: n + 1 }, (_, i) => floor2(lo + ((hi - lo) * i) / n))
  const bins = edges.slice(0, -1).map((e, i) => [e, i === n - 1 ? edges[n]! + 0.01 : edges[i + 1]!] as const)
  return (raw) => {
    const v = numericValue(raw)
    const bin = v === null ? undefined : bins.find(([a, b]) => v >= a && v < b)
    return bin ? `[${pyFloat(bin[0])},${pyFloat(bin[1])}]` : NO_BIN
  }
}

function valueReader(spec: BreakdownSpec, rows: ReadonlyArray<Row>, data: RefDataset): (row: Row) => string {
  if (spec.histogramBinCount !== null && spec.histogramBinCount > 0) {
    const bin = binner(spec, rows, data)
    return (row) => bin(rawValue(spec, row, data))
  }
  return (row) => {
    let t = textOf(rawValue(spec, row, data))
    if (t !== null && spec.normalizeUrl) t = t.replace(/[/?#]+$/, '') || '/'
    return t === null || t === '' ? NULL_VALUE : t
  }
}

const cohortIds = (property: unknown): Array<number | 'all'> => {
  const list = Array.isArray(property) ? property : [property]
  return list.map((c) => (c === 'all' ? 'all' : Number(c)))
}

/** The rows grouped by breakdown value, in first-seen order (ranking comes later). */
export function groupByBreakdown(rows: ReadonlyArray<Row>, specs: ReadonlyArray<BreakdownSpec>, multi: boolean, data: RefDataset): BreakdownGroup[] {
  const groups = new Map<string, BreakdownGroup>()
  const add = (key: string, make: () => Omit<BreakdownGroup, 'rows' | 'key'>, row: Row) => {
    let g = groups.get(key)
    if (!g) groups.set(key, (g = { key, rows: [], ...make() }))
    g.rows.push(row)
  }
  const first = specs[0]!
  if (first.type === 'cohort') {
    if (multi) throw new Error('reference: cohorts in a multi-breakdown are out of scope')
    for (const row of rows) {
      for (const id of cohortIds(first.property)) {
        if (id !== 'all' && !data.cohortMembers?.[id]?.has(row.personId)) continue
        add(JSON.stringify(id), () => ({ value: id, label: id === 'all' ? 'all users' : String(id), bucket: 0, parts: [String(id)] }), row)
      }
    }
    return [...groups.values()]
  }
  const readers = specs.map((s) => valueReader(s, rows, data))
  for (const row of rows) {
    const parts = readers.map((read) => read(row))
    const bucket = parts.includes(NULL_VALUE) ? 1 : 0
    add(JSON.stringify(multi ? parts : parts[0]), () => ({ value: multi ? parts : parts[0]!, label: parts.join('::'), bucket, parts }), row)
  }
  return [...groups.values()]
}

/** The group Other folds the given groups into. */
export function otherGroup(folded: ReadonlyArray<BreakdownGroup>, width: number, multi: boolean): BreakdownGroup {
  const parts = Array.from({ length: width }, () => OTHER_VALUE)
  return {
    key: JSON.stringify(multi ? parts : OTHER_VALUE),
    value: multi ? parts : OTHER_VALUE,
    label: parts.join('::'),
    bucket: 2,
    parts,
    rows: folded.flatMap((g) => g.rows),
  }
}

/** Byte-wise (UTF-8, as ClickHouse compares strings), element by element. */
export function compareParts(a: ReadonlyArray<string>, b: ReadonlyArray<string>): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = Buffer.compare(Buffer.from(a[i]!), Buffer.from(b[i]!))
    if (c !== 0) return c
  }
  return a.length - b.length
}
