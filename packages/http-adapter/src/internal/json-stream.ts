/** Elements of `result` serialised per pull: each pull is a short stretch of work, and the event loop turns between pulls. */
const ELEMENTS_PER_PULL = 1

const encoder = new TextEncoder()

/**
 * A JSON answer whose `result` list is serialised one element at a time, as
 * the client reads it, instead of in one `JSON.stringify` of the whole answer:
 * a large analysis (tens of MB) neither blocks the event loop for its whole
 * serialisation nor holds its whole text in memory. The bytes are exactly
 * `JSON.stringify(body)`'s. Other bodies are answered whole.
 */
export function jsonAnswer(status: number, body: unknown): Response {
  const headers = { 'content-type': 'application/json' }
  if (!isStreamable(body)) return new Response(JSON.stringify(body), { status, headers })
  const parts = pieces(body)
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      for (let i = 0; i < ELEMENTS_PER_PULL; i++) {
        const next = parts.next()
        if (next.done) return controller.close()
        controller.enqueue(encoder.encode(next.value))
      }
    },
  })
  return new Response(stream, { status, headers })
}

const isStreamable = (body: unknown): body is Record<string, unknown> & { result: unknown[] } =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && Array.isArray((body as { result?: unknown }).result) && (body as { result: unknown[] }).result.length > 1

/** The answer's text in pieces: each key as JSON.stringify writes it, the `result` list element by element. */
function* pieces(body: Record<string, unknown> & { result: unknown[] }): Generator<string> {
  let first = true
  for (const [key, value] of Object.entries(body)) {
    if (key !== 'result') {
      const text = JSON.stringify(value)
      // JSON.stringify leaves out keys whose value it cannot write (undefined, functions, symbols).
      if (text === undefined) continue
      yield `${first ? '{' : ','}${JSON.stringify(key)}:${text}`
    } else {
      yield `${first ? '{' : ','}"result":[`
      for (const [i, element] of body.result.entries()) yield `${i > 0 ? ',' : ''}${JSON.stringify(element) ?? 'null'}`
      yield ']'
    }
    first = false
  }
  yield '}'
}
