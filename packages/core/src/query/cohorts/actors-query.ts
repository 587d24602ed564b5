import { Schema } from 'effect'
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely'
import type { EngineContext } from '../../context.js'
import { ValidationError } from '../../errors.js'
import type { SightlineDatabase } from '../../storage.js'
import { decodeOrThrow } from '../../util/decode.js'
import { compilePropertyFilters, type PropertyFilterSources } from '../filters/compile-property-filters.js'
import { PropertyFilters, type PropertyCondition, type PropertyGroup } from '../filters/property-filters.js'
import { foldCase } from '../hogql/comparison.js'
import { below } from './behavior-sql.js'
import { cohortIdsIn } from './cohort-ids.js'
import { cohortFilterSource } from './cohort-membership.js'
import { loadCohorts } from './load-cohorts.js'

type Path = ReadonlyArray<string | number>

/** The part of PostHog's ActorsQuery over persons that picks who is listed. */
export interface PersonsActorsQuery {
  readonly properties: PropertyFilters | null
  readonly fixedProperties: PropertyFilters | null
  readonly search: string | null
}

/** ActorsQuery fields that change only how the rows are shown, not which persons they are. */
const SHOWN_ONLY = ['kind', 'select', 'orderBy', 'response', 'modifiers', 'tags', 'version']
/** The longest `search` text read (PostHog's has no bound; this keeps the pattern small). */
const MAX_SEARCH = 1000

const fail = (path: Path, message: string): never => {
  throw new ValidationError([{ path, message }], { context: 'invalid cohort' })
}
const given = (v: unknown): boolean => v !== undefined && v !== null

/**
 * Checks a static cohort's `query` (PostHog's `CohortSerializer.validate_query`
 * and the runner it picks) and returns what selects its persons: an
 * `ActorsQuery` of persons, filtered by `properties` and `fixedProperties`
 * (person and cohort filters: PostHog's person scope refuses the others)
 * and `search`.
 * `ValidationError` at `query...` for anything else: another kind (PostHog's
 * "Query must be an ActorsQuery or HogQLQuery"), a HogQLQuery (Sightline runs
 * no HogQL SELECT), a `source` (an insight's actors), `limit` or `offset`
 * (which persons a page holds depends on an order PostHog leaves to
 * ClickHouse), and fields the ActorsQuery schema does not have (its pydantic
 * model forbids extra fields).
 */
export function parseActorsQuery(query: unknown, path: Path = ['query']): PersonsActorsQuery {
  if (typeof query !== 'object' || query === null || Array.isArray(query)) return fail(path, 'Query must be a dictionary.')
  // Text no database stores (U+0000, a lone surrogate) is refused at its path, as every stored input is.
  const q = decodeOrThrow(Schema.Unknown, query, 'invalid cohort', path) as Record<string, unknown>
  if (q.kind === 'HogQLQuery') fail([...path, 'kind'], 'a HogQLQuery is not run here: Sightline has no HogQL SELECT runner (HogQL is read only as expressions inside analyses); make the static cohort from an ActorsQuery of persons, or list its distinct ids')
  if (q.kind !== 'ActorsQuery') fail(path, `Query must be an ActorsQuery or HogQLQuery. Got: ${String(q.kind)}`)
  for (const field of Object.keys(q)) {
    if (SHOWN_ONLY.includes(field) || ['properties', 'fixedProperties', 'search'].includes(field)) continue
    if (['source', 'limit', 'offset'].includes(field)) {
      if (given(q[field])) fail([...path, field], field === 'source' ? "an ActorsQuery over an insight's actors is not run here: only the persons of the project, by properties and search" : `${field} is not read: a static cohort holds every person the query lists`)
      continue
    }
    fail([...path, field], `ActorsQuery has no field ${field}`)
  }
  if (given(q.select) && !(Array.isArray(q.select) && q.select.every((s) => typeof s === 'string'))) fail([...path, 'select'], 'select is a list of texts')
  const filters = (field: 'properties' | 'fixedProperties') => {
    if (!given(q[field])) return null
    const decoded = decodeOrThrow(PropertyFilters, q[field], 'invalid cohort', [...path, field])
    personScope(decoded, [...path, field])
    return decoded
  }
  const search = q.search
  if (given(search) && (typeof search !== 'string' || search.length > MAX_SEARCH)) fail([...path, 'search'], `search is a text of at most ${MAX_SEARCH} characters`)
  return { properties: filters('properties'), fixedProperties: filters('fixedProperties'), search: typeof search === 'string' && search !== '' ? search : null }
}

