import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseExpression } from '../../packages/core/src/query/hogql/grammar.js'
import { HogqlError } from '../../packages/core/src/query/hogql/hogql-node.js'
import { parseHogqlCounted } from '../../packages/core/src/query/hogql/parser.js'
/** Generated expressions compared per run (token soups: 1.5 times as many); `SIGHTLINE_HOGQL_RUNS` for more. */
const RUNS = Number(process.env.SIGHTLINE_HOGQL_RUNS ?? 400)

/**
 * Core's parser (grammar.ts) against PostHog's own (the WebAssembly build of
 * its ANTLR grammar, kept here as the oracle): whatever core accepts must
 * give PostHog's AST, node for node with the same positions.
 */
/** The part of `@posthog/hogql-parser` used here (a dependency of the tests only: core parses with its own grammar). */
interface HogQLParser {
  parseExpr(text: string): string
}
let posthog: HogQLParser
beforeAll(async () => {
  const module = (await import('@posthog/hogql-parser')) as { default: () => Promise<HogQLParser> }
  posthog = await module.default()
})

const theirs = (text: string): unknown => JSON.parse(posthog.parseExpr(text), (k, v: unknown) => (k === 'line' || k === 'column' ? undefined : v))
function ours(text: string): unknown {
  try {
    return parseExpression(text).node
  } catch (error) {
    if (error instanceof HogqlError) return { refused: error.message }
    throw error
  }
}

/** Nodes the compiler reads; a Field naming a keyword is refused by both. */
const COMPILED = new Set(['Constant', 'Field', 'ArrayAccess', 'ArithmeticOperation', 'CompareOperation', 'BetweenExpr', 'And', 'Or', 'Not', 'IsDistinctFrom', 'Call', 'Tuple', 'Array'])
function compilable(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(compilable)
  if (typeof node !== 'object' || node === null) return true
  const n = node as Record<string, unknown>
  if (typeof n.node === 'string' && !COMPILED.has(n.node)) return false
  if (n.node === 'Call' && /^toInterval/.test(String(n.name))) return false
  if (n.node === 'Field' && (n.chain as string[]).some((part) => /^(select|from|with|and|or|not|is|in|like|ilike|between|as|case|when|then|else|end|distinct|cohort|over)$/i.test(part))) return false
  return Object.values(n).every(compilable)
}

function agree(text: string): void {
  const mine = ours(text) as { refused?: string }
  const oracle = theirs(text) as { error?: boolean }
  if (mine.refused === undefined) {
    expect(mine, text).toEqual(oracle)
  } else if (oracle.error !== true) {
    // Refusing what PostHog parses is only allowed for what the compiler would refuse anyway.
    expect(compilable(oracle), `${text}: refused (${mine.refused}) but PostHog parses it to compilable nodes`).toBe(false)
  }
}

const CASES = [
  "properties.$browser = 'Chrome'", 'not not a', 'not a and b or c', 'not (a) and b', 'not(a) = b', '(not a) = b', '- not a', '1 + not a = b',
  'a = not b and c', '-3', '- 3', '+3', '- x', '- - 1', '-(1)', '-1 * 2', '2 * -1', '1 -1', '-a.b', '- 1.x', '1.5', '.5', '1.', '1e5', '1.e5', '2.5E-3',
  'x = -1.5e-3', '010', '0x1F', '99999999999999999999', '9007199254740993', 'inf', '-inf', 'nan', '1e400', '-0', 'NULL', 'True', '`true`', 'true.x',
  "'a''b' || \"c\"\"d\"", "'a\\'b'", "'\\\\n\\\\\\\\x'", "'\\0a'", "'a\\qb'", "'é' = a", 'é', "'é🙂' || x", 'a || b || (c || d)', 'concat(a, b) || c',
  'x between 1 and 2 and 3', 'x between 1 and 2 or y', 'x not between 1 and 2 and 3', 'a and b between c and d and e', 'a or b between 1 and 2',
  'x between a between 1 and 2 and 3', '1 between 2 and 3 between 4 and 5', 'x between 1 and 2 ?? 3', 'a ?? x between 1 and 2', 'x between 1 and 2 is null',
  'a is null between 1 and 2', 'x between a ?? b and c', 'x between 1 and a = 2', 'a ?? b is null', 'a ?? b ?? c', 'a is not null', 'a is null is null',
  'a is distinct from b', 'a is not distinct from b', 'a = b is distinct from c', 'a is distinct from b = c', 'a ? b : c', 'a ? b : c ? d : e',
  'a = b = c', 'a <> b', 'a ~ b', 'a ~* b', 'a !~* b', 'a =~* b', "x not like 'a'", "x ilike 'a' like 'b'", 'x in cohort 3', 'x not in (1, 2)', 'x in [1, 2]',
  'properties?.a', 'a?.[1]', 'a?.1', "properties['a'].b", 'properties.1', 't.1.2', 'a[1][2]', '(a, b).1', 'a.`b c`.d', '$group_0', 't.*', '*', 'count(*)',
  'f()', 'f(1,)', 'f(1)(2)', 'f()()', 'quantile(0.5)(x)', 'lower(DISTINCT event)', 'f(a)(b)(c)', 'a.b(1)', 'f(x -> x)', 'f((x, y) -> x)', '(x) -> x',
  '() -> 1', 'x -> x + 1', '{a}', "{'a': 1, 'b': 2}", '{}', '(1)', '((a))', '(1, 2)', '(1,)', '()', '[]', '[1,]', '(a and b) and c', '(a or b) or (c or d)',
  'case when a then b end', 'case when a then b else c end', 'case x when 1 then 2 else 3 end', 'case when a then b when c then d else e end',
  'x as y', '1 as x', "x as 'y'", 'x as true', '1 + 2 * 3 - 4 / 5 % 6', '(select 1)', 'select 1', '1; drop table x', 'x::Int', "interval '1 day'",
  "timestamp '2024-01-01'", 'timestamp', 'date', 'f(1) over ()', '/* ; select 1 */ 1', "'--' || x -- a comment\n", 'properties[event]', 'e\'x\'',  // `1 .` before a keyword: PostHog takes the float `1.` unless reading `.keyword` as a property lasts longer (token soup, seed -1467114344).
  '1 . or a', '1 . or', '1 . or or a', '1 . or - a', '1 . or + 1', '1 . or + a', '1 . or . 5', '1 . or . a', '1 . or (a)', '1 . or ()', '1 . or () -> 1',
  '1 . and [1]', '1 . or * 2', '1 . or * - a', '1 . or * [1]', '1 . or * [1, 2]', '1 . or * * a', '1 . or not a', '1 . or not in (1)', "1 . or not like 'x'",
  '1 . in *', '1 . in (1)', '1 . in cohort 3', "1 . like 'a'", '1 . not in a', '1 . not between 1 and 2', '1 . is null', '1 . is not null', "1 . is not like 'a'",
  '1 . is not distinct from a', '1 . between 1 and 2', '1 . between - a', '1 . between - a and b', '1 . between (a)', '1 . as x', '1 . as and', '1 . as and a',
  "1 . as 'x'", '1 . a', '1 . e', '0 . or a', 'f(1 . or a)', 'x ? 1 . : 2',
  // No property is named NULL, INF or NAN; an octal literal starts no float and indexes no tuple; an alias continues only with AND, OR, ? or AS.
  'a . null', 'a.b.null', 'a?.null', '1 . null', '1 . inf', 'x.`null`', 'a . true', '010 .', '010 . 5', '07 .', '08 .', 'x . 010', 'a as inf', 'a as b + 1',
  'a as b and c', 'a as b or c', 'a as b as c', '(a as b) + 1', 'a as b ? 1 : 2', 'a as b is null', 'a as b[1]', "x as 'y' + 1", '[a as b, 1]',
]

