import createHogQLParser, { type HogQLParser } from '@posthog/hogql-parser'
import { MAX_HOGQL_LENGTH, MAX_HOGQL_NESTING, MAX_HOGQL_TOKENS, scanHogqlText } from './limits.js'
import { HogqlError, type HogqlNode } from './hogql-node.js'

let parser: HogQLParser | undefined
let loading: Promise<void> | undefined

/**
 * Loads the WebAssembly parser once (its module embeds the binary: nothing is
 * fetched). Later calls resolve at once; a failed load is retried by the next call.
 */
export function loadHogqlParser(): Promise<void> {
  if (parser) return Promise.resolve()
  loading ??= createHogQLParser().then(
    (p) => {
      parser = p
    },
    (error: unknown) => {
      loading = undefined
      throw error
    },
  )
  return loading
}

/**
 * Parses one HogQL expression into PostHog's AST (as JSON), after the text
 * bounds of `limits.ts`. Throws `HogqlError` for text refused or not parsed.
 */
export function parseHogqlExpression(text: string): HogqlNode {
  if (!parser) throw new Error('the HogQL parser is not loaded: await loadHogqlParser() first')
  if (text.length > MAX_HOGQL_LENGTH) throw new HogqlError(`is longer than ${MAX_HOGQL_LENGTH} characters`)
  if (text.includes('\u0000') || !text.isWellFormed()) throw new HogqlError('contains U+0000 or an unpaired UTF-16 surrogate')
  const shape = scanHogqlText(text)
  if (shape.tokens > MAX_HOGQL_TOKENS) throw new HogqlError(`has more than ${MAX_HOGQL_TOKENS} tokens`)
  if (shape.nesting > MAX_HOGQL_NESTING) throw new HogqlError(`nests brackets deeper than ${MAX_HOGQL_NESTING} levels`)
  let json: string
  try {
    json = parser.parseExpr(text)
  } catch (error) {
    // A trap leaves the WebAssembly instance unusable: drop it and load a fresh one.
    parser = undefined
    loading = undefined
    loadHogqlParser().catch(() => {})
    throw new HogqlError('could not be parsed (the parser failed on it)', undefined, { cause: error })
  }
  const result = JSON.parse(json) as HogqlNode
  if (result.error === true) throw new HogqlError(`is not valid HogQL: ${String(result.message).slice(0, 200)}`)
  return result
}
