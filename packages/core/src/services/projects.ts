import { randomBytes, randomUUID } from 'node:crypto'
import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { organizationWrites, projectWrites, writeTransaction } from '../db/write-retries.js'
import { NotFoundError } from '../errors.js'
import { CreateProjectInput, Project, UpdateProjectInput } from '../model/project.js'
import type { ProjectsTable } from '../storage.js'
import type { Selectable, Updateable } from 'kysely'
import { nowIso } from '../time/timestamp.js'
import { decodeOrThrow } from '../util/decode.js'
import type { Actor } from '../model/actor.js'
import { diffFields, recordActivity } from './activity-log.js'
import { isUuid } from '../util/uuid.js'

const fromRow = (row: Selectable<ProjectsTable>): Project =>
  decodeOrThrow(
    Project,
    {
      id: row.id,
      uuid: row.uuid,
      organizationId: row.organization_id,
      name: row.name,
      apiToken: row.api_token,
      timezone: row.timezone,
      weekStartDay: row.week_start_day,
      testAccountFilters: row.test_account_filters,
      pathCleaningFilters: row.path_cleaning_filters ?? [],
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    },
    'stored project',
  )

/** PostHog's project token form: `phc_` and 43 url-safe characters. Public: it only allows capture. */
const newApiToken = () => `phc_${randomBytes(32).toString('base64url')}`

export function projectsService(ctx: EngineContext) {
  const get = async (id: number): Promise<Project> => {
    ctx.assertOpen()
    if (!Number.isSafeInteger(id)) throw new NotFoundError('project', id)
    const row = await runStorage('get project', () => ctx.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst())
    if (!row) throw new NotFoundError('project', id)
    return fromRow(row)
  }

  return {
    /** Creates a project in an existing organization, with a new capture token; logged as activity. */
    async create(input: CreateProjectInput, actor?: Actor): Promise<Project> {
      ctx.assertOpen()
      const p = decodeOrThrow(CreateProjectInput, input, 'invalid project')
      const now = nowIso(ctx.clock)
      return writeTransaction(ctx, organizationWrites(p.organizationId), 'create project', async (trx) => {
        const org = await trx.selectFrom('organizations').select('id').where('id', '=', p.organizationId).executeTakeFirst()
        if (!org) throw new NotFoundError('organization', p.organizationId)
        const row = await trx
          .insertInto('projects')
          .values({
            uuid: randomUUID(),
            organization_id: p.organizationId,
            name: p.name,
            api_token: newApiToken(),
            timezone: p.timezone ?? 'UTC',
            week_start_day: p.weekStartDay ?? 0,
            test_account_filters: JSON.stringify(p.testAccountFilters ?? []),
            path_cleaning_filters: JSON.stringify(p.pathCleaningFilters ?? []),
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        await recordActivity(trx, ctx.clock, {
          organizationId: row.organization_id,
          projectId: row.id,
          actor,
          scope: 'Project',
          itemId: row.id,
          activity: 'created',
          name: row.name,
        })
        return fromRow(row)
      })
    },

    /** The project, or `NotFoundError`. */
    get,

    /** The project whose capture token this is, or null. */
    async getByApiToken(token: string): Promise<Project | null> {
      ctx.assertOpen()
      // Tokens are url-safe ASCII: anything else names no project (and some text Postgres cannot even compare).
      if (!/^[A-Za-z0-9_-]{1,200}$/.test(token)) return null
      const row = await runStorage('find project by token', () =>
        ctx.db.selectFrom('projects').selectAll().where('api_token', '=', token).executeTakeFirst(),
      )
      return row ? fromRow(row) : null
    },

    /** Projects, oldest first; of one organization when given. */
    async list(options: { organizationId?: string } = {}): Promise<Project[]> {
      ctx.assertOpen()
      if (options.organizationId !== undefined && !isUuid(options.organizationId)) return []
      let query = ctx.db.selectFrom('projects').selectAll().orderBy('id')
      if (options.organizationId !== undefined) query = query.where('organization_id', '=', options.organizationId)
      return (await runStorage('list projects', () => query.execute())).map(fromRow)
    },

    /** Changes name, timezone, week start, test account filters or path cleaning rules; logged field by field. */
    async update(id: number, input: UpdateProjectInput, actor?: Actor): Promise<Project> {
      const patch = decodeOrThrow(UpdateProjectInput, input, 'invalid project update')
      return writeProject(id, 'updated', actor, {
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.timezone !== undefined && { timezone: patch.timezone }),
        ...(patch.weekStartDay !== undefined && { week_start_day: patch.weekStartDay }),
        ...(patch.testAccountFilters !== undefined && { test_account_filters: JSON.stringify(patch.testAccountFilters) }),
        ...(patch.pathCleaningFilters !== undefined && { path_cleaning_filters: JSON.stringify(patch.pathCleaningFilters) }),
      })
    },

    /** Replaces the capture token; the old one stops working at once. Logged without the tokens. */
    async resetApiToken(id: number, actor?: Actor): Promise<Project> {
      return writeProject(id, 'api_token_reset', actor, { api_token: newApiToken() })
    },
  }

  /** Updates a project and logs the fields that changed (never the token's value), in one transaction. */
  async function writeProject(id: number, activity: string, actor: Actor | undefined, set: Updateable<Pick<ProjectsTable, 'name' | 'timezone' | 'week_start_day' | 'test_account_filters' | 'path_cleaning_filters' | 'api_token'>>): Promise<Project> {
    ctx.assertOpen()
    if (!Number.isSafeInteger(id)) throw new NotFoundError('project', id)
    return writeTransaction(ctx, projectWrites(id), 'update project', async (trx) => {
      const beforeRow = await trx.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst()
      if (!beforeRow) throw new NotFoundError('project', id)
      await trx.updateTable('projects').set({ ...set, updated_at: nowIso(ctx.clock) }).where('id', '=', id).execute()
      const after = fromRow((await trx.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst())!)
      const before = fromRow(beforeRow)
      const changes = diffFields('Project', before as never, after as never, ['name', 'timezone', 'weekStartDay', 'testAccountFilters', 'pathCleaningFilters']).concat(
        before.apiToken !== after.apiToken ? [{ type: 'Project', action: 'changed' as const, field: 'apiToken' }] : [],
      )
      if (changes.length > 0) {
        await recordActivity(trx, ctx.clock, { organizationId: after.organizationId, projectId: id, actor, scope: 'Project', itemId: id, activity, name: after.name, changes })
      }
      return after
    })
  }
}

export type ProjectsService = ReturnType<typeof projectsService>
