import { ValidationError } from '../../errors.js'
import { CohortCriteriaGroup, CohortCriterion, type CohortFilters } from '../../model/cohort.js'
import { decodeOrThrow } from '../../util/decode.js'
import { countOf, positive } from './behavioral-criterion.js'
import { parseCohortCriteria, parseCriteriaGroup, parseCriterion, type CohortNode } from './cohort-criteria.js'

type Path = ReadonlyArray<string | number>
type Json = Readonly<Record<string, unknown>>

const NO_CRITERIA: CohortNode = { kind: 'group', type: 'AND', values: [] }

const fail = (path: Path, message: string): never => {
  throw new ValidationError([{ path, message }], { context: 'invalid cohort groups' })
}

/** Python's truthiness of a JSON value, which PostHog's `Cohort.properties` tests fields by. */
const truthy = (v: unknown): boolean =>
  v !== undefined && v !== null && v !== false && v !== 0 && v !== '' && !(Array.isArray(v) && v.length === 0) && !(typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0)

/**
 * The criteria of a dynamic cohort as PostHog's `Cohort.properties` reads
 * them: `filters` when it has any criterion, else the legacy `groups`
 * (see `legacyGroupsCriteria`). Sightline stores absent `filters` as an
 * empty AND group, so "has any criterion" stands for PostHog's non-empty
 * `filters`. Throws `ValidationError` at the failing path.
 */
export function definitionCriteria(filters: CohortFilters, groups: ReadonlyArray<Json>): CohortNode {
  const fromFilters = parseCohortCriteria(filters)
  if (fromFilters.kind === 'group' && fromFilters.values.length === 0 && groups.length > 0) return legacyGroupsCriteria(groups)
  return fromFilters
}

/**
 * PostHog's conversion of deprecated `groups` (`Cohort.properties`): an OR
 * of one part per group, each
 * - `properties` as a list: their AND, a property without a type or of type
 *   `event` read as a person property (PostHog's kludge for old saves);
 *   as `{key: value}` (the oldest form): person properties equal to each
 *   value; as `{type, values}`: that group;
 * - else `action_id` or `event_id`: performed that action (or event) in the
 *   last `days` days (365 when absent or 0), `count` times compared by
 *   `count_operator` when `count` is a positive integer, else at least once;
 * - else PostHog's "invalid state": the whole cohort has no criteria, which
 *   every person meets, as an empty `filters`.
 * Throws `ValidationError` under `path` for what the criteria parser refuses.
 */
export function legacyGroupsCriteria(groups: ReadonlyArray<Json>, path: Path = ['groups']): CohortNode {
  const values: CohortNode[] = []
  for (const [i, g] of groups.entries()) {
    const at = [...path, i]
    if (truthy(g.properties)) values.push(fromProperties(g.properties, [...at, 'properties']))
    else if (truthy(g.action_id) || truthy(g.event_id)) values.push(fromEntity(g, at))
    else return NO_CRITERIA
  }
  return { kind: 'group', type: 'OR', values }
}

function fromProperties(props: unknown, path: Path): CohortNode {
  if (Array.isArray(props)) {
    const values = props.map((p, j) => {
      const at = [...path, j]
      if (typeof p !== 'object' || p === null || Array.isArray(p)) return fail(at, 'expected a property object')
      const typed = (p as Json).type === undefined || (p as Json).type === 'event' ? { ...(p as Json), type: 'person' } : p
      return parseCriterion(decodeOrThrow(CohortCriterion, typed, 'invalid cohort groups', at), at)
    })
    return { kind: 'group', type: 'AND', values }
  }
  if (typeof props !== 'object' || props === null) return fail(path, 'expected a list of properties or a property group')
  const obj = props as Json
  if ('type' in obj || 'values' in obj) return parseCriteriaGroup(decodeOrThrow(CohortCriteriaGroup, obj, 'invalid cohort groups', path), path, 1)
  const values = Object.entries(obj).map(([key, value]) => parseCriterion({ type: 'person', key, value }, [...path, key]))
  return { kind: 'group', type: 'AND', values }
}

function fromEntity(g: Json, at: Path): CohortNode {
  const isAction = truthy(g.action_id)
  const key = isAction ? positive(g.action_id, [...at, 'action_id'], 'an action id') : g.event_id
  if (!isAction && typeof key !== 'string') fail([...at, 'event_id'], 'expected an event name')
  const count = legacyCount(g.count, [...at, 'count'])
  const criterion: CohortCriterion = {
    type: 'behavioral',
    key,
    event_type: isAction ? 'actions' : 'events',
    value: count > 0 ? 'performed_event_multiple' : 'performed_event',
    time_interval: 'day',
    time_value: countOf(truthy(g.days) ? g.days : 365, [...at, 'days']),
    // PostHog's get_count_operator reads a missing operator as equality.
    operator: g.count_operator ?? 'eq',
    operator_value: count,
  }
  try {
    return parseCriterion(criterion, at)
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error
    // The synthesized criterion's fields stand for the group's own: report those.
    const rename: Readonly<Record<string, string>> = { operator: 'count_operator', operator_value: 'count' }
    throw new ValidationError(
      error.issues.map((i) => ({ path: [...at, ...i.path.slice(at.length).map((p) => (typeof p === 'string' ? (rename[p] ?? p) : p))], message: i.message })),
      { cause: error, context: 'invalid cohort groups' },
    )
  }
}

/** PostHog's `max(0, int(count or 0))`, a `ValueError` read as 0: an integer, digits, or a number truncated. */
function legacyCount(v: unknown, path: Path): number {
  if (!truthy(v)) return 0
  if (typeof v === 'boolean') return 1
  if (typeof v === 'number') return Number.isFinite(v) ? Math.max(0, Math.min(Math.trunc(v), 1_000_000)) : fail(path, 'expected an integer')
  if (typeof v === 'string') return /^\s*[-+]?\d{1,15}\s*$/.test(v) ? Math.max(0, Math.min(Number(v), 1_000_000)) : 0
  return fail(path, 'expected an integer')
}
