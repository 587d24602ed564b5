import { HogqlError, type HogqlNode } from './hogql-node.js'
import { floatBeforeWord } from './float-before-word.js'
import { tokenize, type Token } from './lexer.js'

/**
 * HogQL's expression grammar (`columnExpr` of PostHog's `HogQLParser.g4`) as
 * a precedence-climbing parser that emits the AST PostHog's parser emits (the
 * same nodes, fields and code-point positions; test/hogql/grammar.test.ts
 * holds the two side by side). Each token is read once and no rule is ever
 * retried, so the work is linear in the tokens (the one longer look ahead,
 * `1 . between ...` seeking its AND, stops at the enclosing bracket and is
 * bounded by the 160 tokens of `limits.ts`): PostHog's ANTLR parser
 * re-predicts at every level and took seconds on a hundred stacked `not`
 * (issue 13). Constructs outside what the compiler accepts (statements,
 * windows, casts, HogQLX tags, template strings) are refused here.
 */

// Binding powers, loosest first: the order of PostHog's `columnExpr` alternatives.
const ALIAS = 1
const TERNARY = 2
const OR = 3
const AND = 4
const NOT = 5
const BETWEEN = 6
const NULLISH = 7
const DISTINCT = 8
const IS = 9
const COMPARE = 10
const ADD = 11
const MULTIPLY = 12
const NEGATE = 13

const COMPARISONS: Readonly<Record<string, string>> = {
  '=': '==', '==': '==', '!=': '!=', '<>': '!=', '<': '<', '<=': '<=', '>': '>', '>=': '>=',
  '=~': '=~', '~': '=~', '!~': '!~', '=~*': '=~*', '~*': '=~*', '!~*': '!~*',
}
/** Keywords that never start an expression as an identifier here. */
const NOT_A_NAME = new Set(['and', 'or', 'is', 'in', 'like', 'ilike', 'between', 'as', 'when', 'then', 'else', 'end', 'distinct', 'select', 'with', 'from', 'cohort', 'over'])
const RESERVED_ALIASES = new Set(['true', 'false', 'null', 'team_id'])
/** PostHog's `identifier` takes every keyword but NULL, INF and NAN: `a.null` is not a property. */
const NOT_IDENTIFIERS = new Set(['null', 'inf', 'nan'])
const isIdentifier = (t: Token): boolean => t.kind === 'ident' || (t.kind === 'word' && !NOT_IDENTIFIERS.has(t.text.toLowerCase()))
/** HogQL's lexer reads `0` and octal digits as OCTAL_LITERAL, which cannot start a float: `010 . 5` is a tuple index of 10. */
const OCTAL = /^0[0-7]+$/
const INT64_MAX = 9223372036854775807n

/** A parsed expression and the tokens it spans (brackets included, which the node's own position leaves out). */
interface Parsed {
  readonly node: HogqlNode
  readonly start: number
  readonly end: number
}

/** The AST of `text` and the parser's work (calls of its rules), which tests hold linear in the tokens. */
export function parseExpression(text: string): { node: HogqlNode; steps: number } {
  const parser = new Parser(tokenize(text))
  const parsed = parser.expression(0)
  if (parser.peek().kind !== 'eof') throw parser.unexpected()
  return { node: parsed.node, steps: parser.steps }
}

class Parser {
  steps = 0
  private i = 0
  constructor(private readonly tokens: ReadonlyArray<Token>) {}

  peek(ahead = 0): Token {
    return this.tokens[Math.min(this.i + ahead, this.tokens.length - 1)]!
  }

  private next(): Token {
    const token = this.peek()
    if (token.kind !== 'eof') this.i++
    return token
  }

  private isOp(text: string, ahead = 0): boolean {
    const t = this.peek(ahead)
    return t.kind === 'op' && t.text === text
  }

  private isWord(word: string, ahead = 0): boolean {
    const t = this.peek(ahead)
    return t.kind === 'word' && t.text.toLowerCase() === word
  }

