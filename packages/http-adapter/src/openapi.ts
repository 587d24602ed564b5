import { JsonSchema, Schema, SchemaRepresentation, type SchemaAST } from 'effect'
import type { CoreSchema, Route } from './route.js'
import { ANALYSIS_SCHEMAS } from './wire/analysis-schemas.generated.js'
import { ErrorBody, Paginated } from './wire/common.js'

type Json = Record<string, unknown>

const PATH_PARAMS: Readonly<Record<string, string>> = {
  id: 'The id of the record.',
  project_id: 'The id of the project (see `GET /api/projects/`).',
  parent_lookup_organization_id: 'The id (UUID) of the organization.',
  token: 'The project token (`phc_...`) of the project.',
}

/** A path parameter and its optional constraint (`:id(\d+)`, see the router). */
const PATH_PARAM = /:([A-Za-z_][A-Za-z0-9_]*)(?:\(([^/]+)\))?/g

const ERRORS: ReadonlyArray<[number, string]> = [
  [400, 'Invalid input (`validation_error`, `attr` names the field) or a malformed body.'],
  [404, 'Not found, or not visible to the caller.'],
  [413, 'The body is larger than the limit.'],
]
const AUTH_ERRORS: ReadonlyArray<[number, string]> = [
  [401, 'No personal API key, or an invalid one.'],
  [403, 'The key lacks the scope named in `detail`.'],
]

/**
 * The OpenAPI 3.1 document of a route table, generated from the Effect
 * schemas of its requests and responses: named schemas (those with an
 * `identifier`) become `components.schemas`. A route added to the table is
 * documented with no further step.
 */
