/**
 * Bounds checked on the text before it reaches the parser. PostHog's
 * WebAssembly parser (ANTLR, a small fixed stack) crashes on a few hundred
 * chained operators (`1 + 1 + ...`), hangs on ~140 stacked `not`, and its time
 * grows steeply with bracket nesting (40 nested `(` take most of a second), so
 * hostile text must be refused before parsing, never handed over.
 */

/** Longest expression accepted, in UTF-16 code units. */
export const MAX_HOGQL_LENGTH = 2000
/** Most tokens accepted (identifiers, literals, operators, brackets); far below where the parser fails. */
export const MAX_HOGQL_TOKENS = 160
/** Deepest bracket nesting accepted: `(`, `[` and `{` together. */
export const MAX_HOGQL_NESTING = 12

/** What the scan found: counts only, never a tokenisation the compiler relies on. */
export interface HogqlTextShape {
  readonly tokens: number
  readonly nesting: number
}

const SPACE = /\s/
const WORD = /[\p{L}\p{N}_$@]/u
const QUOTES = new Set(["'", '"', '`'])

/**
 * Counts tokens and bracket depth the way HogQL's lexer splits text: string
 * literals and quoted identifiers (with `\` escapes and doubled quotes) are
 * one token, `--` and `/* *\/` comments none. An approximation that only has
 * to err towards counting more.
 */
export function scanHogqlText(text: string): HogqlTextShape {
  let tokens = 0
  let depth = 0
  let nesting = 0
  let i = 0
  while (i < text.length) {
    const c = text[i]!
    if (SPACE.test(c)) {
      i++
    } else if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i)
      i = end < 0 ? text.length : end + 1
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2)
      i = end < 0 ? text.length : end + 2
    } else if (QUOTES.has(c)) {
      tokens++
      i = skipQuoted(text, i, c)
    } else if (WORD.test(c)) {
      tokens++
      while (i < text.length && WORD.test(text[i]!)) i++
    } else {
      tokens++
      if (c === '(' || c === '[' || c === '{') nesting = Math.max(nesting, ++depth)
      else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1)
      i++
    }
  }
  return { tokens, nesting }
}

/** The index after the quoted run starting at `start`; an unterminated one runs to the end. */
function skipQuoted(text: string, start: number, quote: string): number {
  let i = start + 1
  while (i < text.length) {
    const c = text[i]!
    if (c === '\\') i += 2
    else if (c === quote && text[i + 1] === quote) i += 2
    else if (c === quote) return i + 1
    else i++
  }
  return text.length
}