  private expect(op: string): Token {
    if (!this.isOp(op)) throw this.unexpected(`expected ${op}`)
    return this.next()
  }

  unexpected(detail?: string): HogqlError {
    const t = this.peek()
    const what = t.kind === 'eof' ? 'the end of the expression' : `${JSON.stringify(t.text)} at offset ${t.start}`
    return new HogqlError(`is not valid HogQL: unexpected ${what}${detail ? ` (${detail})` : ''}`)
  }

  private unsupported(what: string, start: number, end: number): HogqlError {
    return new HogqlError('is not supported in an expression', { node: what, start: { offset: start }, end: { offset: end } })
  }

  /** An expression whose operators all bind at least as tightly as `min`. */
  expression(min: number): Parsed {
    this.steps++
    let left = this.prefix()
    let aliased = false
    for (;;) {
      this.steps++
      // PostHog's parser continues an alias only with AND, OR, a ternary or another alias: `a as b + 1` is refused, `(a as b) + 1` is not.
      if (aliased && !(this.isWord('and') || this.isWord('or') || this.isWord('as') || this.isOp('?'))) return left
      aliased = this.isWord('as')
      const next = this.infix(left, min)
      if (!next) return left
      left = next
    }
  }

  private prefix(): Parsed {
    this.steps++
    const t = this.peek()
    if (t.kind === 'op') {
      if ((t.text === '-' || t.text === '+') && this.startsNumber(1)) return this.number()
      if (t.text === '-') {
        this.next()
        const right = this.expression(NEGATE)
        return this.span({ node: 'ArithmeticOperation', left: { node: 'Constant', value: 0 }, right: right.node, op: '-' }, t.start, right.end)
      }
      if (t.text === '.' && this.peek(1).kind === 'number') return this.number()
      if (t.text === '(') return this.parenthesised()
      if (t.text === '[') {
        this.next()
        const exprs = this.list(']')
        return this.span({ node: 'Array', exprs }, t.start, this.expect(']').end)
      }
      if (t.text === '{') return this.braces()
      if (t.text === '*') {
        this.next()
        return this.span({ node: 'Field', chain: ['*'] }, t.start, t.end)
      }
      throw this.unexpected()
    }
    if (t.kind === 'number') return this.number()
    if (t.kind === 'string') {
      this.next()
      return this.span({ node: 'Constant', value: t.text }, t.start, t.end)
    }
    if (t.kind === 'ident') return this.name()
    if (t.kind === 'word') {
      const word = t.text.toLowerCase()
      if (word === 'null') {
        this.next()
        return this.span({ node: 'Constant', value: null }, t.start, t.end)
      }
      if (word === 'inf' || word === 'nan') return this.number()
      if (word === 'case' && !this.isOp('(', 1)) return this.caseExpression()
      if (word === 'not' && !this.isOp('(', 1)) {
        this.next()
        const expr = this.expression(NOT)
        return this.span({ node: 'Not', expr: expr.node }, t.start, expr.end)
      }
      if ((word === 'interval' || word === 'date' || word === 'timestamp') && (this.peek(1).kind === 'string' || this.peek(1).kind === 'number')) {
        throw this.unsupported(`${t.text.toUpperCase()} literal`, t.start, this.peek(1).end)
      }
      if (NOT_A_NAME.has(word) && !this.isOp('(', 1)) throw this.unexpected()
      return this.name()
    }
    throw this.unexpected()
  }

