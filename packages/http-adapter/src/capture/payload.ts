import { promisify } from 'node:util'
import { gunzip } from 'node:zlib'
import { HttpError, requestTooLarge } from '../errors.js'
import { depthOf, MAX_JSON_DEPTH } from '../internal/body.js'

const gunzipAsync = promisify(gunzip)

/** PostHog's capture validation answer (`generate_exception_response`); `attr` names the field where known. */
export const invalidPayload = (detail: string, code = 'invalid_payload', attr: string | null = null) =>
  new HttpError(400, { type: 'validation_error', code, detail, attr })

export interface CapturePayload {
  /** The decoded data: one event, an array of events, or `{ batch, ... }`. */
  readonly data: unknown
  /** Form fields of a form-encoded body (`data`, `api_key`, `token`, `sent_at`, `compression`). */
  readonly form: URLSearchParams
}

const isGzip = (bytes: Uint8Array) => bytes.byteLength >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b
const strictUtf8 = new TextDecoder('utf-8', { fatal: true })
const encoder = new TextEncoder()

/**
 * PostHog's `load_data_from_request` and `decompress`: the body (JSON,
 * text/plain or empty content types), else the form field `data`, or the
 * query's `data` for GET; then gzip (`Content-Encoding: gzip`,
 * `?compression=gzip-js`), then JSON, else base64 (posthog-js's form data,
 * with or without `data=`), and unlabelled gzip as a last try.
 */
export async function readCapturePayload(request: Request, url: URL, raw: Uint8Array, limit: number): Promise<CapturePayload> {
  let form = new URLSearchParams()
  let data: Uint8Array | undefined
  if (request.method.toUpperCase() === 'GET' || request.method.toUpperCase() === 'HEAD') {
    const fromQuery = url.searchParams.get('data')
    data = fromQuery ? encoder.encode(fromQuery) : undefined
  } else {
    const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
    if (type === 'application/x-www-form-urlencoded') {
      form = new URLSearchParams(new TextDecoder().decode(raw))
    } else if (type === 'multipart/form-data') {
      form = await multipartFields(request, raw)
    }
    const field = form.get('data')
    data = type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data' ? (field ? encoder.encode(field) : undefined) : raw
  }
  const compression = (url.searchParams.get('compression') || form.get('compression') || request.headers.get('content-encoding') || '').toLowerCase()
  return { data: await decompress(data, compression, limit), form }
}

async function multipartFields(request: Request, raw: Uint8Array): Promise<URLSearchParams> {
  const fields = new URLSearchParams()
  try {
    const parsed = await new Response(raw, { headers: { 'content-type': request.headers.get('content-type') ?? '' } }).formData()
    for (const [key, value] of parsed) if (typeof value === 'string') fields.append(key, value)
  } catch {
    throw invalidPayload('Malformed request data: invalid multipart form data.')
  }
  return fields
}

async function decompress(data: Uint8Array | undefined, compression: string, limit: number): Promise<unknown> {
  if (!data || data.byteLength === 0) return undefined
  let bytes = data
  if (compression === 'gzip' || compression === 'gzip-js') {
    bytes = await inflate(bytes, limit)
  } else if (compression === 'lz64') {
    throw invalidPayload('Malformed request data: lz64 compression is not supported; send gzip-js or uncompressed JSON.')
  }
  const parsed = parseData(bytes)
  if (parsed.ok) return parsed.value
  if (compression === '' && isGzip(bytes)) {
    const retried = parseData(await inflate(bytes, limit))
    if (retried.ok) return retried.value
  }
  throw invalidPayload(`Malformed request data: Invalid JSON: ${parsed.reason}`)
}

async function inflate(bytes: Uint8Array, limit: number): Promise<Uint8Array> {
  try {
    return await gunzipAsync(bytes, { maxOutputLength: limit })
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw requestTooLarge()
    throw invalidPayload(`Malformed request data: Failed to decompress data. ${error instanceof Error ? error.message : ''}`.trim())
  }
}

type Parsed = { ok: true; value: unknown } | { ok: false; reason: string }

function parseData(bytes: Uint8Array): Parsed {
  let text: string
  try {
    text = strictUtf8.decode(bytes)
  } catch {
    return { ok: false, reason: 'the data is not UTF-8' }
  }
  const direct = parseJson(text)
  if (direct.ok) return direct
  const base64 = fromBase64(text)
  if (base64 !== undefined) {
    const decoded = parseJson(base64)
    if (decoded.ok) return decoded
  }
  return direct
}

function parseJson(text: string): Parsed {
  try {
    const value: unknown = JSON.parse(text)
    if (depthOf(value) > MAX_JSON_DEPTH) return { ok: false, reason: `nested deeper than ${MAX_JSON_DEPTH} levels` }
    return { ok: true, value }
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : 'malformed JSON' }
  }
}

/** PostHog's `base64_decode`: an optional `data=` prefix, URL-encoding, spaces for pluses, missing padding. */
function fromBase64(text: string): string | undefined {
  let body = text.trim()
  try {
    body = decodeURIComponent(body.startsWith('data=') ? body.slice(5).split('&')[0]! : body)
  } catch {
    return undefined
  }
  body = body.replace(/ /g, '+').replace(/\s/g, '')
  if (body === '' || !/^[A-Za-z0-9+/_-]+=*$/.test(body)) return undefined
  try {
    return strictUtf8.decode(Buffer.from(body, 'base64'))
  } catch {
    return undefined
  }
}
