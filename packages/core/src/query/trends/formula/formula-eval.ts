import type { FormulaNode } from './formula-parse.js'

/**
 * Evaluates a parsed formula over one value per series, as PostHog's
 * FormulaAST does in Python: `/` and `%` by zero give 0 (its
 * ZeroDivisionError branch), `%` takes the sign of the divisor (Python's
 * floored modulo), and a missing value counts as 0. A result that is not a
 * finite real number (an overflowing power, a fractional power of a negative
 * number) is 0, since JSON cannot carry it.
 */
export function evaluateFormula(node: FormulaNode, values: ReadonlyArray<number>): number {
  const result = evaluate(node, values)
  return Number.isFinite(result) ? result : 0
}

function evaluate(node: FormulaNode, values: ReadonlyArray<number>): number {
  switch (node.kind) {
    case 'number':
      return node.value
    case 'series':
      return values[node.index] ?? 0
    case 'negate':
      return -evaluate(node.operand, values)
    case 'binary': {
      const a = evaluate(node.left, values)
      const b = evaluate(node.right, values)
      switch (node.op) {
        case '+':
          return a + b
        case '-':
          return a - b
        case '*':
          return a * b
        case '/':
          return b === 0 ? 0 : a / b
        case '%': {
          if (b === 0) return 0
          const r = a % b
          return r !== 0 && r < 0 !== b < 0 ? r + b : r
        }
        case '**':
          // Python: 0 ** -1 raises ZeroDivisionError, which PostHog turns into 0.
          if (a === 0 && b < 0) return 0
          return a ** b
      }
    }
  }
}

/** The formula bucket by bucket over equally long series (PostHog zips them). */
export function evaluateFormulaSeries(node: FormulaNode, series: ReadonlyArray<ReadonlyArray<number>>): number[] {
  const length = series.length === 0 ? 0 : Math.min(...series.map((s) => s.length))
  return Array.from({ length }, (_, i) => evaluateFormula(node, series.map((s) => s[i]!)))
}