  /** Operator after `left` binding at least as tightly as `min`, applied; undefined when there is none. */
  private infix(left: Parsed, min: number): Parsed | undefined {
    const t = this.peek()
    const { start } = left
    if (t.kind === 'op') {
      switch (t.text) {
        case '[': {
          this.next()
          const property = this.expression(0)
          return this.span({ node: 'ArrayAccess', array: left.node, property: property.node }, start, this.expect(']').end)
        }
        case '.':
        case '?.': {
          const nullish = t.text === '?.' ? { nullish: true } : {}
          const after = this.peek(1)
          if (after.kind === 'number' && /^[0-9]+$/.test(after.text) && !OCTAL.test(after.text)) {
            this.i += 2
            return this.span({ node: 'TupleAccess', tuple: left.node, index: Number(after.text), ...nullish }, start, after.end)
          }
          if (isIdentifier(after)) {
            this.i += 2
            return this.span({ node: 'ArrayAccess', array: left.node, property: { node: 'Constant', value: after.text }, ...nullish }, start, after.end)
          }
          if (t.text === '?.' && after.kind === 'op' && after.text === '[') {
            this.i += 2
            const property = this.expression(0)
            return this.span({ node: 'ArrayAccess', array: left.node, property: property.node, nullish: true }, start, this.expect(']').end)
          }
          throw this.unexpected()
        }
        case '(':
          throw this.unsupported('ExprCall', start, t.end)
        case '::':
          throw this.unsupported('TypeCast', start, this.peek(1).end)
        case '*':
        case '/':
        case '%':
          return this.binary(left, min, MULTIPLY, (right) => ({ node: 'ArithmeticOperation', left: left.node, right, op: t.text }))
        case '+':
        case '-':
          return this.binary(left, min, ADD, (right) => ({ node: 'ArithmeticOperation', left: left.node, right, op: t.text }))
        case '||':
          return this.binary(left, min, ADD, (right) => ({ node: 'Call', name: 'concat', args: [...concatArgs(left.node), ...concatArgs(right)] }))
        case '??':
          return this.binary(left, min, NULLISH, (right) => ({ node: 'Call', name: 'ifNull', args: [left.node, right] }))
        case '?': {
          if (TERNARY < min) return undefined
          this.next()
          const then = this.expression(TERNARY)
          this.expect(':')
          const otherwise = this.expression(TERNARY)
          return this.span({ node: 'Call', name: 'if', args: [left.node, then.node, otherwise.node] }, start, otherwise.end)
        }
      }
      const op = COMPARISONS[t.text]
      if (op) return this.binary(left, min, COMPARE, (right) => ({ node: 'CompareOperation', left: left.node, right, op }))
      return undefined
    }
    if (t.kind !== 'word') return undefined
    const word = t.text.toLowerCase()
    switch (word) {
      case 'and':
      case 'or': {
        const kind = word === 'and' ? 'And' : 'Or'
        return this.binary(left, min, word === 'and' ? AND : OR, (right) => ({ node: kind, exprs: [...flat(left.node, kind), ...flat(right, kind)] }))
      }
      case 'like':
      case 'ilike':
        return this.binary(left, min, COMPARE, (right) => ({ node: 'CompareOperation', left: left.node, right, op: word }))
      case 'in':
        return this.membership(left, min, '')
      case 'between':
        return this.between(left, min, false)
      case 'not': {
        const after = this.peek(1).kind === 'word' ? this.peek(1).text.toLowerCase() : ''
        if (after === 'between') return this.between(left, min, true)
        if (COMPARE < min) return undefined
        if (after === 'like' || after === 'ilike') {
          this.next()
          return this.binary(left, min, COMPARE, (right) => ({ node: 'CompareOperation', left: left.node, right, op: `not ${after}` }))
        }
        if (after === 'in') {
          this.next()
          return this.membership(left, min, 'not ')
        }
        return undefined
      }
      case 'is': {
        const negated = this.isWord('not', 1)
        const k = negated ? 2 : 1
        if (this.isWord('null', k)) {
          if (IS < min) return undefined
          this.i += k
          const end = this.next().end
          const right = { node: 'Constant', value: null }
          return this.span({ node: 'CompareOperation', left: left.node, right, op: negated ? '!=' : '==', is_null_comparison_style: true }, start, end)
        }
        if (this.isWord('distinct', k) && this.isWord('from', k + 1)) {
          if (DISTINCT < min) return undefined
          this.i += k + 2
          const right = this.expression(DISTINCT + 1)
          return this.span({ node: 'IsDistinctFrom', left: left.node, right: right.node, negated }, start, right.end)
        }
        this.next()
        throw this.unexpected('expected NULL or DISTINCT FROM')
      }
      case 'as': {
        if (ALIAS < min) return undefined
        this.next()
        const alias = this.next()
        if (!isIdentifier(alias) && alias.kind !== 'string') throw this.unexpected('expected an alias')
        if (RESERVED_ALIASES.has(alias.text.toLowerCase())) throw new HogqlError(`is not valid HogQL: "${alias.text}" cannot be an alias, as it is a reserved keyword`)
        return this.span({ node: 'Alias', expr: left.node, alias: alias.text }, start, alias.end)
      }
    }
    return undefined
  }

