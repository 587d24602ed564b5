import { sql, type Kysely, type Selectable } from 'kysely'
import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { projectWrites, writeTransaction } from '../db/write-retries.js'
import { ConflictError, NotFoundError, ValidationError } from '../errors.js'
import { changesBetween } from '../insights/changes.js'
import { findProject, userSummaries, type ProjectInfo } from '../insights/rows.js'
import { isRowId } from '../insights/tiles.js'
import { Action, ActionStep, CreateActionInput, normalizeStep, UpdateActionInput, type ActionStepInput } from '../model/action.js'
import type { Actor } from '../model/actor.js'
import { DEFAULT_PAGE_SIZE, PageOptions, type Page } from '../model/page.js'
import { compileActionCondition, type ActionSources } from '../query/actions/compile-action.js'
import { cohortIdsIn } from '../query/cohorts/cohort-ids.js'
import type { ActionsTable, SightlineDatabase, SqlHooks } from '../storage.js'
import { nowIso } from '../time/timestamp.js'
import { decodeOrThrow } from '../util/decode.js'
import { recordActivity } from './activity-log.js'

type Db = Kysely<SightlineDatabase>
type ActionRow = Selectable<ActionsTable>

/** The fields PostHog's activity log compares for an action, in its order. */
const ACTIVITY_FIELDS = ['name', 'description', 'tags', 'postToSlack', 'slackMessageFormat', 'steps', 'deleted', 'pinnedAt'] as const

const normalizeTags = (tags: ReadonlyArray<string>) => [...new Set(tags.map((t) => t.trim().toLowerCase()))]

function checkActor(actor: Actor | undefined): void {
  if (actor !== undefined && !isRowId(actor.userId)) {
    throw new ValidationError([{ path: ['actor', 'userId'], message: 'expected the id of a user' }], { context: 'invalid actor' })
  }
}

/** The project's action (a soft-deleted one too, as PostHog's retrieve), or `NotFoundError`. */
async function findAction(db: Db, projectId: number, id: number): Promise<ActionRow> {
  if (!isRowId(id)) throw new NotFoundError('action', id)
  const row = await db.selectFrom('actions').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst()
  if (!row) throw new NotFoundError('action', id)
  return row
}

async function toActions(db: Db, rows: ReadonlyArray<ActionRow>): Promise<Action[]> {
  const users = await userSummaries(db, rows.map((r) => r.created_by))
  return rows.map((r) =>
    decodeOrThrow(
      Action,
      {
        id: r.id,
        projectId: r.project_id,
        name: r.name,
        description: r.description,
        tags: r.tags,
        postToSlack: r.post_to_slack,
        slackMessageFormat: r.slack_message_format,
        steps: r.steps,
        createdAt: r.created_at,
        createdBy: (r.created_by !== null && users.get(r.created_by)) || null,
        deleted: r.deleted,
        lastCalculatedAt: r.last_calculated_at,
        pinnedAt: r.pinned_at,
      },
      'stored action',
    ),
  )
}

/**
 * Compiles the steps once, without running them, so what a query could not
 * compile (a bad regex or selector, an unknown cohort) is refused when the
 * action is saved, at `steps[i]...`. HogQL filters are checked when a query
 * compiles them.
 */
async function checkSteps(db: Db, hooks: SqlHooks, projectId: number, steps: ReadonlyArray<ActionStep>): Promise<void> {
  const ids = steps.flatMap((s) => (s.properties ? cohortIdsIn(s.properties) : []))
  const known = new Set(
    ids.length === 0 ? [] : (await db.selectFrom('cohorts').select('id').where('project_id', '=', projectId).where('id', 'in', ids).execute()).map((r) => r.id),
  )
  const ref = (name: string) => sql.ref(name)
  const sources: ActionSources = {
    event: ref('properties'),
    person: ref('person_properties'),
    groups: { 0: ref('g0'), 1: ref('g1'), 2: ref('g2'), 3: ref('g3'), 4: ref('g4') },
    elementsChain: sql.ref('elements_chain'),
    eventName: sql.ref('event'),
    cohort: (id, path) => {
      if (!known.has(id)) throw new ValidationError([{ path: [...path, 'value'], message: `Cohort ${id} does not exist in this project` }])
      return sql`true`
    },
    hogql: () => sql`true`,
    hooks,
  }
  compileActionCondition({ id: 0, name: null, steps }, sources)
}

/** PostHog's `pinned_at`: any value pins now (a pinned action keeps its time), null or '' unpins. */
const pinned = (given: string | null | undefined, current: string | null, now: string): string | null | undefined =>
  given === undefined ? undefined : given === null || given === '' ? null : current ?? now

