/**
 * The Python orderings PostHog's `apply_formula` relies on (reference §8):
 * `natsorted(..., alg=ns.IGNORECASE)` for the order rows are built in, and
 * tuple comparison over `repr(breakdown_value)` and `data` for the order they
 * are returned in. Written for the values trends produce (strings, lists of
 * strings, cohort ids); ASCII digits only.
 */

type Part = string | number
type Key = ReadonlyArray<Part | Key>

/** Python's str ordering: by code point (not UTF-16 unit). */
export function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a)
  const y = Array.from(b)
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!
    if (d !== 0) return d
  }
  return x.length - y.length
}

/**
 * natsort's key with ns.INT | ns.UNSIGNED | ns.IGNORECASE: the lower-cased
 * string split into text and digit runs, runs of digits as integers, and a
 * leading '' when the string starts with a digit, so text and numbers
 * alternate ("[1.0,3.0]" -> ['[', 1, '.', 0, ',', 3, '.', 0, ']']). A number
 * is ['', n]; a list is the list of its elements' keys.
 */
export function natsortKey(value: unknown): Key {
  if (Array.isArray(value)) return value.map(natsortKey)
  if (typeof value === 'number') return ['', value]
  const parts: Part[] = []
  for (const run of String(value).toLowerCase().match(/[0-9]+|[^0-9]+/g) ?? []) {
    if (/^[0-9]/.test(run)) {
      if (parts.length === 0) parts.push('')
      parts.push(Number(run))
    } else parts.push(run)
  }
  return parts
}

/** Python's comparison of two tuples or lists (element by element, then length). */
export function comparePython(a: Part | Key | null, b: Part | Key | null): number {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = comparePython(a[i]!, b[i]!)
      if (c !== 0) return c
    }
    return a.length - b.length
  }
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b)
  if (a === null && b === null) return 0
  throw new Error(`reference: Python cannot order ${JSON.stringify(a)} and ${JSON.stringify(b)}`)
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/**
 * Python's `repr()` of a breakdown value: a string in single quotes (double
 * when it holds a ' and no "), a list as `['a', 'b']`, an int as digits.
 * Control characters are escaped; every other character is taken as printable.
 */
export function pythonRepr(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`
  if (typeof value === 'number') return String(value)
  const s = String(value)
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'"
  let out = ''
  for (const ch of s) {
    if (ESCAPES[ch]) out += ESCAPES[ch]
    else if (ch === quote) out += `\\${ch}`
    else if (ch.codePointAt(0)! < 0x20 || ch.codePointAt(0) === 0x7f) out += `\\x${ch.codePointAt(0)!.toString(16).padStart(2, '0')}`
    else out += ch
  }
  return `${quote}${out}${quote}`
}