/** PostHog's person scope (`property_to_expr(..., scope="person")`): person and cohort filters only. */
function personScope(filters: PropertyFilters, path: Path): void {
  const visit = (f: PropertyGroup | PropertyCondition, at: Path): void => {
    if ('values' in f) return f.values.forEach((v, i) => visit(v, [...at, 'values', i]))
    if (f.type !== 'person' && f.type !== 'cohort') fail([...at, 'type'], `The '${f.type ?? 'event'}' property filter does not work in 'person' scope`)
  }
  if (Array.isArray(filters)) filters.forEach((f, i) => visit(f, [...path, i]))
  else visit(filters as PropertyGroup, path)
}

/**
 * The uuids of the project's persons an ActorsQuery of persons lists, as
 * PostHog's `PersonStrategy.filter_conditions`: its property filters (person
 * and cohort ones; others are refused at their path), and `search` as
 * `%search%` matched case-insensitively (ASCII letters; `%`, `_` and `\` in
 * it act as LIKE's, as PostHog leaves them) against the `email` or `name`
 * property, the uuid, or any distinct id. Run through `db` (the cohort's
 * write transaction), behavioral cohorts at `ctx.clock()`.
 */
export async function actorsQueryPeople(ctx: EngineContext, db: Kysely<SightlineDatabase>, projectId: number, q: PersonsActorsQuery, path: Path = ['query']): Promise<string[]> {
  const lists = [q.properties, q.fixedProperties].filter((f): f is PropertyFilters => f !== null)
  const catalog = await loadCohorts({ ...ctx, db }, projectId, lists.flatMap(cohortIdsIn))
  const hooks = ctx.adapter.sql
  const sources: PropertyFilterSources = {
    event: sql`null`,
    person: sql`p.properties`,
    cohort: cohortFilterSource(catalog, { personId: sql<string>`p.uuid`, projectId, now: ctx.clock(), hooks }),
    hooks,
  }
  const conditions: Expression<SqlBool>[] = [q.properties, q.fixedProperties].flatMap((f, i) =>
    f === null ? [] : [sql<SqlBool>`coalesce(${below([...path, i === 0 ? 'properties' : 'fixedProperties'], 1, () => compilePropertyFilters(f, sources))}, false)`],
  )
  if (q.search !== null) {
    const pattern = `%${q.search.replace(/[A-Z]/g, (c) => c.toLowerCase())}%`
    const like = (text: Expression<unknown>) => sql<SqlBool>`coalesce((${foldCase(text)} like ${pattern} escape '\\'), false)`
    conditions.push(
      sql<SqlBool>`(${like(hooks.jsonText(sql`p.properties`, 'email'))} or ${like(hooks.jsonText(sql`p.properties`, 'name'))} or ${like(sql`cast(p.uuid as text)`)}
        or p.uuid in (select d.person_uuid from person_distinct_ids as d where d.project_id = ${projectId} and ${like(sql`d.distinct_id`)}))`,
    )
  }
  const rows = await db
    .selectFrom('persons as p')
    .select('p.uuid')
    .where('p.project_id', '=', projectId)
    .where(conditions.length === 0 ? sql<SqlBool>`true` : sql<SqlBool>`${sql.join(conditions, sql` and `)}`)
    .execute()
  return rows.map((r) => r.uuid)
}
