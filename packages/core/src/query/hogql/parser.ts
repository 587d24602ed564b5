import { MAX_HOGQL_LENGTH, MAX_HOGQL_NESTING, MAX_HOGQL_TOKENS, scanHogqlText } from './limits.js'
import { parseExpression } from './grammar.js'
import { HogqlError, type HogqlNode } from './hogql-node.js'

/**
 * Kept for callers written when the parser was PostHog's WebAssembly build:
 * the parser is now plain TypeScript (`grammar.ts`), so there is nothing to
 * load and this resolves at once.
 */
export function loadHogqlParser(): Promise<void> {
  return Promise.resolve()
}

/**
 * Parses one HogQL expression into PostHog's AST, after the text bounds of
 * `limits.ts`. Throws `HogqlError` for text refused or not parsed. Linear in
 * the text: see `limits.ts` for the worst case measured.
 */
export function parseHogqlExpression(text: string): HogqlNode {
  return parseHogqlCounted(text).node
}

/** `parseHogqlExpression` with the parser's step count, for the tests that hold it linear. */
export function parseHogqlCounted(text: string): { node: HogqlNode; steps: number } {
  if (text.length > MAX_HOGQL_LENGTH) throw new HogqlError(`is longer than ${MAX_HOGQL_LENGTH} characters`)
  if (text.includes('\u0000') || !text.isWellFormed()) throw new HogqlError('contains U+0000 or an unpaired UTF-16 surrogate')
  const shape = scanHogqlText(text)
  if (shape.tokens > MAX_HOGQL_TOKENS) throw new HogqlError(`has more than ${MAX_HOGQL_TOKENS} tokens`)
  if (shape.nesting > MAX_HOGQL_NESTING) throw new HogqlError(`nests brackets deeper than ${MAX_HOGQL_NESTING} levels`)
  return parseExpression(text)
}
