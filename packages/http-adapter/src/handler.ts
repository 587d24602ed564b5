import type { Sightline } from '@sightline/core'
import { Schema } from 'effect'
import { authenticate, requireScope, type Principal } from './auth.js'
import { errorResponse, methodNotAllowed, notFound, notFoundUnderPrefix, unsupportedMediaType } from './errors.js'
import { assertStorableText, decodeUtf8, parseJson, readBody } from './internal/body.js'
import { corsHeaders, preflight } from './internal/cors.js'
import { decodeBody } from './internal/decode.js'
import { publicUrl } from './internal/public-url.js'
import { resolveOptions, type HandlerOptions, type ResolvedOptions } from './options.js'
import type { Route, RouteContext } from './route.js'
import { createRouter, type Lookup } from './router.js'
import { apiRoutes } from './routes/index.js'
import { schemaRoute } from './routes/schema.js'

/** The HTTP core: a Web `Request` in, a `Response` out. Never rejects. */
export type FetchHandler = (request: Request) => Promise<Response>

const NO_BODY = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Serves Sightline's PostHog-compatible interface: the management API of
 * `shared/spec/interface.md` (personal API keys), capture for PostHog SDKs
 * (project tokens) and the OpenAPI document at `/api/schema/`.
 *
 * ```ts
 * const handler = createHandler(sightline, { basePath: '/sightline' })
 * const response = await handler(new Request('http://localhost/sightline/api/projects/', { headers }))
 * ```
 */
export function createHandler(sightline: Sightline, options: HandlerOptions = {}): FetchHandler {
  return handlerFor(sightline, options, apiRoutes)
}

/** The handler of a route table (the table and `/api/schema/` describing it). Internal: the package exports `createHandler`. */
export function handlerFor(sightline: Sightline, options: HandlerOptions, table: ReadonlyArray<Route>): FetchHandler {
  const o = resolveOptions(options)
  const routes: ReadonlyArray<Route> = [...table, schemaRoute(table, o)]
  const lookup = createRouter(routes)

  return async (request) => {
    let route: Route | undefined
    try {
      const url = new URL(request.url)
      const path = stripBasePath(url.pathname, o.basePath)
      const method = request.method.toUpperCase()
      if (path === null) throw notFoundUnderPrefix(o.basePath, url.pathname, routePrefix(lookup, url.pathname, true))
      const found = lookup(method, path)
      if (found.kind === 'not-found') {
        const page = o.ui && (method === 'GET' || method === 'HEAD') ? await o.ui.serve(path, request) : null
        if (page) return method === 'HEAD' ? new Response(null, { status: page.status, headers: page.headers }) : page
        const prefix = routePrefix(lookup, path, false)
        throw prefix === null ? notFound() : notFoundUnderPrefix(o.basePath, url.pathname, o.basePath + prefix)
      }
      if (found.kind === 'options') {
        // Capture answers browsers' CORS preflights; other paths just say what they allow.
        if (found.routes.some((r) => r.cors)) return preflight(request)
        return new Response(null, { status: 204, headers: { allow: found.allow.join(', ') } })
      }
      if (found.kind === 'method-not-allowed') throw methodNotAllowed(method, found.allow)
      route = found.route
      const response = await serve(sightline, o, route, request, url, found.params)
      return method === 'HEAD' ? new Response(null, { status: response.status, headers: response.headers }) : response
    } catch (error) {
      const response = errorResponse(error, request, o.onError)
      if (route?.cors) for (const [k, v] of Object.entries(corsHeaders(request))) response.headers.set(k, v)
      return response
    }
  }
}

/** The path below the base path, or null for a request outside it. */
function stripBasePath(pathname: string, basePath: string): string | null {
  if (basePath === '') return pathname
  if (pathname === basePath) return '/'
  return pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : null
}

/** Leading segments a 404's path may carry before one of the handler's routes (a mount prefix the handler was not told about). */
const MAX_PREFIX_SEGMENTS = 3

/**
 * The prefix before one of the table's routes in a path no route matched:
 * `''` when the path itself is a route (allowed only for a path outside the
 * base path), else its first one to three segments, never `api` itself (so
 * `/api/nothing/e/` is not read as capture's `/e/` under `/api/nothing`).
 * Null when no route follows any such prefix. Only 404s pay for it.
 */
function routePrefix(lookup: (method: string, path: string) => Lookup<Route>, path: string, whole: boolean): string | null {
  if (whole && lookup('GET', path).kind !== 'not-found') return ''
  const segments = path.split('/').slice(1)
  for (let k = 1; k <= MAX_PREFIX_SEGMENTS && k < segments.length; k++) {
    if (segments[k - 1] === 'api' || segments[k - 1] === '') return null
    if (segments[k] === '') continue
    if (lookup('GET', `/${segments.slice(k).join('/')}`).kind !== 'not-found') return `/${segments.slice(0, k).join('/')}`
  }
  return null
}

async function serve(
  sightline: Sightline,
  o: ResolvedOptions,
  route: Route,
  request: Request,
  url: URL,
  params: Readonly<Record<string, string>>,
): Promise<Response> {
  const format = url.searchParams.get('format')
  const formats = route.formats ?? ['json']
  // DRF answers a format no renderer offers with 404.
  if (format !== null && format !== '' && !formats.includes(format as 'json')) throw notFound()

  const raw = NO_BODY.has(request.method.toUpperCase())
    ? new Uint8Array(0)
    : await readBody(request, route.bodyLimit === 'capture' ? o.maxCaptureBodyBytes : o.maxBodyBytes)
  const parsed = route.body === 'raw' ? undefined : parseBody(raw, request.headers.get('content-type'))

  let principal: Principal | null = null
  if (route.access !== 'public') {
    principal = await authenticate(sightline, request, url.searchParams, parsed)
    if (route.access !== 'authenticated') requireScope(principal, route.access.scope)
  }

  let body: unknown = undefined
  if (Schema.isSchema(route.body)) {
    const input = parsed === undefined ? {} : parsed
    assertStorableText(input)
    body = decodeBody(route.body, input)
  }

  const ctx: RouteContext<unknown> = {
    request,
    url: publicUrl(request, o.trustProxy),
    params,
    query: url.searchParams,
    body,
    raw,
    principal,
    sightline,
    options: o,
  }
  const response = await route.handle(ctx)
  if (route.cors) for (const [k, v] of Object.entries(corsHeaders(request))) response.headers.set(k, v)
  return response
}

/**
 * A management request body: JSON whatever the content type says (clients
 * forget it), except forms, which become flat objects as Django parses them.
 */
function parseBody(raw: Uint8Array, contentType: string | null): unknown {
  if (raw.byteLength === 0) return undefined
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  const text = decodeUtf8(raw)
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(text))
  if (type.startsWith('multipart/')) throw unsupportedMediaType(type)
  if (text.trim() === '') return undefined
  return parseJson(text)
}
