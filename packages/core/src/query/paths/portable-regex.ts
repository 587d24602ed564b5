/**
 * Why a cleaning rule's regex is not one RE2 (DuckDB, PostHog's ClickHouse)
 * and Postgres's ARE read alike, or undefined when it is. Regexes here are
 * replaced by, not only matched, so a construct spelt alike but meaning
 * something else would silently change names: the check is an allowlist.
 *
 * Allowed: literal characters; `\` before punctuation; `\d \D \w \W \s \S
 * \n \r \t \f`; `.`, `^`, `$`; groups `( )` and `(?: )`; alternatives with
 * no empty side; greedy `* + ?` and `{n}`, `{n,}`, `{n,m}` up to
 * 255 (Postgres's limit); classes `[...]`, `[^...]` of literals, ranges and
 * those escapes. Refused, among others: `\b` (a word boundary in RE2, a
 * backspace in Postgres), `\p{..}`, `\x`, `\u`, back-references, named
 * groups, look-around, POSIX classes `[:alpha:]`, lazy quantifiers.
 * Where two alternatives match at one position, RE2 takes the first and
 * Postgres the longest: a difference this check does not catch.
 */
export function portableRegexProblem(pattern: string): string | undefined {
  const chars = [...pattern]
  let depth = 0
  let atomStart = true // nothing to quantify yet
  let emptyBranch = true
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!
    if (c === '\\') {
      const e = chars[++i]
      if (e === undefined) return 'a regular expression cannot end with \\'
      if (!ESCAPES.has(e) && !PUNCTUATION.test(e)) return `\\${e} is not supported in path cleaning regexes (use [..] classes, \\d, \\w, \\s or an escaped punctuation character)`
      atomStart = false
      emptyBranch = false
    } else if (c === '[') {
      const end = classEnd(chars, i)
      if (typeof end === 'string') return end
      i = end
      atomStart = false
      emptyBranch = false
    } else if (c === '(') {
      if (chars[i + 1] === '?') {
        if (chars[i + 2] !== ':') return 'only (?:...) groups are supported in path cleaning regexes'
        i += 2
      }
      depth++
      atomStart = true
      emptyBranch = true
    } else if (c === ')' || c === '|') {
      if (emptyBranch) return 'an empty alternative or group is not supported in path cleaning regexes'
      if (c === ')') {
        if (depth === 0) return 'unbalanced )'
        depth--
        atomStart = false
        emptyBranch = false
      } else {
        atomStart = true
        emptyBranch = true
      }
    } else if (c === '*' || c === '+' || c === '?' || c === '{') {
      if (atomStart) return `${c} has nothing to repeat`
      if (c === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(chars.slice(i).join(''))
        if (!m) return '{ starts a repetition {n}, {n,} or {n,m}; escape it as \\{ otherwise'
        if (Number(m[1]) > 255 || (m[3] !== undefined && m[3] !== '' && (Number(m[3]) > 255 || Number(m[3]) < Number(m[1])))) return 'repetition counts are at most 255, and {n,m} needs n <= m'
        i += m[0].length - 1
      }
      // Postgres makes a whole regex lazy or greedy from its first quantifier; RE2 decides per quantifier.
      if (chars[i + 1] === '?') return 'lazy quantifiers (*?, +?, ??) are not supported in path cleaning regexes'
      // A quantifier cannot follow another (`a**`).
      atomStart = true
      emptyBranch = false
    } else {
      if (c === '}' || c === ']') return `${c} must be escaped as \\${c}`
      atomStart = c === '^' || c === '$'
      emptyBranch = false
    }
  }
  if (depth !== 0) return 'unbalanced ('
  if (emptyBranch && pattern.includes('|')) return 'an empty alternative is not supported in path cleaning regexes'
  return undefined
}

const ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S', 'n', 'r', 't', 'f'])
const PUNCTUATION = /^[!-/:-@[-`{-~]$/

/** The index of the `]` closing the class opened at `start`, or why the class is refused. */
function classEnd(chars: ReadonlyArray<string>, start: number): number | string {
  let i = start + 1
  if (chars[i] === '^') i++
  let first = true
  for (; i < chars.length; i++) {
    const c = chars[i]!
    if (c === ']' && !first) return i
    if (c === ']') return 'an empty class [] is not supported; escape ] as \\]'
    if (c === '[') return '[ inside a class must be escaped as \\[ (POSIX classes such as [:alpha:] are not supported)'
    if (c === '\\') {
      const e = chars[++i]
      if (e === undefined || (!ESCAPES.has(e) && !PUNCTUATION.test(e))) return `\\${e ?? ''} is not supported inside a class`
    }
    first = false
  }
  return 'unbalanced ['
}
