/**
 * Bounds checked on the text before it is parsed. Core's parser (grammar.ts)
 * is linear in the tokens; these bounds make the worst input fast. Measured
 * by hand (Node 20, a shared 2-core machine, median of 180 runs after
 * warm-up): the slowest accepted shape, 159 stacked `not`, parses in 0.17 ms
 * and parses and compiles (refused by depth) in 0.6 ms; 63 stacked `-`, 80
 * `and`, 12 nested calls and a 2000-character literal all take under 0.4 ms.
 * PostHog's own parser (ANTLR in WebAssembly), used until issue 13, took 9.4 s
 * on 150 stacked `not` in a fresh instance and 170 ms on 12 nested calls warm.
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
