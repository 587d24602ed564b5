/** Where a node starts or ends; `offset` counts Unicode code points of the expression. */
export interface HogqlPosition {
  readonly offset: number
}

/** A node of PostHog's HogQL AST as the parser emits it (JSON): `node` names its class. */
export interface HogqlNode {
  readonly node: string
  readonly start?: HogqlPosition
  readonly end?: HogqlPosition
  readonly [field: string]: unknown
}

/**
 * A problem with the expression, found while parsing or compiling; the public
 * functions turn it into a `ValidationError` at the caller's path. `node` is
 * the refused node, whose text the message quotes.
 */
export class HogqlError extends Error {
  constructor(
    message: string,
    readonly node?: HogqlNode,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

const MAX_QUOTED = 80

/** The expression's text of `node`, cut to a readable length; empty when the node has no position. */
export function nodeText(source: string, node: HogqlNode | undefined): string {
  const start = node?.start?.offset
  const end = node?.end?.offset
  if (start === undefined || end === undefined) return ''
  const text = [...source].slice(start, end).join('')
  return text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}...` : text
}

export const isNode = (value: unknown): value is HogqlNode =>
  typeof value === 'object' && value !== null && typeof (value as { node?: unknown }).node === 'string'
