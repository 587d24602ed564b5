import { Schema } from 'effect'
import type { EngineContext } from '../../context.js'
import { runStorage } from '../../db/run.js'
import { ValidationError } from '../../errors.js'
import type { ActionDefinition } from '../../model/action.js'
import { CohortFilters } from '../../model/cohort.js'
import { JsonObject } from '../../model/insight.js'
import { decodeOrThrow } from '../../util/decode.js'
import { readActions } from '../actions/load-actions.js'
import type { WeekStartDay } from '../dates/interval.js'
import { criteriaReferences, type CohortNode } from './cohort-criteria.js'
import { definitionCriteria } from './legacy-groups.js'
import { cohortIdsIn } from './cohort-ids.js'

/** What a query needs of a cohort. */
export interface CohortDefinition {
  readonly id: number
  readonly name: string | null
  readonly isStatic: boolean
  /** The criteria of a dynamic cohort; null for a static one (its persons are stored). */
  readonly criteria: CohortNode | null
}

/** The cohorts a query reads, those they name in turn, and the actions their criteria name. */
export interface CohortCatalog {
  readonly projectId: number
  /** The project's zone and week start, which explicit datetimes of behavioral criteria are read in. */
  readonly timeZone: string
  readonly weekStartDay: WeekStartDay
  readonly cohorts: ReadonlyMap<number, CohortDefinition>
  readonly actions: ReadonlyMap<number, ActionDefinition>
}

const MAX_ID = 2_147_483_647
export const LOOP_MESSAGE = 'Cohorts cannot reference other cohorts in a loop.'

/**
 * The project's cohorts with these ids and, transitively, every cohort and
 * action their criteria name (soft-deleted ones too: a cohort keeps
 * evaluating what it named, as PostHog's). Ids of no cohort of the project
 * are left out of the catalog; `cohortFilterSource` refuses them with the
 * filter's path. Throws `ValidationError` when the cohorts reference each
 * other in a loop.
 */
export function loadCohorts(ctx: EngineContext, projectId: number, ids: ReadonlyArray<number>, zone?: ProjectZone): Promise<CohortCatalog> {
  return buildCatalog(ctx, projectId, ids, new Map(), ['properties'], zone)
}

/**
 * `loadCohorts` of every cohort of the project that is not deleted, read in
 * one statement with their definitions (an analysis loads them all: cohorts
 * are few, and it spares a walk of its filters).
 */
export async function loadLiveCohorts(ctx: EngineContext, projectId: number, zone?: ProjectZone): Promise<CohortCatalog> {
  const live = await readCohorts(ctx, projectId, 'live')
  return buildCatalog(ctx, projectId, live.map((d) => d.id), new Map(), ['properties'], zone, live)
}

/** The project's time zone and week start, when the caller has read them already (spares a read per analysis). */
export interface ProjectZone {
  readonly timeZone: string
  readonly weekStartDay: 0 | 1
}

/**
 * `loadCohorts`, with `overrides` read instead of what is stored (a cohort
 * being saved), and loops reported at `loopPath`.
 */
