import { randomBytes, randomUUID } from 'node:crypto'
import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { NotFoundError } from '../errors.js'
import { CreateProjectInput, Project, UpdateProjectInput } from '../model/project.js'
import type { ProjectsTable } from '../storage.js'
import type { Selectable } from 'kysely'
import { nowIso } from '../time/timestamp.js'
import { decodeOrThrow } from '../util/decode.js'
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
    /** Creates a project in an existing organization, with a new capture token. */
    async create(input: CreateProjectInput): Promise<Project> {
      ctx.assertOpen()
      const p = decodeOrThrow(CreateProjectInput, input, 'invalid project')
      const org = await runStorage('find organization', () =>
        ctx.db.selectFrom('organizations').select('id').where('id', '=', p.organizationId).executeTakeFirst(),
      )
      if (!org) throw new NotFoundError('organization', p.organizationId)
      const now = nowIso(ctx.clock)
      const row = await runStorage('create project', () =>
        ctx.db
          .insertInto('projects')
          .values({
            uuid: randomUUID(),
            organization_id: p.organizationId,
            name: p.name,
            api_token: newApiToken(),
            timezone: p.timezone ?? 'UTC',
            week_start_day: p.weekStartDay ?? 0,
            test_account_filters: JSON.stringify(p.testAccountFilters ?? []),
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      )
      return fromRow(row)
    },

    /** The project, or `NotFoundError`. */
    get,

    /** The project whose capture token this is, or null. */
    async getByApiToken(token: string): Promise<Project | null> {
      ctx.assertOpen()
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

    /** Changes name, timezone, week start or test account filters. */
    async update(id: number, input: UpdateProjectInput): Promise<Project> {
      const patch = decodeOrThrow(UpdateProjectInput, input, 'invalid project update')
      await get(id)
      await runStorage('update project', () =>
        ctx.db
          .updateTable('projects')
          .set({
            ...(patch.name !== undefined && { name: patch.name }),
            ...(patch.timezone !== undefined && { timezone: patch.timezone }),
            ...(patch.weekStartDay !== undefined && { week_start_day: patch.weekStartDay }),
            ...(patch.testAccountFilters !== undefined && { test_account_filters: JSON.stringify(patch.testAccountFilters) }),
            updated_at: nowIso(ctx.clock),
          })
          .where('id', '=', id)
          .execute(),
      )
      return get(id)
    },

    /** Replaces the capture token; the old one stops working at once. */
    async resetApiToken(id: number): Promise<Project> {
      await get(id)
      await runStorage('reset project token', () =>
        ctx.db.updateTable('projects').set({ api_token: newApiToken(), updated_at: nowIso(ctx.clock) }).where('id', '=', id).execute(),
      )
      return get(id)
    },
  }
}

export type ProjectsService = ReturnType<typeof projectsService>
