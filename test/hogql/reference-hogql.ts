/**
 * An in-memory evaluator of HogQL's arithmetic and comparisons, written from
 * the semantics in packages/core/README.md ("HogQL expressions"), not from the
 * compiler: expressions are generated as trees, printed as HogQL text for the
 * compiler, and evaluated here over the same rows.
 */
import { SQL_NUMBER_MAX_LENGTH, SQL_NUMBER_PATTERN } from '@sightline/core/storage'

export type Num =
  | { readonly t: 'prop'; readonly key: string }
  | { readonly t: 'num'; readonly v: number }
  | { readonly t: 'str'; readonly v: string }
  | { readonly t: 'bin'; readonly op: '+' | '-' | '*' | '/'; readonly l: Num; readonly r: Num }
  | { readonly t: 'neg'; readonly e: Num }

export type Cond =
  | { readonly t: 'cmp'; readonly op: '=' | '!=' | '<' | '<=' | '>' | '>='; readonly l: Num; readonly r: Num }
  | { readonly t: 'and' | 'or'; readonly l: Cond; readonly r: Cond }
  | { readonly t: 'not'; readonly e: Cond }

export type Expr = Num | Cond
export type Props = Readonly<Record<string, unknown>>

export function print(e: Expr): string {
  switch (e.t) {
    case 'prop':
      return `properties.${e.key}`
    case 'num':
      return e.v < 0 ? `(${e.v})` : String(e.v)
    case 'str':
      return `'${e.v.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`
    case 'bin':
      return `(${print(e.l)} ${e.op} ${print(e.r)})`
    case 'neg':
      return `-(${print(e.e)})`
    case 'cmp':
      return `(${print(e.l)} ${e.op} ${print(e.r)})`
    case 'and':
    case 'or':
      return `(${print(e.l)} ${e.t} ${print(e.r)})`
    case 'not':
      return `not (${print(e.e)})`
  }
}

const NUMBER = new RegExp(SQL_NUMBER_PATTERN)

/** A property's text: strings as they are, numbers and booleans in JSON spelling, missing and null as null. */
function propText(props: Props, key: string): string | null {
  const v = props[key]
  if (v === undefined || v === null) return null
  return typeof v === 'string' ? v : String(v)
}

/** Text read as a number: the storage port's rule (`SqlHooks.textToDouble`). */
export function textNumber(text: string | null): number | null {
  if (text === null || text.length > SQL_NUMBER_MAX_LENGTH || !NUMBER.test(text)) return null
  const n = Number(text)
  if (n === 0) return 0
  return Math.abs(n) > 1e-300 && Math.abs(n) < 1e300 ? n : null
}

/** Products and quotients take factors that are 0 or within 1e-150..1e150 in magnitude (divisors not 0); else null. */
const isFactor = (n: number) => n === 0 || (Math.abs(n) >= 1e-150 && Math.abs(n) <= 1e150)

const isNumberKind = (e: Num) => e.t === 'num' || e.t === 'bin' || e.t === 'neg'
const isLiteral = (e: Num) => e.t === 'num' || e.t === 'str'

export function evalNum(e: Num, props: Props): number | null {
  switch (e.t) {
    case 'prop':
      return textNumber(propText(props, e.key))
    case 'num':
      return e.v
    case 'str':
      return textNumber(e.v)
    case 'neg': {
      const x = evalNum(e.e, props)
      return x === null ? null : 0 - x
    }
    case 'bin': {
      const a = evalNum(e.l, props)
      const b = evalNum(e.r, props)
      if (a === null || b === null) return null
      if (e.op === '+') return a + b
      if (e.op === '-') return a - b
      if (e.op === '*') return isFactor(a) && isFactor(b) ? a * b : null
      return isFactor(a) && b !== 0 && isFactor(b) ? a / b : null
    }
  }
}

function textOfNum(e: Num, props: Props): string | null {
  if (e.t === 'prop') return propText(props, e.key)
  if (e.t === 'str') return e.v
  throw new Error('not text')
}

export function evalCond(e: Cond, props: Props): boolean | null {
  switch (e.t) {
    case 'not': {
      const x = evalCond(e.e, props)
      return x === null ? null : !x
    }
    case 'and': {
      const [a, b] = [evalCond(e.l, props), evalCond(e.r, props)]
      return a === false || b === false ? false : a === null || b === null ? null : true
    }
    case 'or': {
      const [a, b] = [evalCond(e.l, props), evalCond(e.r, props)]
      return a === true || b === true ? true : a === null || b === null ? null : false
    }
    case 'cmp': {
      // A number on either side compares numerically; otherwise text compares by code point.
      const numeric = isNumberKind(e.l) || isNumberKind(e.r)
      const x = numeric ? evalNum(e.l, props) : textOfNum(e.l, props)
      const y = numeric ? evalNum(e.r, props) : textOfNum(e.r, props)
      const literal = isLiteral(e.l) || isLiteral(e.r)
      if (e.op === '=' || e.op === '!=') {
        // Null-safe as HogQL prints it: with a literal, null is unequal; between two expressions, two nulls are equal.
        const equal = x === null || y === null ? !literal && x === null && y === null : x === y
        return e.op === '=' ? equal : !equal
      }
      if (x === null || y === null) return null
      switch (e.op) {
        case '<':
          return x < y
        case '<=':
          return x <= y
        case '>':
          return x > y
        case '>=':
          return x >= y
      }
    }
  }
}

export const isCond = (e: Expr): e is Cond => e.t === 'cmp' || e.t === 'and' || e.t === 'or' || e.t === 'not'

/** The value an expression has: a property or string literal alone is its text, other terms numbers, conditions booleans. */
export const evaluate = (e: Expr, props: Props): number | boolean | string | null =>
  isCond(e) ? evalCond(e, props) : isNumberKind(e) ? evalNum(e, props) : textOfNum(e, props)
