/**
 * Every error answer of the adapter, in PostHog's shape (drf-exceptions-hog):
 * `{ type, code, detail, attr }`. `errorResponse` is the one place where an
 * error, ours or core's, becomes an HTTP status.
 */

export interface ErrorBody {
  readonly type: string
  readonly code: string
  readonly detail: string
  readonly attr: string | null
}

/** An answer decided by the adapter itself (routing, auth, parsing, validation). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(body.detail)
    this.name = 'HttpError'
  }
}

export const notFound = () => new HttpError(404, { type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null })

/** A path as quoted in an error detail: JSON-quoted, at most 200 characters of it. */
const quoted = (path: string) => JSON.stringify(path.length > 200 ? `${path.slice(0, 200)}...` : path)

/**
 * A 404 that says which prefix the handler serves, for a path outside its
 * `basePath` or one of its routes under a prefix it was not told about
 * (`prefix`: the request is `prefix` + a route). The code stays `not_found`,
 * as on every 404; only the detail says what to change.
 */
export function notFoundUnderPrefix(basePath: string, pathname: string, prefix: string | null): HttpError {
  const serves = basePath === '' ? 'This handler serves its routes from the root (no basePath)' : `This handler serves its routes under ${quoted(basePath)} (its basePath)`
  let advice: string
  if (prefix === null) {
    advice = `${quoted(pathname)} is outside it. Request ${quoted(`${basePath}/api/...`)}, or set basePath to the prefix the handler is mounted under.`
  } else if (prefix === '') {
    advice = `${quoted(pathname)} is one of its routes without the prefix: request ${quoted(basePath + pathname)}, or drop basePath if the host strips it.`
  } else {
    advice = `${quoted(pathname)} looks like one of its routes under ${quoted(prefix)}: pass basePath ${quoted(prefix)} to createHandler.`
  }
  return new HttpError(404, { type: 'invalid_request', code: 'not_found', detail: `Not found. ${serves}; ${advice}`, attr: null })
}

export const methodNotAllowed = (method: string, allow: ReadonlyArray<string>) =>
  new HttpError(
    405,
    { type: 'invalid_request', code: 'method_not_allowed', detail: `Method "${method}" not allowed.`, attr: null },
    { allow: allow.join(', ') },
  )

export const notAuthenticated = () =>
  new HttpError(
    401,
    { type: 'authentication_error', code: 'not_authenticated', detail: 'Authentication credentials were not provided.', attr: null },
    { 'www-authenticate': 'Bearer' },
  )

export const authenticationFailed = (detail: string) =>
  new HttpError(401, { type: 'authentication_error', code: 'authentication_failed', detail, attr: null }, { 'www-authenticate': 'Bearer' })

export const permissionDenied = (detail: string) =>
  new HttpError(403, { type: 'authentication_error', code: 'permission_denied', detail, attr: null })

export const invalidInput = (detail: string, attr: string | null, code = 'invalid_input') =>
  new HttpError(400, { type: 'validation_error', code, detail, attr })

export const parseError = (detail: string) => new HttpError(400, { type: 'invalid_request', code: 'parse_error', detail, attr: null })

export const unsupportedMediaType = (contentType: string) =>
  new HttpError(415, { type: 'invalid_request', code: 'unsupported_media_type', detail: `Unsupported media type "${contentType}" in request.`, attr: null })

/** PostHog's capture answer for an oversized body, used for every route. */
export const requestTooLarge = () =>
  new HttpError(413, { type: 'client_error', code: 'request_too_large', detail: 'Request too large.', attr: null }, { connection: 'close' })

const SERVER_ERROR: ErrorBody = { type: 'server_error', code: 'error', detail: 'A server error occurred.', attr: null }
const UNAVAILABLE: ErrorBody = { type: 'server_error', code: 'service_unavailable', detail: 'The service is closed.', attr: null }

const snake = (segment: string | number) => (typeof segment === 'number' ? String(segment) : segment.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`))

interface TaggedError {
  readonly _tag: string
  readonly issues?: ReadonlyArray<{ readonly path: ReadonlyArray<string | number>; readonly message: string }>
  readonly attr?: string | null
  readonly message: string
}
const isTagged = (error: unknown): error is TaggedError =>
  typeof error === 'object' && error !== null && typeof (error as { _tag?: unknown })._tag === 'string' && error instanceof Error

export function jsonResponse(status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })
}

/**
 * The one mapping from errors to HTTP. Core's errors switch on their `_tag`
 * (no `instanceof` across package copies): ValidationError 400, NotFoundError
 * 404, ConflictError 400 (PostHog answers uniqueness as a validation error),
 * ClosedError 503, QueryCancelledError 400, QueryTimeoutError 504,
 * ConcurrencyLimitError 429, StorageError and anything unexpected 500 with a generic
 * body; those go to `onError`, never their message (it can hold SQL) to the client.
 */
export function errorResponse(error: unknown, request: Request, onError: (error: unknown, request: Request) => void): Response {
  if (error instanceof HttpError) return jsonResponse(error.status, error.body, error.headers)
  if (isTagged(error)) {
    switch (error._tag) {
      case 'ValidationError': {
        const first = error.issues?.[0]
        const attr = first && first.path.length > 0 ? first.path.map(snake).join('__') : null
        return jsonResponse(400, { type: 'validation_error', code: 'invalid_input', detail: first?.message ?? error.message, attr })
      }
      case 'NotFoundError':
        return jsonResponse(404, notFound().body)
      case 'ConflictError':
        return jsonResponse(400, { type: 'validation_error', code: 'unique', detail: error.message, attr: error.attr ? snake(error.attr) : null })
      case 'ClosedError':
        return jsonResponse(503, UNAVAILABLE)
      // PostHog answers a killed query with a 500; the client asked for the
      // stop, so a 4xx with ClickHouse's code name for it (query_was_cancelled).
      case 'QueryCancelledError':
        return jsonResponse(400, { type: 'invalid_request', code: 'query_was_cancelled', detail: error.message, attr: null })
      // PostHog's ClickHouseQueryTimeOut: 504, a DRF APIException with its default code.
      case 'QueryTimeoutError':
        return jsonResponse(504, { type: 'server_error', code: 'error', detail: error.message, attr: null })
      // PostHog's ConcurrencyLimitExceeded, raised as DRF's Throttled.
      case 'ConcurrencyLimitError':
        return jsonResponse(429, { type: 'throttled_error', code: 'throttled', detail: error.message, attr: null })
    }
  }
  try {
    onError(error, request)
  } catch {
    // A failing logger must not turn one error into two.
  }
  return jsonResponse(500, SERVER_ERROR)
}