  /** A left-associative binary operator of binding power `power`. */
  private binary(left: Parsed, min: number, power: number, build: (right: HogqlNode) => HogqlNode): Parsed | undefined {
    if (power < min) return undefined
    this.next()
    const right = this.expression(power + 1)
    return this.span(build(right.node), left.start, right.end)
  }

  private membership(left: Parsed, min: number, not: string): Parsed | undefined {
    if (COMPARE < min) return undefined
    const cohort = this.isWord('cohort', 1)
    if (cohort) this.next()
    return this.binary(left, min, COMPARE, (right) => ({ node: 'CompareOperation', left: left.node, right, op: `${not}in${cohort ? ' cohort' : ''}` }))
  }

  /** `x [not] between low and high`: `low` may hold a between of its own, `high` may not. */
  private between(left: Parsed, min: number, negated: boolean): Parsed | undefined {
    if (BETWEEN < min) return undefined
    this.i += negated ? 2 : 1
    const low = this.expression(BETWEEN)
    if (!this.isWord('and')) throw this.unexpected('expected AND')
    this.next()
    const high = this.expression(BETWEEN + 1)
    return this.span({ node: 'BetweenExpr', expr: left.node, low: low.node, high: high.node, negated }, left.start, high.end)
  }

  /** A number literal, with its sign: `-1` is the constant -1, as PostHog's `numberLiteral`. */
  private number(): Parsed {
    this.steps++
    const first = this.next()
    let text = first.text
    let end = first.end
    const sign = first.kind === 'op' && (text === '-' || text === '+') ? text : ''
    if (sign) {
      const t = this.next()
      text = t.text
      end = t.end
    }
    if (text === '.') {
      const t = this.next()
      text = `.${t.text}`
      end = t.end
    } else if (/^[0-9]+$/.test(text) && !OCTAL.test(text) && this.isOp('.')) {
      const after = this.peek(1)
      if (after.kind === 'number' && /^[0-9]+(?:[eE][+-]?[0-9]+)?$/.test(after.text)) {
        this.i += 2
        text = `${text}.${after.text}`
        end = after.end
      } else if (after.kind === 'word' ? floatBeforeWord(this.tokens, this.i + 1) : after.kind !== 'ident') {
        end = this.next().end
        text = `${text}.`
      }
    }
    const lower = (sign + text).toLowerCase()
    return this.span(numberConstant(lower), sign ? first.start : first.start, end)
  }

  private startsNumber(ahead: number): boolean {
    const t = this.peek(ahead)
    if (t.kind === 'number') return true
    if (t.kind === 'word') return ['inf', 'nan'].includes(t.text.toLowerCase())
    return t.kind === 'op' && t.text === '.' && this.peek(ahead + 1).kind === 'number'
  }

