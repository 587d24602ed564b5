/**
 * PostHog's property-filter semantics over plain objects, written from
 * posthog/hogql/property.py and independent of Sightline's SQL compiler.
 * A property's text: strings as they are, numbers and booleans in JSON
 * spelling, null when missing or JSON null.
 */
import { refSelectorRegex } from '../reference/shared/ref-selector.js'

type Json = string | number | boolean | null | undefined
type Scalar = string | number | boolean
export interface RefCondition {
  key: string
  value?: Scalar | Scalar[] | null
  operator?: string | null
  type?: string
  group_type_index?: number | null
}
export interface RefGroup {
  type: 'AND' | 'OR'
  values: Array<RefGroup | RefCondition>
}
export type RefFilters = RefCondition[] | RefGroup

export interface RefRow {
  event: Record<string, Json>
  person?: Record<string, Json>
  /** The event's elements chain; '' when missing. */
  elementsChain?: string
  /** The cohorts the row's person is in. */
  cohorts?: ReadonlySet<number>
}

export const textOf = (v: Json): string | null => (v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v))
const lowerAscii = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase())

function num(t: string | null): number | null {
  if (t === null || t.length > 64 || !/^-?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]{1,3})?$/.test(t)) return null
  const d = Number(t)
  const zero = /^-?[0.]+([eE][-+]?[0-9]+)?$/.test(t)
  return (d === 0 && zero) || (Math.abs(d) > 1e-300 && Math.abs(d) < 1e300) ? d : null
}

function timestamp(t: string | null): number | null {
  const m = t === null ? null : /^([1-9]\d{3})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?Z?$/.exec(t)
  if (!m) return null
  const [y, mo, d, h = '0', mi = '0', s = '0', f = '0'] = m.slice(1).map((x) => x ?? undefined) as string[]
  if (+mo! < 1 || +mo! > 12 || +d! < 1 || +h > 23 || +mi > 59 || +s > 59) return null
  const date = new Date(Date.UTC(+y!, +mo! - 1, +d!))
  if (date.getUTCDate() !== +d!) return null
  return (date.getTime() + ((+h * 60 + +mi) * 60 + +s) * 1000) * 1000 + Number(f.padEnd(6, '0'))
}

const numberValue = (v: Scalar): number => (typeof v === 'number' ? v : Number(v))

function condition(c: RefCondition, row: RefRow): boolean {
  if (c.type === 'element') return elementCondition(c, row.elementsChain ?? '')
  // PostHog's InCohort / NotInCohort: the value names the cohort, `not_in` negates.
  if (c.type === 'cohort') return (row.cohorts?.has(Number(c.value)) ?? false) !== (c.operator === 'not_in')
  const props = c.type === 'person' ? row.person ?? {} : row.event
  const t = textOf(Object.hasOwn(props, c.key) ? props[c.key] : undefined)
  const op = c.operator ?? 'exact'
  if (op === 'is_set') return t !== null
  if (op === 'is_not_set') return t === null
  const values: Scalar[] = c.value === null || c.value === undefined ? [] : Array.isArray(c.value) ? c.value : [c.value]
  if (op === 'between' || op === 'not_between') {
    const n = num(t)
    const [lo, hi] = values.map(numberValue) as [number, number]
    if (n === null) return false
    return op === 'between' ? n >= lo && n <= hi : n < lo || n > hi
  }
  if (values.length === 0) return true
  const texts = values.map(String)
  switch (op) {
    case 'exact':
    case 'in':
      return t !== null && texts.includes(t)
    case 'is_not':
    case 'not_in':
      return t === null || !texts.includes(t)
    case 'icontains':
      return t !== null && texts.some((v) => lowerAscii(t).includes(lowerAscii(v)))
    case 'not_icontains':
      return t === null || texts.every((v) => !lowerAscii(t).includes(lowerAscii(v)))
    case 'regex':
      return t !== null && texts.some((p) => new RegExp(p, 'u').test(t))
    case 'not_regex':
      return t === null || texts.every((p) => !new RegExp(p, 'u').test(t))
    case 'gt': case 'gte': case 'min': case 'lt': case 'lte': case 'max': {
      const n = num(t)
      if (n === null) return false
      return values.map(numberValue).some((v) =>
        op === 'gt' ? n > v : op === 'gte' || op === 'min' ? n >= v : op === 'lt' ? n < v : n <= v)
    }
    case 'is_date_exact': case 'is_date_before': case 'is_date_after': {
      const at = timestamp(t)
      if (at === null) return false
      return texts.some((v) => {
        const w = timestamp(v)!
        return op === 'is_date_exact' ? at === w : op === 'is_date_before' ? at < w : at > w
      })
    }
  }
  throw new Error(`reference: unknown operator ${op}`)
}

const reEscape = (s: string) => s.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&')
const NEGATED = new Set(['is_not', 'not_icontains', 'not_regex', 'is_not_set'])

/**
 * posthog/hogql/property.py's element branch: regexes over the chain. The
 * selector's regex is the reference's own `build_selector_regex`
 * (test/reference/shared/ref-selector.ts).
 */
function elementCondition(c: RefCondition, chain: string): boolean {
  const op = c.operator ?? 'exact'
  const negated = NEGATED.has(op)
  const test = (pattern: string, fold = false) => new RegExp(pattern, 'u').test(fold ? lowerAscii(chain) : chain) !== negated
  if (op === 'is_set' || op === 'is_not_set') return test(`(${c.key}="[^"]+")`)
  const values: Scalar[] = c.value === null || c.value === undefined ? [] : Array.isArray(c.value) ? c.value : [c.value]
  if (values.length === 0) return true
  const results = values.map(String).map((v) => {
    const quoted = v.replace(/"/g, '\\"')
    switch (c.key) {
      case 'tag_name':
        return test(`(^|;)${reEscape(v)}(\\.|$|;|:)`)
      case 'selector':
        return test(refSelectorRegex(v))
      default:
        return op === 'icontains' || op === 'not_icontains'
          ? test(`(${c.key}="[^"]*${reEscape(lowerAscii(quoted))}[^"]*")`, true)
          : op === 'regex' || op === 'not_regex'
            ? test(`(${c.key}="${v}")`)
            : test(`(${c.key}="${reEscape(quoted)}")`)
    }
  })
  return negated ? results.every(Boolean) : results.some(Boolean)
}

function group(g: RefGroup | RefCondition, row: RefRow): boolean {
  if (!('values' in g)) return condition(g, row)
  if (g.values.length === 0) return true
  return g.type === 'AND' ? g.values.every((v) => group(v, row)) : g.values.some((v) => group(v, row))
}

/** Whether `row` passes `filters` (a flat list means AND). */
export const referenceMatches = (filters: RefFilters, row: RefRow): boolean =>
  Array.isArray(filters) ? filters.every((c) => condition(c, row)) : group(filters, row)