export async function buildCatalog(
  ctx: EngineContext,
  projectId: number,
  ids: ReadonlyArray<number>,
  overrides: ReadonlyMap<number, CohortDefinition>,
  loopPath: ReadonlyArray<string | number>,
  zone?: ProjectZone,
  /** Definitions of `ids` already read: the first round reads nothing. */
  preloaded?: ReadonlyArray<CohortDefinition>,
): Promise<CohortCatalog> {
  const cohorts = new Map(overrides)
  const actions = new Map<number, ActionDefinition>()
  const tried = new Set<number>(overrides.keys())
  let pending = [...new Set(ids)]
  for (const def of overrides.values()) pending.push(...dependencies(def, actions))
  let read = preloaded
  while (pending.length > 0) {
    const batch = [...new Set(pending)].filter((id) => !tried.has(id))
    batch.forEach((id) => tried.add(id))
    pending = []
    for (const def of read ?? (await readCohorts(ctx, projectId, batch))) cohorts.set(def.id, def)
    read = undefined
    const loaded = batch.map((id) => cohorts.get(id)).filter((d): d is CohortDefinition => d !== undefined)
    const actionIds = loaded.flatMap((d) => (d.criteria ? criteriaReferences(d.criteria).actions : []))
    const overridden = [...overrides.values()].flatMap((d) => (d.criteria ? criteriaReferences(d.criteria).actions : []))
    const newActions = [...new Set([...actionIds, ...overridden])].filter((id) => !actions.has(id))
    for (const [id, action] of await readActions(ctx, projectId, newActions, { includeDeleted: true })) actions.set(id, action)
    for (const def of cohorts.values()) pending.push(...dependencies(def, actions).filter((id) => !tried.has(id)))
  }
  checkLoops([...overrides.keys(), ...ids], cohorts, actions, loopPath)
  if (zone) return { projectId, ...zone, cohorts, actions }
  const project = Number.isSafeInteger(projectId)
    ? await runStorage('read project zone', () => ctx.db.selectFrom('projects').select(['timezone', 'week_start_day']).where('id', '=', projectId).executeTakeFirst())
    : undefined
  return { projectId, timeZone: project?.timezone ?? 'UTC', weekStartDay: project?.week_start_day === 1 ? 1 : 0, cohorts, actions }
}

/** The project's cohorts of `ids` (deleted ones included), or `'live'`: all those not deleted. */
async function readCohorts(ctx: EngineContext, projectId: number, ids: ReadonlyArray<number> | 'live'): Promise<CohortDefinition[]> {
  const wanted = ids === 'live' ? ids : ids.filter((id) => Number.isInteger(id) && id >= 1 && id <= MAX_ID)
  if (wanted.length === 0 || !Number.isSafeInteger(projectId)) return []
  const rows = await runStorage('read cohorts', () => {
    const query = ctx.db.selectFrom('cohorts').select(['id', 'name', 'is_static', 'filters', 'groups']).where('project_id', '=', projectId)
    return (wanted === 'live' ? query.where('deleted', '=', false) : query.where('id', 'in', wanted)).execute()
  })
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    isStatic: r.is_static,
    criteria: r.is_static
      ? null
      : definitionCriteria(decodeOrThrow(CohortFilters, r.filters, `stored cohort ${r.id}`, ['filters']), decodeOrThrow(Schema.Array(JsonObject), r.groups, `stored cohort ${r.id}`, ['groups'])),
  }))
}

/** The cohorts a cohort's membership reads: those its criteria name, and those named by the filters of the actions they name. */
export function dependencies(def: CohortDefinition, actions: ReadonlyMap<number, ActionDefinition>): number[] {
  if (!def.criteria) return []
  const refs = criteriaReferences(def.criteria)
  const viaActions = refs.actions.flatMap((id) => (actions.get(id)?.steps ?? []).flatMap((s) => (s.properties ? cohortIdsIn(s.properties) : [])))
  return [...refs.cohorts, ...viaActions]
}

function checkLoops(
  roots: ReadonlyArray<number>,
  cohorts: ReadonlyMap<number, CohortDefinition>,
  actions: ReadonlyMap<number, ActionDefinition>,
  path: ReadonlyArray<string | number>,
): void {
  const done = new Set<number>()
  const onPath = new Set<number>()
  const visit = (id: number): void => {
    if (done.has(id)) return
    if (onPath.has(id)) throw new ValidationError([{ path, message: LOOP_MESSAGE }], { context: 'invalid cohort' })
    const def = cohorts.get(id)
    if (!def) return
    onPath.add(id)
    for (const next of dependencies(def, actions)) visit(next)
    onPath.delete(id)
    done.add(id)
  }
  roots.forEach(visit)
}
