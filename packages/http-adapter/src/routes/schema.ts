import { Schema } from 'effect'
import { jsonResponse } from '../errors.js'
import { openApiDocument } from '../openapi.js'
import type { ResolvedOptions } from '../options.js'
import { endpoint, route, type Route } from '../route.js'

/** `GET /api/schema/`: the OpenAPI document of `routes` (built once), public as PostHog's. */
export function schemaRoute(routes: ReadonlyArray<Route>, options: ResolvedOptions): Route {
  const e = endpoint({
    summary: 'The OpenAPI 3.1 document of this interface.',
    tag: 'schema',
    access: 'public',
    responses: { 200: Schema.Record(Schema.String, Schema.Unknown) },
    async handle() {
      return jsonResponse(200, document)
    },
  })
  const document = openApiDocument([...routes, route('GET', '/api/schema/', e)], options.basePath)
  return route('GET', '/api/schema/', e)
}
