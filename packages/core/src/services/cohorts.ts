import type { Kysely, Selectable } from 'kysely'
import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { projectWrites, writeTransaction } from '../db/write-retries.js'
import { NotFoundError, ValidationError } from '../errors.js'
import { changesBetween } from '../insights/changes.js'
import { findProject, userSummaries, type ProjectInfo } from '../insights/rows.js'
import { isRowId } from '../insights/tiles.js'
import type { Actor } from '../model/actor.js'
import { Cohort, CohortFilters, CreateCohortInput, UpdateCohortInput } from '../model/cohort.js'
import { DEFAULT_PAGE_SIZE, PageOptions, type Page } from '../model/page.js'
import type { Person } from '../model/person.js'
import { actorsQueryPeople, parseActorsQuery, type PersonsActorsQuery } from '../query/cohorts/actors-query.js'
import { checkCohortDefinition } from '../query/cohorts/check-cohort.js'
import { addCohortPeople, cohortPersons, countCohort } from '../query/cohorts/cohort-people.js'
import type { CohortsTable, SightlineDatabase } from '../storage.js'
import { nowIso } from '../time/timestamp.js'
import { decodeOrThrow } from '../util/decode.js'
import { recordActivity } from './activity-log.js'

type Db = Kysely<SightlineDatabase>
type CohortRow = Selectable<CohortsTable>

/** The fields compared for the activity log, in PostHog's order. */
const ACTIVITY_FIELDS = ['name', 'description', 'groups', 'filters', 'isStatic', 'deleted'] as const
const NO_CRITERIA: CohortFilters = { properties: { type: 'AND', values: [] } }

function checkActor(actor: Actor | undefined): void {
  if (actor !== undefined && !isRowId(actor.userId)) {
    throw new ValidationError([{ path: ['actor', 'userId'], message: 'expected the id of a user' }], { context: 'invalid actor' })
  }
}

/** The project's cohort (a soft-deleted one too, as PostHog's retrieve), or `NotFoundError`. */
async function findCohort(db: Db, projectId: number, id: number): Promise<CohortRow> {
  if (!isRowId(id)) throw new NotFoundError('cohort', id)
  const row = await db.selectFrom('cohorts').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst()
  if (!row) throw new NotFoundError('cohort', id)
  return row
}

function refuseListForDynamic(isStatic: boolean, input: { distinctIds?: unknown; personIds?: unknown }): void {
  if (isStatic) return
  const field = input.distinctIds !== undefined ? 'distinctIds' : input.personIds !== undefined ? 'personIds' : null
  if (field) throw new ValidationError([{ path: [field], message: 'only a static cohort (isStatic: true) takes a list of persons' }], { context: 'invalid cohort' })
}

/**
 * A create's `query` checked (PostHog's serializer: a static cohort's only,
 * never beside criteria), or null when none is given.
 */
function queryOf(input: CreateCohortInput, isStatic: boolean): PersonsActorsQuery | null {
  if (input.query === undefined || input.query === null) return null
  const refuse = (message: string): never => {
    throw new ValidationError([{ path: ['query'], message }], { context: 'invalid cohort' })
  }
  if (input.filters !== undefined && cohortFiltersHaveCriteria(input.filters)) refuse('Cannot set both query and filters at the same time.')
  if (!isStatic) refuse('Cannot create a dynamic cohort with a query. Set is_static to true.')
  return parseActorsQuery(input.query)
}

/** PostHog's `validated_data.get("filters")` is truthy for any filters sent; the empty criteria Sightline defaults to stand for none. */
const cohortFiltersHaveCriteria = (filters: CohortFilters): boolean => filters.properties.values.length > 0