describe('core parser against PostHog parser', () => {
  it.each(CASES)('%s', (text) => agree(text))

  const atom = fc.constantFrom('a', 'properties.$browser', "properties['k']", '1', '-2', '1.5', "'s'", "'it''s'", 'null', 'true', 'event', 'x.y.z', 'f(a)', 'lower(event)', '[1, 2]', '(1, 2)')
  const infix = fc.constantFrom('+', '-', '*', '/', '%', '||', '=', '!=', '<', '>=', 'like', 'not like', 'in', 'not in', '=~', '??', 'and', 'or', 'is distinct from')
  const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
    e: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      atom,
      fc.tuple(tie('e'), infix, tie('e')).map(([a, op, b]) => `${a} ${op} ${b}`),
      tie('e').map((e) => `not ${e}`),
      tie('e').map((e) => `-${e}`),
      tie('e').map((e) => `(${e})`),
      tie('e').map((e) => `${e} is null`),
      fc.tuple(tie('e'), tie('e'), tie('e')).map(([a, b, c]) => `${a} between ${b} and ${c}`),
      fc.tuple(tie('e'), tie('e'), tie('e')).map(([a, b, c]) => `${a} ? ${b} : ${c}`),
      fc.tuple(tie('e'), tie('e')).map(([a, b]) => `if(${a}, ${b}, 0)`),
      tie('e').map((e) => `${e}[1]`),
    ),
  })).e

  // CPU-bound (PostHog's WebAssembly parser on nested expressions): the timeout only turns a hang into a failure.
  it('agrees on generated expressions', () => {
    fc.assert(fc.property(expr, (text) => agree(text)), { numRuns: RUNS })
  }, 180_000)

  it('agrees on generated token soup', () => {
    const token = fc.constantFrom('a', '1', '.', '-', 'not', 'and', 'or', '(', ')', '[', ']', ',', "'x'", '=', 'between', 'is', 'null', '?', ':', '??', '+', '*', 'in', 'f(')
    fc.assert(fc.property(fc.array(token, { maxLength: 12 }), (tokens) => agree(tokens.join(' '))), { numRuns: RUNS * 3 / 2 })
  }, 180_000)
})

describe('the parser does linear work', () => {
  const steps = (text: string) => parseHogqlCounted(text).steps
  it.each([
    ['stacked not', (n: number) => 'not '.repeat(n) + 'true'],
    ['stacked minus', (n: number) => '- '.repeat(n) + 'x'],
    ['not and minus', (n: number) => 'not - '.repeat(n / 2) + 'x'],
    ['a chain of and', (n: number) => 'true' + ' and true'.repeat(n / 2)],
    ['a chain of +', (n: number) => '1' + ' + 1'.repeat(n / 2)],
    ['nested calls', (n: number) => 'lower('.repeat(Math.min(n / 3, 12)) + 'x' + ')'.repeat(Math.min(n / 3, 12)) + ' + x'.repeat((n - 3 * Math.min(n / 3, 12)) / 2)],
  ])('%s: steps grow in proportion to the tokens', (_name, make) => {
    // Each token costs a bounded number of rule calls: at most 4 here, whatever the depth.
    for (const n of [10, 40, 80, 150]) expect(steps(make(n)), `${n} tokens`).toBeLessThanOrEqual(4 * (n + 2))
    expect(steps(make(150))).toBeGreaterThan(steps(make(40)))
  })
})
