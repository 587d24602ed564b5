/**
 * A trend formula as PostHog reads one (posthog/hogql_queries/utils/formula_ast.py,
 * which parses the lower-cased text as a Python expression and evaluates a
 * subset of it): numbers, series letters (case-insensitive: `a` and `A` are the
 * first series), parentheses, unary `+ -`, and the binary operators `+ - * / % **`
 * with Python's precedence and associativity. Function calls, comparisons and
 * anything else PostHog refuses are refused here too.
 */
export type FormulaNode =
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'series'; readonly index: number }
  | { readonly kind: 'negate'; readonly operand: FormulaNode }
  | { readonly kind: 'binary'; readonly op: BinaryOp; readonly left: FormulaNode; readonly right: FormulaNode }

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '**'

/** A formula that does not parse, with the position (0-based) where reading stopped. */
export class FormulaSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message)
  }
}

type Token =
  | { readonly kind: 'number'; readonly value: number; readonly at: number }
  | { readonly kind: 'name'; readonly name: string; readonly at: number }
  | { readonly kind: 'op'; readonly op: string; readonly at: number }
  | { readonly kind: 'end'; readonly at: number }

// Python's float literal forms (decimal, with point and exponent) and integers; underscores between digits as Python allows.
const NUMBER = /^(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][-+]?\d(?:_?\d)*)?/
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/
const OPERATORS = ['**', '//', '+', '-', '*', '/', '%', '(', ')']

/** Longest formula accepted: bounds the parser's work and recursion. */
export const MAX_FORMULA_LENGTH = 1000
const MAX_DEPTH = 100

function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < text.length) {
    const c = text[i]!
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++
      continue
    }
    const rest = text.slice(i)
    const number = NUMBER.exec(rest)
    if (number) {
      // Python reads `1a` or `1.5.2` as a syntax error, not as two tokens.
      const after = rest[number[0].length]
      if (after !== undefined && /[A-Za-z0-9_.]/.test(after)) throw new FormulaSyntaxError(`invalid number near ${JSON.stringify(rest.slice(0, number[0].length + 1))}`, i)
      tokens.push({ kind: 'number', value: Number(number[0].replaceAll('_', '')), at: i })
      i += number[0].length
      continue
    }
    const name = NAME.exec(rest)
    if (name) {
      tokens.push({ kind: 'name', name: name[0], at: i })
      i += name[0].length
      continue
    }
    const op = OPERATORS.find((o) => rest.startsWith(o))
    if (op === undefined) throw new FormulaSyntaxError(`unexpected character ${JSON.stringify(c)}`, i)
    tokens.push({ kind: 'op', op, at: i })
    i += op.length
  }
  tokens.push({ kind: 'end', at: text.length })
  return tokens
}

/**
 * Parses a formula. Letters name series by position (`A` = 0); a name that is
 * not a single letter, or a letter past `seriesCount`, is an error, as in
 * PostHog. Throws `FormulaSyntaxError`.
 */
export function parseFormula(text: string, seriesCount: number): FormulaNode {
  if (text.length > MAX_FORMULA_LENGTH) throw new FormulaSyntaxError(`a formula has at most ${MAX_FORMULA_LENGTH} characters`, MAX_FORMULA_LENGTH)
  const tokens = tokenize(text)
  let pos = 0
  let depth = 0
  const peek = () => tokens[pos]!
  const isOp = (op: string) => {
    const t = peek()
    return t.kind === 'op' && t.op === op
  }
  const nest = <T>(f: () => T): T => {
    if (++depth > MAX_DEPTH) throw new FormulaSyntaxError('the formula nests too deeply', peek().at)
    try {
      return f()
    } finally {
      depth--
    }
  }

  // additive := multiplicative (('+' | '-') multiplicative)*
  const additive = (): FormulaNode => {
    let left = multiplicative()
    while (isOp('+') || isOp('-')) {
      const op = (tokens[pos++] as { op: BinaryOp }).op
      left = { kind: 'binary', op, left, right: multiplicative() }
    }
    return left
  }
  // multiplicative := unary (('*' | '/' | '%') unary)*
  const multiplicative = (): FormulaNode => {
    let left = unary()
    for (;;) {
      if (isOp('//')) throw new FormulaSyntaxError('floor division (//) is not supported; use /', peek().at)
      if (!(isOp('*') || isOp('/') || isOp('%'))) return left
      const op = (tokens[pos++] as { op: BinaryOp }).op
      left = { kind: 'binary', op, left, right: unary() }
    }
  }
  // unary := ('+' | '-') unary | power   (Python: -2 ** 2 is -(2 ** 2))
  const unary = (): FormulaNode =>
    nest(() => {
      if (isOp('+')) {
        pos++
        return unary()
      }
      if (isOp('-')) {
        pos++
        return { kind: 'negate', operand: unary() }
      }
      return power()
    })
  // power := primary ('**' unary)?   (right-associative; the exponent may carry a sign)
  const power = (): FormulaNode => {
    const base = primary()
    if (!isOp('**')) return base
    pos++
    return { kind: 'binary', op: '**', left: base, right: unary() }
  }
  const primary = (): FormulaNode => {
    const t = peek()
    if (t.kind === 'number') {
      pos++
      return { kind: 'number', value: t.value }
    }
    if (t.kind === 'name') {
      pos++
      if (isOp('(')) throw new FormulaSyntaxError(`formulas support only arithmetic between series, not ${t.name.toUpperCase()}()`, t.at)
      const letter = t.name.toLowerCase()
      const index = letter.length === 1 && letter >= 'a' && letter <= 'z' ? letter.charCodeAt(0) - 97 : -1
      if (index < 0 && seriesCount > 26 && /^[a-z]+$/.test(letter)) {
        // PostHog reads one letter per series too: nothing names the 27th series and later.
        throw new FormulaSyntaxError(
          `formulas name series by one letter, A to Z, so only the first 26 of this request's ${seriesCount} series can be used; ${t.name.toUpperCase()} names none (move the series you need among the first 26)`,
          t.at,
        )
      }
      if (index < 0 || index >= seriesCount) {
        const available = Array.from({ length: Math.min(seriesCount, 26) }, (_, i) => String.fromCharCode(65 + i)).join(', ')
        throw new FormulaSyntaxError(`the formula references series ${t.name.toUpperCase()}, but only ${seriesCount} series ${seriesCount === 1 ? 'is' : 'are'} defined (${available || 'none'})`, t.at)
      }
      return { kind: 'series', index }
    }
    if (t.kind === 'op' && t.op === '(') {
      pos++
      const inner = nest(additive)
      if (!isOp(')')) throw new FormulaSyntaxError('missing )', peek().at)
      pos++
      return inner
    }
    throw new FormulaSyntaxError(t.kind === 'end' ? 'the formula ends too early' : `unexpected ${JSON.stringify(t.kind === 'op' ? t.op : '')}`, t.at)
  }

  const root = additive()
  const last = peek()
  if (last.kind !== 'end') throw new FormulaSyntaxError(`unexpected ${last.kind === 'op' ? JSON.stringify(last.op) : 'text'} after the end of the expression`, last.at)
  return root
}

/** The series a formula reads, ascending. */
export function formulaSeries(node: FormulaNode): number[] {
  const out = new Set<number>()
  const visit = (n: FormulaNode): void => {
    if (n.kind === 'series') out.add(n.index)
    else if (n.kind === 'negate') visit(n.operand)
    else if (n.kind === 'binary') {
      visit(n.left)
      visit(n.right)
    }
  }
  visit(node)
  return [...out].sort((a, b) => a - b)
}