export function cohortsService(ctx: EngineContext) {
  const write = <T>(projectId: number, what: string, fn: (trx: Db) => Promise<T>) => writeTransaction(ctx, projectWrites(projectId), what, fn)

  /** Rows as `Cohort`s, each with its `count` computed now (no background job: membership is read at query time). */
  const toCohorts = async (db: Db, rows: ReadonlyArray<CohortRow>, counts?: ReadonlyArray<number>): Promise<Cohort[]> => {
    const users = await userSummaries(db, rows.map((r) => r.created_by))
    const now = nowIso(ctx.clock)
    const out: Cohort[] = []
    for (const [i, r] of rows.entries()) {
      const count = counts?.[i] ?? (await countCohort(ctx, r.project_id, r.id))
      out.push(
        decodeOrThrow(
          Cohort,
          {
            id: r.id,
            projectId: r.project_id,
            name: r.name,
            description: r.description,
            groups: r.groups,
            filters: r.filters,
            isStatic: r.is_static,
            count,
            createdAt: r.created_at,
            createdBy: (r.created_by !== null && users.get(r.created_by)) || null,
            lastCalculation: now,
            deleted: r.deleted,
          },
          'stored cohort',
        ),
      )
    }
    return out
  }

  const record = (db: Db, project: ProjectInfo, cohort: Cohort, actor: Actor | undefined, activity: string, changes: ReturnType<typeof changesBetween>) =>
    recordActivity(db, ctx.clock, { organizationId: project.organizationId, projectId: project.id, actor, scope: 'Cohort', itemId: cohort.id, activity, name: cohort.name, changes })

  /** A cohort as it stands after the write, its count left for the read that follows the transaction. */
  const snapshot = (db: Db, row: CohortRow) => toCohorts(db, [row], [0]).then((c) => c[0]!)

  /** The cohort (a soft-deleted one too) with its `count`, or `NotFoundError`. */
  const get = async (projectId: number, id: number): Promise<Cohort> => {
    ctx.assertOpen()
    return runStorage('get cohort', async () => {
      const project = await findProject(ctx.db, projectId)
      return (await toCohorts(ctx.db, [await findCohort(ctx.db, project.id, id)]))[0]!
    })
  }

  return {
    /** The project's cohorts that are not deleted, newest first, each with its `count`. */
    async list(projectId: number, page: PageOptions = {}): Promise<Page<Cohort>> {
      ctx.assertOpen()
      const { limit = DEFAULT_PAGE_SIZE, offset = 0 } = decodeOrThrow(PageOptions, page, 'invalid page')
      return runStorage('list cohorts', async () => {
        const project = await findProject(ctx.db, projectId)
        const query = ctx.db.selectFrom('cohorts').where('project_id', '=', project.id).where('deleted', '=', false)
        const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
        const rows = await query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute()
        return { count: Number(total.n), results: await toCohorts(ctx.db, rows) }
      })
    },

    get,

    /**
     * Creates a cohort: static (`isStatic`, persons from `distinctIds` and
     * `personIds`) or dynamic (`filters`). `ValidationError` at the failing
     * path for criteria no query could evaluate, unknown cohorts or actions,
     * and references that loop.
     */
    async create(projectId: number, input: CreateCohortInput, actor?: Actor): Promise<Cohort> {
      ctx.assertOpen()
      const c = decodeOrThrow(CreateCohortInput, input, 'invalid cohort')
      checkActor(actor)
      const isStatic = c.isStatic ?? false
      refuseListForDynamic(isStatic, c)
      const fromQuery = queryOf(c, isStatic)
      const filters = c.filters ?? NO_CRITERIA
      const id = await write(projectId, 'create cohort', async (trx) => {
        const project = await findProject(trx, projectId)
        await checkCohortDefinition({ ...ctx, db: trx }, project.id, 0, isStatic, filters, c.groups ?? [])
        const row = await trx
          .insertInto('cohorts')
          .values({
            project_id: project.id,
            name: c.name ?? null,
            description: c.description ?? '',
            groups: JSON.stringify(c.groups ?? []),
            filters: JSON.stringify(filters),
            is_static: isStatic,
            deleted: false,
            created_at: nowIso(ctx.clock),
            created_by: actor?.userId ?? null,
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        const listed = fromQuery ? await actorsQueryPeople(ctx, trx, project.id, fromQuery) : []
        if (isStatic) await addCohortPeople(trx, project.id, row.id, c.distinctIds ?? [], [...(c.personIds ?? []), ...listed])
        await record(trx, project, await snapshot(trx, row), actor, 'created', [])
        return row.id
      })
      return get(projectId, id)
    },

    /**
     * Changes a cohort (a soft-deleted one too). Listed persons are added to a
     * static cohort. `deleted: true` soft-deletes it, `false` restores it.
     * Checked as `create` checks, loops through this cohort included.
     */
    async update(projectId: number, id: number, input: UpdateCohortInput, actor?: Actor): Promise<Cohort> {
      ctx.assertOpen()
      const patch = decodeOrThrow(UpdateCohortInput, input, 'invalid cohort')
      checkActor(actor)
      await write(projectId, 'update cohort', async (trx) => {
        const project = await findProject(trx, projectId)
        const row = await findCohort(trx, project.id, id)
        const isStatic = patch.isStatic ?? row.is_static
        refuseListForDynamic(isStatic, patch)
        if (patch.query !== undefined && patch.query !== null) {
          throw new ValidationError([{ path: ['query'], message: "a cohort's query is run once, when the cohort is created; add persons with distinctIds or personIds" }], { context: 'invalid cohort' })
        }
        const filters = patch.filters ?? decodeOrThrow(CohortFilters, row.filters, 'stored cohort')
        const groups = patch.groups ?? decodeOrThrow(Cohort.fields.groups, row.groups, 'stored cohort')
        if (patch.filters !== undefined || patch.groups !== undefined || patch.isStatic !== undefined) {
          await checkCohortDefinition({ ...ctx, db: trx }, project.id, row.id, isStatic, filters, groups)
        }
        const before = await snapshot(trx, row)
        await trx
          .updateTable('cohorts')
          .set({
            ...(patch.name !== undefined && { name: patch.name }),
            ...(patch.description !== undefined && { description: patch.description }),
            ...(patch.groups !== undefined && { groups: JSON.stringify(patch.groups) }),
            ...(patch.filters !== undefined && { filters: JSON.stringify(patch.filters) }),
            is_static: isStatic,
            deleted: patch.deleted ?? row.deleted,
          })
          .where('id', '=', row.id)
          .execute()
        if (isStatic) await addCohortPeople(trx, project.id, row.id, patch.distinctIds ?? [], patch.personIds ?? [])
        const after = await snapshot(trx, await findCohort(trx, project.id, row.id))
        const changes = changesBetween('Cohort', before, after, ACTIVITY_FIELDS)
        const activity = !before.deleted && after.deleted ? 'deleted' : 'updated'
        if (changes.length > 0) await record(trx, project, after, actor, activity, changes)
      })
      return get(projectId, id)
    },

    /** One page of the cohort's persons (PostHog's `/cohorts/:id/persons/`), newest first. */
    async persons(projectId: number, id: number, page: PageOptions = {}): Promise<Page<Person>> {
      ctx.assertOpen()
      const { limit = DEFAULT_PAGE_SIZE, offset = 0 } = decodeOrThrow(PageOptions, page, 'invalid page')
      return runStorage('list cohort persons', async () => {
        const project = await findProject(ctx.db, projectId)
        const row = await findCohort(ctx.db, project.id, id)
        return { count: await countCohort(ctx, project.id, row.id), results: await cohortPersons(ctx, project.id, row.id, limit, offset) }
      })
    },
  }
}

export type CohortsService = ReturnType<typeof cohortsService>
