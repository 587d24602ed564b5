/** The formula grammar and arithmetic, PostHog's (Python's) reading: no database. */
import { describe, expect, it } from 'vitest'
import { evaluateFormula } from '../../packages/core/src/query/trends/formula/formula-eval.js'
import { FormulaSyntaxError, formulaSeries, parseFormula } from '../../packages/core/src/query/trends/formula/formula-parse.js'

const calc = (text: string, values: number[]) => evaluateFormula(parseFormula(text, values.length), values)

describe('trend formulas', () => {
  it('follows Python precedence: ** binds tighter than unary minus and is right-associative', () => {
    expect(calc('A + B * 2', [1, 3])).toBe(7)
    expect(calc('(A + B) * 2', [1, 3])).toBe(8)
    expect(calc('-2 ** 2', [0])).toBe(-4)
    expect(calc('2 ** 3 ** 2', [0])).toBe(512)
    expect(calc('2 ** -1', [0])).toBe(0.5)
    expect(calc('A - B - 1', [10, 3])).toBe(6)
    expect(calc('A / B / 2', [12, 3])).toBe(2)
    expect(calc('--A', [5])).toBe(5)
    expect(calc('+A', [5])).toBe(5)
  })

  it('letters are case-insensitive and name series in order; numbers in Python spelling', () => {
    expect(calc('a + C', [1, 2, 30])).toBe(31)
    expect(calc('A * 1e2 + .5 + 1_000', [2])).toBe(1200.5)
    expect(formulaSeries(parseFormula('(c - A) / c', 3))).toEqual([0, 2])
  })

  it('division and modulo by zero give 0; % takes the sign of the divisor', () => {
    expect(calc('A / B', [5, 0])).toBe(0)
    expect(calc('A % B', [5, 0])).toBe(0)
    expect(calc('A % 3', [-7])).toBe(2)
    expect(calc('A % -3', [7])).toBe(-2)
    expect(calc('0 ** -1', [0])).toBe(0)
    expect(calc('(A / 3600) / B', [7200, 4])).toBe(0.5)
  })

  it('a result that is not a finite real number is 0', () => {
    expect(calc('A ** 0.5', [-4])).toBe(0)
    expect(calc('10 ** 400', [0])).toBe(0)
  })

  it.each([
    ['A +', 'ends too early'],
    ['A B', 'after the end'],
    ['(A + B', 'missing )'],
    ['A + D', 'references series D, but only 2 series are defined (A, B)'],
    ['AB + 1', 'references series AB'],
    ['sum(A)', 'not SUM()'],
    ['A // B', 'floor division'],
    ['A ^ B', 'unexpected character "^"'],
    ['A == B', 'unexpected character "="'],
    ['1.2.3', 'invalid number'],
    ['', 'ends too early'],
  ])('refuses %j (%s)', (text, message) => {
    expect(() => parseFormula(text, 2)).toThrow(FormulaSyntaxError)
    expect(() => parseFormula(text, 2)).toThrow(message)
  })

  it('refuses nesting past its depth bound and texts past 1000 characters', () => {
    expect(() => parseFormula('('.repeat(150) + 'A' + ')'.repeat(150), 1)).toThrow('nests too deeply')
    expect(() => parseFormula('A+'.repeat(600) + 'A', 1)).toThrow('at most 1000 characters')
  })
})