export function openApiDocument(routes: ReadonlyArray<Route>, basePath: string, version = '0.1.0'): Json {
  // A page of a generated type: the list envelope of wire/, its items referring to the type (patched in below).
  const envelopes = new Map<string, Schema.Top>()
  const envelopeOf = (list: string): Schema.Top => {
    if (!envelopes.has(list)) envelopes.set(list, Paginated(Schema.Unknown, list))
    return envelopes.get(list)!
  }
  const schemas: Schema.Top[] = [ErrorBody]
  const indexOf = new Map<Schema.Top, number>()
  const add = (s: Schema.Top) => {
    if (!indexOf.has(s)) {
      indexOf.set(s, schemas.length)
      schemas.push(s)
    }
  }
  add(ErrorBody)
  for (const r of routes) {
    // An analysis' body is documented by its parameters' type (`params`), not by the record it is decoded as.
    if (Schema.isSchema(r.body) && !r.params) add(r.body)
    if (r.documentedBody) add(r.documentedBody)
    for (const s of Object.values(r.responses)) {
      if (s && Schema.isSchema(s)) add(s)
      else if (s?.list !== undefined) add(envelopeOf(s.list))
    }
    for (const q of r.query ?? []) add(q.schema)
  }

  // The schemas describe the wire as it is (JSON in, JSON out): compiled as they are, not through a JSON codec.
  const asts = schemas.map((s) => s.ast) as unknown as [SchemaAST.AST, ...SchemaAST.AST[]]
  const multi = JsonSchema.toMultiDocumentOpenApi3_1(SchemaRepresentation.toJsonSchemaMultiDocument(SchemaRepresentation.toRepresentations(asts)))
  const jsonOf = (s: Schema.Top | CoreSchema): Json =>
    Schema.isSchema(s) ? (multi.schemas[indexOf.get(s)!] as Json) : s.list !== undefined ? jsonOf(envelopeOf(s.list)) : { $ref: `${COMPONENTS}${s.core}` }
  for (const r of routes) {
    for (const s of Object.values(r.responses)) {
      if (!s || Schema.isSchema(s) || s.list === undefined) continue
      const envelope = multi.definitions[`Paginated${s.list}List`] as { properties: Record<string, Json> }
      envelope.properties.results = { type: 'array', items: { $ref: `${COMPONENTS}${s.core}` } }
    }
  }
  for (const name of Object.keys(ANALYSIS_SCHEMAS)) {
    if (name in multi.definitions) throw new Error(`two schemas are named ${name}: one generated from core's types, one in wire/`)
  }
  const errorContent = { 'application/json': { schema: jsonOf(ErrorBody) } }

  const paths: Record<string, Record<string, Json>> = {}
  for (const r of routes) {
    const template = basePath + r.path.replace(PATH_PARAM, '{$1}')
    const pathParams = [...r.path.matchAll(PATH_PARAM)].map((m) => ({
      name: m[1]!,
      in: 'path',
      required: true,
      description: PATH_PARAMS[m[1]!] ?? '',
      // A `\d+` segment is an integer id (the interface's `id`); other constraints are patterns.
      schema: m[2] === undefined ? { type: 'string' } : m[2] === '\\d+' ? { type: 'integer', minimum: 0 } : { type: 'string', pattern: `^(?:${m[2]})$` },
    }))
    const queryParams: Json[] = (r.query ?? []).map((q) => ({ name: q.name, in: 'query', required: false, description: q.description, schema: jsonOf(q.schema) }))
    if (r.params && r.method === 'GET') {
      const named = new Set(queryParams.map((q) => q.name))
      queryParams.push(...paramsInQuery(r.params).filter((q) => !named.has(q.name)))
    }
    const formats = r.formats ?? ['json']
    // A route that takes `format=csv` only to refuse it (cancel, timing: nothing tabular) declares that 400 in `errors`; it answers JSON only.
    const csvAnswers = formats.includes('csv') && r.errors?.[400] === undefined
    if (formats.length > 1) {
      queryParams.push({ name: 'format', in: 'query', required: false, description: `One of ${formats.join(', ')}.`, schema: { type: 'string', enum: formats } })
    }
    const keyed = r.access !== 'public'
    const responses: Record<string, Json> = {}
    for (const [status, s] of Object.entries(r.responses)) {
      const content: Json = {}
      if (s) content[r.mediaType ?? 'application/json'] = { schema: jsonOf(s) }
      if (s && csvAnswers) content['text/csv'] = { schema: { type: 'string' } }
      // A declared answer of 300 or more is a refusal the endpoint always gives (DELETE of an insight: 405).
      const description = s ? 'Success.' : Number(status) >= 300 ? 'Refused, no body.' : 'Success, no body.'
      responses[status] = { description, ...(s && { content }) }
    }
    for (const [status, description] of [...ERRORS, ...(keyed ? AUTH_ERRORS : []), ...Object.entries(r.errors ?? {})]) {
      responses[String(status)] = { description, content: errorContent }
    }
    const requestBody = Schema.isSchema(r.body)
      ? { required: r.method === 'POST', content: { 'application/json': { schema: jsonOf(r.params ?? r.body) } } }
      : r.documentedBody
        ? { required: false, content: { 'application/json': { schema: jsonOf(r.documentedBody) }, 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { data: { type: 'string', description: 'The payload, base64-encoded.' } } } } } }
        : undefined
    const operation: Json = {
      operationId: `${r.method.toLowerCase()}_${r.path.replace(PATH_PARAM, ':$1').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
      summary: r.summary,
      tags: [r.tag],
      parameters: [...pathParams, ...queryParams],
      ...(requestBody && { requestBody }),
      responses,
      security: r.access === 'public' ? [] : [{ PersonalAPIKey: r.access === 'authenticated' ? [] : [r.access.scope] }],
    }
    ;(paths[template] ??= {})[r.method.toLowerCase()] = operation
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Sightline',
      version,
      description: "Sightline's PostHog-compatible interface: plugins, insights and event definitions (management, personal API keys), and capture for PostHog SDKs (project tokens).",
    },
    paths,
    components: {
      schemas: { ...multi.definitions, ...ANALYSIS_SCHEMAS },
      securitySchemes: {
        PersonalAPIKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'A personal API key (`phx_...`); also accepted as `personal_api_key` in the query string or the JSON body. The operation lists the scope it needs; `*` grants all, `:write` grants `:read`.',
        },
      },
    },
  }
}

const COMPONENTS = '#/components/schemas/'

/** A value sent as it is in a query string (form style); others are JSON text (`events=[{"id":"$pageview"}]`). */
const isScalar = (s: Json): boolean => {
  const types = Array.isArray(s.type) ? s.type : [s.type]
  return s.$ref === undefined && s.anyOf === undefined && types.every((t) => t === 'string' || t === 'number' || t === 'boolean' || t === 'null')
}

/**
 * An analysis' parameters as query parameters (PostHog's GET): one per key of
 * its type (of any member of a union), required when every member requires
 * it. Values that are lists or objects are JSON text (`content`), others plain.
 */
function paramsInQuery(params: CoreSchema): Json[] {
  const root = ANALYSIS_SCHEMAS[params.core] as Json
  const members = (root.anyOf as Json[] | undefined) ?? [root]
  const found = new Map<string, { schema: Json; required: boolean }>()
  for (const member of members) {
    const required = new Set((member.required as string[] | undefined) ?? [])
    for (const [name, schema] of Object.entries((member.properties ?? {}) as Record<string, Json>)) {
      const seen = found.get(name)
      found.set(name, { schema: seen?.schema ?? schema, required: (seen?.required ?? true) && required.has(name) })
    }
  }
  for (const name of found.keys()) if (members.some((m) => !((m.properties ?? {}) as Json)[name])) found.get(name)!.required = false
  return [...found].map(([name, { schema, required }]) => {
    const { description, ...bare } = schema
    return {
      name,
      in: 'query',
      required,
      description: description ?? '',
      ...(isScalar(bare) ? { schema: bare } : { content: { 'application/json': { schema: bare } } }),
    }
  })
}
