import type { ApiScope, Sightline } from '@sightline/core'
import type { Schema } from 'effect'
import type { Principal } from './auth.js'
import type { ResolvedOptions } from './options.js'
import type { Method } from './router.js'
import type { AnalysisSchemaName } from './wire/analysis-schemas.generated.js'

/** Who may call an endpoint. */
export type Access =
  /** A personal API key carrying this scope (or `*`, or the `:write` of a `:read`). */
  | { readonly scope: ApiScope }
  /** Any valid personal API key. */
  | 'authenticated'
  /** No credentials: capture (its project token is checked by the endpoint) and the schema. */
  | 'public'

export interface QueryParam {
  readonly name: string
  readonly schema: Schema.Top
  readonly description: string
}

/** What a handler gets. `body` is the decoded request body of a JSON endpoint. */
export interface RouteContext<B> {
  readonly request: Request
  /** The absolute URL the client used (proxy headers only when trusted), for links. */
  readonly url: URL
  readonly params: Readonly<Record<string, string>>
  readonly query: URLSearchParams
  readonly body: B
  /** The raw body of a `'raw'` endpoint; empty otherwise. */
  readonly raw: Uint8Array
  /** The caller, for endpoints that need a personal API key; null on public ones. */
  readonly principal: Principal | null
  readonly sightline: Sightline
  readonly options: ResolvedOptions
}

/**
 * A schema generated from one of core's analysis types (scripts/analysis-schemas.ts
 * writes wire/analysis-schemas.generated.ts), for the document only: the
 * analysis checks what it is sent itself.
 */
export interface CoreSchema {
  readonly core: AnalysisSchemaName
  /** Answered as a page of these (`{ count, next, previous, results }`), the component `Paginated<list>List`. */
  readonly list?: string
}

export const coreSchema = (name: AnalysisSchemaName, list?: string): CoreSchema => Object.freeze({ core: name, ...(list !== undefined && { list }) })

interface EndpointCommon {
  readonly summary: string
  readonly tag: string
  readonly access: Access
  readonly query?: ReadonlyArray<QueryParam>
  /**
   * Success statuses and their body schemas (null: no body), or a refusal the
   * endpoint always answers (an insight's DELETE: 405, no body). Error answers are documented for all.
   */
  readonly responses: Readonly<Record<number, Schema.Top | CoreSchema | null>>
  /**
   * An analysis' parameters, for the document: a POST's JSON body, a GET's
   * query parameters (one per key, JSON values as their text). The endpoint
   * still decodes `body` (an analysis takes the JSON as it came).
   */
  readonly params?: CoreSchema
  /** Formats `?format=` may ask for; the first is the default. Default `['json']`. */
  readonly formats?: ReadonlyArray<'json' | 'csv'>
  /** PostHog's capture CORS: answers preflights and echoes the Origin. */
  readonly cors?: boolean
  /** Which body limit applies. Default `'api'`. */
  readonly bodyLimit?: 'api' | 'capture'
  /** Error statuses this endpoint answers beyond the common ones (400, 404, 413; 401 and 403 with a key), for the document. */
  readonly errors?: Readonly<Record<number, string>>
  /** The media type of a success body that is not JSON (a script), for the document; its schema is then a string. Default JSON. */
  readonly mediaType?: string
  /** For a `'raw'` body: what it looks like, for the OpenAPI document only. */
  readonly documentedBody?: Schema.Top
}

/** One operation, independent of where it is mounted. */
export interface Endpoint extends EndpointCommon {
  /** The request body: a schema for JSON bodies, `'raw'` for bytes handled by the endpoint, null for none. */
  readonly body: Schema.Top | 'raw' | null
  handle(ctx: RouteContext<any>): Promise<Response>
}

export interface Route extends Endpoint {
  readonly method: Method
  readonly path: string
}

export function endpoint<S extends Schema.Top>(
  def: EndpointCommon & { readonly body: S; handle(ctx: RouteContext<S['Type']>): Promise<Response> },
): Endpoint
export function endpoint(def: EndpointCommon & { readonly body?: 'raw'; handle(ctx: RouteContext<undefined>): Promise<Response> }): Endpoint
export function endpoint(def: EndpointCommon & { readonly body?: Schema.Top | 'raw'; handle(ctx: RouteContext<any>): Promise<Response> }): Endpoint {
  return Object.freeze({ ...def, body: def.body ?? null })
}

/** An entry of the route table. */
export const route = (method: Method, path: string, e: Endpoint): Route => Object.freeze({ ...e, method, path })
