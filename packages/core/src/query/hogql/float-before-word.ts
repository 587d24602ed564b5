import type { Token } from './lexer.js'

/**
 * `1 . or a`: is `1 .` the float `1.` (then `or a`), or is `.or` a property
 * of `1`? PostHog's grammar allows both (`DECIMAL_LITERAL DOT` is a float, and
 * `columnExpr DOT identifier` reads a keyword as a property), and its ANTLR
 * parser predicts with all the lookahead it needs: it takes the float unless
 * that reading stops being valid before the property reading does. So
 * `1 . or a` is `1. OR a`, `1 . or` alone is `(1).or`, `1 . or or a` is
 * `(1).or OR a`, and `1 . or - a` (valid both ways) is `1. OR -a`.
 *
 * This decides it from a few tokens: the float reading continues with the
 * keyword as an operator, the property reading stands after an operand. The
 * two readings meet again within a token or two (or at the `]` of an index),
 * except for BETWEEN, whose float reading needs its AND later on. `at` is the
 * index of the keyword in `tokens`. Answers for constructs the compiler
 * refuses anyway (windows, subqueries) may differ from PostHog's.
 */
export function floatBeforeWord(tokens: ReadonlyArray<Token>, at: number): boolean {
  const look = new Lookahead(tokens)
  const x = at + 1
  switch (tokens[at]!.text.toLowerCase()) {
    case 'and':
    case 'or':
    case 'like':
    case 'ilike':
      return look.race(x) !== 'after'
    case 'in':
      return look.isWord(x, 'cohort') || look.race(x) !== 'after'
    case 'not':
      return ['like', 'ilike', 'in', 'between'].some((w) => look.isWord(x, w))
    case 'is': {
      const k = look.isWord(x, 'not') ? x + 1 : x
      return look.isWord(k, 'null') || look.isWord(k, 'distinct')
    }
    case 'between': {
      const race = look.race(x)
      return race === 'operand' || (race === 'tie' && look.andAhead(x))
    }
    case 'as': {
      const alias = tokens[x]!
      if (alias.kind === 'ident' || alias.kind === 'string') return true
      if (alias.kind !== 'word') return false
      // `1 . as and a`: the property reading is then AND's left side, the float one an alias before `a`.
      return !INFIX_WORDS.has(alias.text.toLowerCase()) || look.race(x + 1) !== 'operand'
    }
    default:
      return false
  }
}

/** Words that continue an expression after an operand. */
const INFIX_WORDS = new Set(['and', 'or', 'not', 'is', 'in', 'like', 'ilike', 'between', 'as'])
/** Words that cannot start an operand (unless called as a function). */
const NO_OPERAND_WORDS = new Set([...INFIX_WORDS, 'when', 'then', 'else', 'end', 'select', 'with', 'from', 'cohort', 'over', 'distinct'])
/** Punctuation that can start an operand but not follow one, and the reverse; `-`, `+`, `.`, `(`, `[` and `*` can do both. */
const OPERAND_OPS = new Set(['{'])
const AFTER_OPS = new Set([')', ']', '}', ',', ':', '?', '??', '?.', '||', '/', '%', '::', '->', '=', '==', '!=', '<>', '<', '<=', '>', '>=', '=~', '=~*', '!~', '!~*', '~', '~*'])

/** Which reading survives longer: the one that needs an operand at a token, the one standing after one, or neither (they meet). */
type Race = 'operand' | 'after' | 'tie'
const swap = (race: Race): Race => (race === 'operand' ? 'after' : race === 'after' ? 'operand' : 'tie')

class Lookahead {
  constructor(private readonly tokens: ReadonlyArray<Token>) {}

  private at(k: number): Token {
    return this.tokens[Math.min(k, this.tokens.length - 1)]!
  }

  isWord(k: number, word: string): boolean {
    const t = this.at(k)
    return t.kind === 'word' && t.text.toLowerCase() === word
  }

  private isOp(k: number, op: string): boolean {
    const t = this.at(k)
    return t.kind === 'op' && t.text === op
  }

  /** At token `k` one reading needs an operand and the other stands after one. `depth` bounds a run of `*`. */
  race(k: number, depth = 0): Race {
    const t = this.at(k)
    if (t.kind === 'eof') return 'after'
    if (t.kind === 'number' || t.kind === 'string' || t.kind === 'ident') return 'operand'
    if (t.kind === 'word') {
      const word = t.text.toLowerCase()
      if (word === 'not') return ['like', 'ilike', 'in', 'between'].some((w) => this.isWord(k + 1, w)) ? 'tie' : 'operand'
      if (!NO_OPERAND_WORDS.has(word)) return 'operand'
      return this.isOp(k + 1, '(') ? 'tie' : 'after'
    }
    if (OPERAND_OPS.has(t.text)) return 'operand'
    if (AFTER_OPS.has(t.text)) return 'after'
    switch (t.text) {
      case '-':
        return 'tie'
      case '+': // a signed number, or an addition
      case '.': // `.5`, or a property or tuple index
        return this.at(k + 1).kind === 'number' || (t.text === '+' && this.isOp(k + 1, '.')) ? 'tie' : 'after'
      case '(': // a parenthesis, tuple or lambda, or a call
        return this.isOp(k + 1, ')') ? (this.isOp(k + 2, '->') ? 'operand' : 'after') : 'tie'
      case '[': // an array literal takes all an index takes, and also `[]` and `[a, b]`
        return this.emptyOrListed(k) ? 'operand' : 'tie'
      case '*': // the field `*`, or a product
        return depth > 8 ? 'tie' : swap(this.race(k + 1, depth + 1))
    }
    return 'after'
  }

  /** Whether the bracket opened at `k` is empty or holds a comma at its own level. */
  private emptyOrListed(k: number): boolean {
    if (this.isOp(k + 1, ']')) return true
    let depth = 0
    for (let j = k; j < this.tokens.length; j++) {
      const t = this.tokens[j]!
      if (t.kind !== 'op') continue
      if (t.text === '(' || t.text === '[' || t.text === '{') depth++
      else if (t.text === ')' || t.text === ']' || t.text === '}') {
        if (--depth === 0) return false
      } else if (t.text === ',' && depth === 1) return true
    }
    return false
  }

  /** Whether an AND follows at the level of token `k`, before its enclosing bracket closes. */
  andAhead(k: number): boolean {
    let depth = 0
    for (let j = k; j < this.tokens.length; j++) {
      const t = this.tokens[j]!
      if (t.kind === 'word' && depth === 0 && t.text.toLowerCase() === 'and') return true
      if (t.kind !== 'op') continue
      if (t.text === '(' || t.text === '[' || t.text === '{') depth++
      else if ((t.text === ')' || t.text === ']' || t.text === '}') && --depth < 0) return false
    }
    return false
  }
}
