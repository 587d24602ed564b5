/**
 * The formula grammar (reference §8), parsed by recursive descent and never
 * handed to JavaScript:
 *
 *   expr   = term (('+' | '-') term)*
 *   term   = unary (('*' | '/') unary)*
 *   unary  = ('+' | '-') unary | atom
 *   atom   = number | letter | '(' expr ')'
 *
 * A letter names a series by its sorted position (A = 0), case-insensitively.
 * x / 0 is 0, as PostHog answers.
 */
export type Formula = (values: ReadonlyArray<number>) => number

export function parseFormula(text: string, seriesCount: number): Formula {
  const tokens = text.match(/\d+(?:\.\d*)?|\.\d+|[A-Za-z]+|\S/g) ?? []
  let pos = 0
  const peek = () => tokens[pos]
  const fail = (why: string): never => {
    throw new Error(`reference: formula ${JSON.stringify(text)}: ${why}`)
  }
  const expect = (t: string) => (tokens[pos] === t ? pos++ : fail(`expected ${t} at token ${pos}`))

  function expr(): Formula {
    let left = term()
    while (peek() === '+' || peek() === '-') {
      const op = tokens[pos++]
      const [l, r] = [left, term()]
      left = op === '+' ? (v) => l(v) + r(v) : (v) => l(v) - r(v)
    }
    return left
  }
  function term(): Formula {
    let left = unary()
    while (peek() === '*' || peek() === '/') {
      const op = tokens[pos++]
      const [l, r] = [left, unary()]
      left = op === '*' ? (v) => l(v) * r(v) : (v) => {
        const d = r(v)
        return d === 0 ? 0 : l(v) / d
      }
    }
    return left
  }
  function unary(): Formula {
    if (peek() === '-') {
      pos++
      const inner = unary()
      return (v) => -inner(v)
    }
    if (peek() === '+') {
      pos++
      return unary()
    }
    return atom()
  }
  function atom(): Formula {
    const t = tokens[pos++] ?? fail('unexpected end')
    if (t === '(') {
      const inner = expr()
      expect(')')
      return inner
    }
    if (/^[\d.]/.test(t)) {
      const n = Number(t)
      return () => n
    }
    if (/^[A-Za-z]$/.test(t)) {
      const index = t.toUpperCase().charCodeAt(0) - 65
      if (index >= seriesCount) fail(`${t} names no series`)
      return (v) => v[index]!
    }
    return fail(`unexpected ${JSON.stringify(t)}`)
  }

  const formula = expr()
  if (pos !== tokens.length) fail(`unexpected ${JSON.stringify(tokens[pos])}`)
  // -0 (e.g. -A with A = 0) is shown as 0.
  return (values) => formula(values) + 0
}
