import { HogqlError } from './hogql-node.js'

/**
 * A token of HogQL's lexer (`HogQLLexer.g4`): `word` an unquoted identifier
 * or keyword, `ident` a quoted identifier, `string` a string literal, `number`
 * digits (with an exponent when written), `op` punctuation. `start` and `end`
 * count Unicode code points, as PostHog's AST positions do.
 */
export interface Token {
  readonly kind: 'word' | 'ident' | 'string' | 'number' | 'op' | 'eof'
  /** The source text; for `ident` and `string`, the unescaped value. */
  readonly text: string
  readonly start: number
  readonly end: number
}

const WORD_START = /[A-Za-z_$]/
const WORD = /[A-Za-z0-9_$]/
const DIGIT = /[0-9]/
const SPACE = /\s/
// Longest first: `=~*` before `=~` before `=`.
const OPS = ['=~*', '!~*', '->', '::', '?.', '??', '||', '==', '!=', '<>', '<=', '>=', '=~', '!~', '~*', '(', ')', '[', ']', '{', '}', ',', '.', '+', '-', '*', '/', '%', '=', '<', '>', '~', '?', ':']

/** Splits `text` into tokens in one left-to-right pass (linear in its length). */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  let cp = 0 // code points before i
  const advance = (to: number) => {
    for (; i < to; i++) {
      const c = text.charCodeAt(i)
      if (c < 0xdc00 || c > 0xdfff) cp++ // a low surrogate belongs to the code point before it
    }
  }
  while (i < text.length) {
    const c = text[i]!
    const start = cp
    if (SPACE.test(c)) {
      advance(i + 1)
    } else if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i)
      advance(end < 0 ? text.length : end + 1)
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2)
      if (end < 0) throw new HogqlError('is not valid HogQL: an unterminated comment')
      advance(end + 2)
    } else if (c === "'" || c === '"' || c === '`') {
      const end = quotedEnd(text, i, c)
      const raw = text.slice(i, end)
      advance(end)
      tokens.push({ kind: c === "'" ? 'string' : 'ident', text: unquote(raw, c), start, end: cp })
    } else if (WORD_START.test(c)) {
      let j = i + 1
      while (j < text.length && WORD.test(text[j]!)) j++
      const word = text.slice(i, j)
      advance(j)
      tokens.push({ kind: 'word', text: word, start, end: cp })
    } else if (DIGIT.test(c)) {
      const match = /^(?:0[xX][0-9a-fA-F]+|[0-9]+(?:\.[0-9]*)?[eE][+-]?[0-9]+|[0-9]+)/.exec(text.slice(i, i + 400))!
      advance(i + match[0].length)
      tokens.push({ kind: 'number', text: match[0], start, end: cp })
    } else {
      const op = OPS.find((o) => text.startsWith(o, i))
      if (!op) throw new HogqlError(`is not valid HogQL: unexpected character ${JSON.stringify(String.fromCodePoint(text.codePointAt(i)!))}`)
      advance(i + op.length)
      tokens.push({ kind: 'op', text: op, start, end: cp })
    }
  }
  tokens.push({ kind: 'eof', text: '', start: cp, end: cp })
  return tokens
}

/** The characters HogQL's lexer lets a backslash escape, besides the closing quote; any other is refused. */
const ESCAPABLE = new Set('0abfnrtvABFNRTV\\')

/** The index after the quoted run at `start` (a backslash escapes the next character, a doubled quote is one). */
function quotedEnd(text: string, start: number, quote: string): number {
  let i = start + 1
  while (i < text.length) {
    const c = text[i]!
    if (c === '\\') {
      const escaped = text[i + 1]
      if (escaped !== quote && !ESCAPABLE.has(escaped ?? '')) throw new HogqlError(`is not valid HogQL: the escape \\${escaped ?? ''} in quoted text`)
      i += 2
    } else if (c === quote && text[i + 1] === quote) i += 2
    else if (c === quote) return i + 1
    else i++
  }
  throw new HogqlError('is not valid HogQL: an unterminated quoted text')
}

const ESCAPES: Readonly<Record<string, string>> = { b: '\b', f: '\f', r: '\r', n: '\n', t: '\t', '0': '', a: '\x07', v: '\v', '\\': '\\' }

/**
 * PostHog's `parse_string_literal_text`: the doubled and backslashed quote
 * become one, then ClickHouse's common escapes in one left-to-right pass
 * (`\0` is dropped, an unknown escape keeps its backslash).
 */
function unquote(raw: string, quote: string): string {
  const body = raw.slice(1, -1).replaceAll(quote + quote, quote).replaceAll('\\' + quote, quote)
  return body.replace(/\\([bfrnt0av\\])/g, (_m, c: string) => ESCAPES[c]!)
}
