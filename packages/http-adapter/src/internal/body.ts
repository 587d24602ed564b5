import { HttpError, invalidInput, parseError, requestTooLarge } from '../errors.js'

/**
 * Reads a request body, at most `limit` bytes: a larger declared length is
 * refused before reading, a larger stream is cancelled as soon as it passes
 * the limit. Returns an empty array for a request without a body.
 */
export async function readBody(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get('content-length')
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit) {
    await request.body?.cancel().catch(() => {})
    throw requestTooLarge()
  }
  if (!request.body) return new Uint8Array(0)
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      total += value.byteLength
      if (total > limit) {
        await reader.cancel().catch(() => {})
        throw requestTooLarge()
      }
      chunks.push(value)
    }
  } catch (error) {
    if (error instanceof HttpError) throw error
    throw parseError('The request body could not be read.')
  }
  return concat(chunks, total)
}

export function concat(chunks: ReadonlyArray<Uint8Array>, total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!
  const out = new Uint8Array(total)
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.byteLength
  }
  return out
}

/**
 * Deepest nesting accepted in a JSON body: serde_json's default recursion
 * limit, which PostHog's Rust capture inherits. Deeper documents would only
 * risk stack overflows further down (schema decoding, JSON.stringify).
 */
export const MAX_JSON_DEPTH = 128

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** UTF-8 text of a body, or a 400 (DRF's ParseError) for invalid bytes. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes)
  } catch {
    throw parseError('JSON parse error - invalid UTF-8.')
  }
}

/** Parses JSON text, refusing malformed or too deeply nested documents with a 400. */
export function parseJson(text: string): unknown {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw parseError(`JSON parse error - ${error instanceof Error ? error.message : 'malformed JSON'}`)
  }
  if (depthOf(value) > MAX_JSON_DEPTH) throw parseError(`JSON parse error - nested deeper than ${MAX_JSON_DEPTH} levels`)
  return value
}

/** Nesting depth of a parsed JSON value, walked without recursion. */
export function depthOf(value: unknown): number {
  let max = 0
  const stack: Array<[unknown, number]> = [[value, 1]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    if (typeof node !== 'object' || node === null) continue
    if (depth > max) max = depth
    if (max > MAX_JSON_DEPTH) return max
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1])
  }
  return max
}

/**
 * Refuses strings a database cannot store as text or JSON: NUL characters
 * (Postgres rejects them; DRF answers "Null characters are not allowed.")
 * and unpaired UTF-16 surrogates. Keys are checked too. Walked without recursion.
 */
export function assertStorableText(value: unknown): void {
  const stack: Array<[unknown, ReadonlyArray<string | number>]> = [[value, []]]
  while (stack.length > 0) {
    const [node, path] = stack.pop()!
    if (typeof node === 'string') {
      checkText(node, path)
    } else if (Array.isArray(node)) {
      node.forEach((child, i) => stack.push([child, [...path, i]]))
    } else if (typeof node === 'object' && node !== null) {
      for (const [key, child] of Object.entries(node)) {
        checkText(key, path)
        stack.push([child, [...path, key]])
      }
    }
  }
}

function checkText(text: string, path: ReadonlyArray<string | number>): void {
  const attr = path.length > 0 ? path.join('__') : null
  if (text.includes('\u0000')) throw invalidInput('Null characters are not allowed.', attr, 'null_characters_not_allowed')
  if (!text.isWellFormed()) throw invalidInput('Unpaired surrogate characters are not allowed.', attr)
}