export function actionsService(ctx: EngineContext) {
  const write = <T>(projectId: number, what: string, fn: (trx: Db) => Promise<T>) => writeTransaction(ctx, projectWrites(projectId), what, fn)

  const record = (db: Db, project: ProjectInfo, action: Action, actor: Actor | undefined, activity: string, changes: ReturnType<typeof changesBetween>) =>
    recordActivity(db, ctx.clock, { organizationId: project.organizationId, projectId: project.id, actor, scope: 'Action', itemId: action.id, activity, name: action.name, changes })

  /** PostHog's rule: a name is unique among the project's actions that are not deleted. */
  const checkName = async (db: Db, projectId: number, name: string | null, except: number | null) => {
    let query = db.selectFrom('actions').select('id').where('project_id', '=', projectId).where('deleted', '=', false)
    query = name === null ? query.where('name', 'is', null) : query.where('name', '=', name)
    if (except !== null) query = query.where('id', '<>', except)
    const other = await query.orderBy('id').executeTakeFirst()
    if (other) throw new ConflictError(`This project already has an action with this name, ID ${other.id}`, 'name')
  }

  const steps = async (db: Db, projectId: number, input: ReadonlyArray<ActionStepInput>) => {
    const normalized = input.map(normalizeStep)
    await checkSteps(db, ctx.adapter.sql, projectId, normalized)
    return normalized
  }

  return {
    /** The project's actions that are not deleted: newest first (PostHog's `-last_calculated_at`), then by name. */
    async list(projectId: number, page: PageOptions = {}): Promise<Page<Action>> {
      ctx.assertOpen()
      const { limit = DEFAULT_PAGE_SIZE, offset = 0 } = decodeOrThrow(PageOptions, page, 'invalid page')
      return runStorage('list actions', async () => {
        const project = await findProject(ctx.db, projectId)
        const query = ctx.db.selectFrom('actions').where('project_id', '=', project.id).where('deleted', '=', false)
        const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
        const rows = await query.selectAll().orderBy('last_calculated_at', 'desc').orderBy('name').orderBy('id').limit(limit).offset(offset).execute()
        return { count: Number(total.n), results: await toActions(ctx.db, rows) }
      })
    },

    /** The action, soft-deleted or not (as PostHog's retrieve), or `NotFoundError`. */
    async get(projectId: number, id: number): Promise<Action> {
      ctx.assertOpen()
      return runStorage('get action', async () => {
        const project = await findProject(ctx.db, projectId)
        return (await toActions(ctx.db, [await findAction(ctx.db, project.id, id)]))[0]!
      })
    },

    /**
     * Creates an action. `ConflictError` (attr `name`) when an action of the
     * project that is not deleted has the name; `ValidationError` at
     * `steps[i]...` for steps no query could compile.
     */
    async create(projectId: number, input: CreateActionInput, actor?: Actor): Promise<Action> {
      ctx.assertOpen()
      const a = decodeOrThrow(CreateActionInput, input, 'invalid action')
      checkActor(actor)
      return write(projectId, 'create action', async (trx) => {
        const project = await findProject(trx, projectId)
        const checked = await steps(trx, project.id, a.steps ?? [])
        await checkName(trx, project.id, a.name, null)
        const now = nowIso(ctx.clock)
        const row = await trx
          .insertInto('actions')
          .values({
            project_id: project.id,
            name: a.name,
            description: a.description ?? '',
            tags: JSON.stringify(normalizeTags(a.tags ?? [])),
            post_to_slack: a.postToSlack ?? false,
            slack_message_format: a.slackMessageFormat ?? '',
            steps: JSON.stringify(checked),
            deleted: false,
            created_at: now,
            created_by: actor?.userId ?? null,
            updated_at: now,
            last_calculated_at: now,
            pinned_at: pinned(a.pinnedAt, null, now) ?? null,
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        const [action] = await toActions(trx, [row])
        await record(trx, project, action!, actor, 'created', [])
        return action!
      })
    },

    /**
     * Changes an action (a soft-deleted one too); `steps` replaces every step;
     * `deleted: true` soft-deletes it (activity `deleted`), `false` restores it.
     * The name rule of `create` applies to the result when it is not deleted.
     */
    async update(projectId: number, id: number, input: UpdateActionInput, actor?: Actor): Promise<Action> {
      ctx.assertOpen()
      const patch = decodeOrThrow(UpdateActionInput, input, 'invalid action')
      checkActor(actor)
      return write(projectId, 'update action', async (trx) => {
        const project = await findProject(trx, projectId)
        const row = await findAction(trx, project.id, id)
        const [before] = await toActions(trx, [row])
        const checked = patch.steps === undefined ? undefined : await steps(trx, project.id, patch.steps)
        const name = patch.name ?? row.name
        const deleted = patch.deleted ?? row.deleted
        if (!deleted && (name !== row.name || row.deleted)) await checkName(trx, project.id, name, row.id)
        const now = nowIso(ctx.clock)
        const pinnedAt = pinned(patch.pinnedAt, row.pinned_at, now)
        await trx
          .updateTable('actions')
          .set({
            name,
            deleted,
            updated_at: now,
            ...(patch.description !== undefined && { description: patch.description }),
            ...(patch.tags !== undefined && { tags: JSON.stringify(normalizeTags(patch.tags)) }),
            ...(patch.postToSlack !== undefined && { post_to_slack: patch.postToSlack }),
            ...(patch.slackMessageFormat !== undefined && { slack_message_format: patch.slackMessageFormat }),
            ...(checked !== undefined && { steps: JSON.stringify(checked) }),
            ...(pinnedAt !== undefined && { pinned_at: pinnedAt }),
          })
          .where('id', '=', row.id)
          .execute()
        const [after] = await toActions(trx, [await findAction(trx, project.id, row.id)])
        const changes = changesBetween('Action', before!, after!, ACTIVITY_FIELDS)
        const activity = !before!.deleted && after!.deleted ? 'deleted' : 'updated'
        if (changes.length > 0) await record(trx, project, after!, actor, activity, changes)
        return after!
      })
    },
  }
}

export type ActionsService = ReturnType<typeof actionsService>
