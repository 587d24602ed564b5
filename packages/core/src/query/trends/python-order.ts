/**
 * Python orderings that PostHog's formula code applies to result rows
 * (`natsorted(..., alg=ns.IGNORECASE)`, `repr`, and list comparison), so that
 * ties between formula rows fall as they do there.
 */

type NatKey = ReadonlyArray<string | number>

/** natsort's key: text and unsigned integers alternating, starting with text (possibly ''), text case-folded. */
function natKey(text: string): NatKey {
  const out: Array<string | number> = []
  const re = /(\d+)/g
  let last = 0
  for (let m = re.exec(text); m; m = re.exec(text)) {
    out.push(text.slice(last, m.index).toLowerCase(), Number(m[1]))
    last = m.index + m[1]!.length
  }
  const tail = text.slice(last).toLowerCase()
  if (tail !== '' || out.length === 0) out.push(tail)
  return out
}

const cmp = (a: string | number, b: string | number): number => {
  if (typeof a === 'number' && typeof b === 'number') return a - b
  const x = String(a)
  const y = String(b)
  return x < y ? -1 : x > y ? 1 : 0
}

function compareKeys(a: NatKey, b: NatKey): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = cmp(a[i]!, b[i]!)
    if (c !== 0) return c
  }
  return a.length - b.length
}

type Sortable = string | number | ReadonlyArray<string>
const asList = (v: Sortable): ReadonlyArray<string> => (typeof v === 'string' ? [v] : typeof v === 'number' ? [String(v)] : v)

/** natsort order of breakdown values (strings, cohort ids, or lists compared element by element). */
export function naturalCompare(a: Sortable, b: Sortable): number {
  const xs = asList(a)
  const ys = asList(b)
  for (let i = 0; i < Math.min(xs.length, ys.length); i++) {
    const c = compareKeys(natKey(xs[i]!), natKey(ys[i]!))
    if (c !== 0) return c
  }
  return xs.length - ys.length
}

/** Python's `repr` of a str, an int or a list of str. */
export function pythonRepr(value: Sortable): string {
  if (typeof value === 'number') return String(value)
  if (typeof value !== 'string') return `[${value.map(pythonRepr).join(', ')}]`
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'"
  let out = quote
  for (const ch of value) {
    const code = ch.codePointAt(0)!
    if (ch === '\\') out += '\\\\'
    else if (ch === quote) out += `\\${quote}`
    else if (ch === '\n') out += '\\n'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\t') out += '\\t'
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`
    else out += ch
  }
  return out + quote
}

/** Python's comparison of two lists of numbers. */
export function compareNumberLists(a: ReadonlyArray<number> | null, b: ReadonlyArray<number> | null): number {
  const xs = a ?? []
  const ys = b ?? []
  for (let i = 0; i < Math.min(xs.length, ys.length); i++) if (xs[i] !== ys[i]) return xs[i]! - ys[i]!
  return xs.length - ys.length
}

/** Python's str comparison (by code point). */
export const compareCodePoints = (a: string, b: string): number => {
  const xs = [...a]
  const ys = [...b]
  for (let i = 0; i < Math.min(xs.length, ys.length); i++) {
    const d = xs[i]!.codePointAt(0)! - ys[i]!.codePointAt(0)!
    if (d !== 0) return d
  }
  return xs.length - ys.length
}
