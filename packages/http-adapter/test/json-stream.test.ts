import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonAnswer } from '../src/internal/json-stream.js'

describe('jsonAnswer', () => {
  it('answers exactly the bytes of JSON.stringify, whatever the answer holds', async () => {
    const answer = fc.record(
      { result: fc.array(fc.jsonValue(), { maxLength: 20 }), timezone: fc.string(), extra: fc.oneof(fc.constant(undefined), fc.jsonValue()) },
      { requiredKeys: ['result'] },
    )
    await fc.assert(
      fc.asyncProperty(answer, fc.constantFrom(200, 400, 504), async (body, status) => {
        const response = jsonAnswer(status, body)
        expect(response.status).toBe(status)
        expect(await response.text()).toBe(JSON.stringify(body))
        expect(response.headers.get('content-type')).toBe('application/json')
      }),
      { numRuns: Number(process.env.SIGHTLINE_HTTP_RUNS ?? 200) },
    )
  })

  it('serialises the result list one element per read, not whole', async () => {
    const body = { result: [{ a: 1 }, { b: [2, 3] }, 'x'], timezone: 'UTC', is_cached: false }
    const reader = jsonAnswer(200, body).body!.getReader()
    const chunks: string[] = []
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(new TextDecoder().decode(r.value))
    // The opening keys, then one chunk per element, the closing bracket, the keys after it, and the closing brace.
    expect(chunks).toEqual(['{"result":[', '{"a":1}', ',{"b":[2,3]}', ',"x"', ']', ',"timezone":"UTC"', ',"is_cached":false', '}'])
  })
})