  /** A field (`a.b.c`, `t.*`), `true`/`false`, a function call or a one-argument lambda. */
  private name(): Parsed {
    this.steps++
    const first = this.next()
    if (this.isOp('(')) return this.call(first)
    if (this.isOp('->')) return this.lambda([first.text], first.start)
    const chain: string[] = [first.text]
    let end = first.end
    while (this.isOp('.')) {
      const part = this.peek(1)
      if (isIdentifier(part)) chain.push(part.text)
      else if (part.kind === 'op' && part.text === '*') chain.push('*')
      else break
      this.i += 2
      end = part.end
      if (part.text === '*' && part.kind === 'op') break
    }
    if (chain.length === 1 && first.kind === 'word') {
      const word = first.text.toLowerCase()
      if (word === 'true' || word === 'false') return this.span({ node: 'Constant', value: word === 'true' }, first.start, end)
    }
    return this.span({ node: 'Field', chain }, first.start, end)
  }

  /** `name(args)`, `name(DISTINCT args)`, `name(params)(args)`. */
  private call(name: Token): Parsed {
    this.expect('(')
    let distinct = this.isWord('distinct') && !this.isOp('(', 1)
    if (distinct) this.next()
    let args = this.list(')')
    let end = this.expect(')').end
    let params: HogqlNode[] | null = null
    if (this.isOp('(') && !distinct) {
      this.next()
      params = args
      distinct = this.isWord('distinct') && !this.isOp('(', 1)
      if (distinct) this.next()
      args = this.list(')')
      end = this.expect(')').end
    }
    if (this.isWord('over')) throw this.unsupported('WindowFunction', name.start, this.peek().end)
    return this.span({ node: 'Call', name: name.text, params, args, distinct, filter_expr: null, order_by: null }, name.start, end)
  }

  private lambda(args: string[], start: number): Parsed {
    this.expect('->')
    if (this.isOp('{')) throw this.unsupported('Block', start, this.peek().end)
    const expr = this.expression(0)
    return this.span({ node: 'Lambda', args, expr: expr.node }, start, expr.end)
  }

  /** `(expr)`, a tuple `(a, b)`, a lambda `(a, b) -> expr`, or a subquery, which is refused. */
  private parenthesised(): Parsed {
    const open = this.next()
    if (this.isWord('select') || this.isWord('with') || (this.isOp('(') && (this.isWord('select', 1) || this.isWord('with', 1)))) {
      throw this.unsupported('SelectQuery', this.peek().start, this.closingOf(open).start)
    }
    const names = this.lambdaNames()
    if (names) return this.lambda(names, open.start)
    const exprs: Parsed[] = []
    let trailingComma = false
    while (!this.isOp(')')) {
      exprs.push(this.expression(0))
      trailingComma = this.isOp(',')
      if (!trailingComma) break
      this.next()
    }
    const close = this.expect(')')
    if (exprs.length === 0) throw this.unexpected()
    if (exprs.length === 1 && !trailingComma) return { node: exprs[0]!.node, start: open.start, end: close.end }
    return this.span({ node: 'Tuple', exprs: exprs.map((e) => e.node) }, open.start, close.end)
  }

  /** After `(`: the names of `(a, b) -> ...` and the tokens past `)`, or undefined (nothing consumed) when it is not a lambda. */
  private lambdaNames(): string[] | undefined {
    const names: string[] = []
    let k = 0
    for (;;) {
      this.steps++
      const t = this.peek(k)
      if (t.kind === 'op' && t.text === ')') break
      if (t.kind !== 'word' && t.kind !== 'ident') return undefined
      names.push(t.text)
      k++
      if (this.isOp(',', k)) k++
      else if (!this.isOp(')', k)) return undefined
    }
    if (!this.isOp('->', k + 1)) return undefined
    this.i += k + 1
    return names
  }

  /** The `)` closing `open` (for a refused subquery's span). */
  private closingOf(open: Token): Token {
    let depth = 1
    for (let k = this.i; k < this.tokens.length; k++) {
      this.steps++
      const t = this.tokens[k]!
      if (t.kind === 'op' && t.text === '(') depth++
      if (t.kind === 'op' && t.text === ')' && --depth === 0) return this.tokens[k - 1] ? { ...t, start: this.tokens[k - 1]!.end } : t
    }
    return { ...open, start: this.tokens[this.tokens.length - 1]!.end }
  }

  /** `{expr}` a placeholder, `{k: v, ...}` a dictionary. */
  private braces(): Parsed {
    const open = this.next()
    if (this.isOp('}')) return this.span({ node: 'Dict', items: [] }, open.start, this.next().end)
    const first = this.expression(0)
    if (this.isOp('}')) return this.span({ node: 'Placeholder', expr: first.node }, open.start, this.next().end)
    const items: HogqlNode[][] = []
    let key = first
    for (;;) {
      this.expect(':')
      items.push([key.node, this.expression(0).node])
      if (!this.isOp(',')) break
      this.next()
      if (this.isOp('}')) break
      key = this.expression(0)
    }
    return this.span({ node: 'Dict', items }, open.start, this.expect('}').end)
  }

  /** `CASE [x] WHEN a THEN b ... [ELSE c] END`, as PostHog rewrites it: `if`, `multiIf` or `_caseWithExpression`. */
  private caseExpression(): Parsed {
    const start = this.next().start
    const args: HogqlNode[] = []
    const subject = this.isWord('when') ? undefined : this.expression(0).node
    if (subject) args.push(subject)
    do {
      if (!this.isWord('when')) throw this.unexpected('expected WHEN')
      this.next()
      args.push(this.expression(0).node)
      if (!this.isWord('then')) throw this.unexpected('expected THEN')
      this.next()
      args.push(this.expression(0).node)
    } while (this.isWord('when'))
    if (this.isWord('else')) {
      this.next()
      args.push(this.expression(0).node)
    } else {
      args.push({ node: 'Constant', value: null })
    }
    if (!this.isWord('end')) throw this.unexpected('expected END')
    const end = this.next().end
    const name = subject ? '_caseWithExpression' : args.length === 3 ? 'if' : 'multiIf'
    return this.span({ node: 'Call', name, args }, start, end)
  }

  /** Comma-separated expressions up to `close` (not consumed); a trailing comma is allowed. */
  private list(close: string): HogqlNode[] {
    const exprs: HogqlNode[] = []
    while (!this.isOp(close)) {
      exprs.push(this.expression(0).node)
      if (!this.isOp(',')) break
      this.next()
    }
    return exprs
  }

  private span(node: HogqlNode, start: number, end: number): Parsed {
    return { node: { ...node, start: { offset: start }, end: { offset: end } }, start, end }
  }
}

/** PostHog's `visitNumberLiteral`: integers within Int64 as numbers, beyond as text; `inf`, `nan` and overflowing floats as text. */
function numberConstant(text: string): HogqlNode {
  if (text.includes('inf') || text.includes('nan')) {
    const value = text === '-inf' ? '-Infinity' : text.endsWith('inf') ? 'Infinity' : 'NaN'
    return { node: 'Constant', value, value_type: 'number' }
  }
  if (/^[+-]?0x/.test(text)) {
    const n = BigInt(text.replace(/^[+-]/, '')) * (text.startsWith('-') ? -1n : 1n)
    return n > INT64_MAX || n < -INT64_MAX - 1n ? { node: 'Constant', value: text, value_type: 'number' } : { node: 'Constant', value: Number(n) }
  }
  if (text.includes('.') || text.includes('e')) {
    const n = Number(text)
    return Number.isFinite(n) ? { node: 'Constant', value: n } : { node: 'Constant', value: n > 0 ? 'Infinity' : '-Infinity', value_type: 'number' }
  }
  const n = BigInt(text)
  if (n > INT64_MAX || n < -INT64_MAX - 1n) return { node: 'Constant', value: text.replace(/^\+/, ''), value_type: 'number' }
  return { node: 'Constant', value: Number(n) }
}

const concatArgs = (node: HogqlNode): unknown[] => (node.node === 'Call' && node.name === 'concat' && Array.isArray(node.args) ? node.args : [node])
const flat = (node: HogqlNode, kind: string): unknown[] => (node.node === kind && Array.isArray(node.exprs) ? node.exprs : [node])
