import { randomUUID } from 'node:crypto'
import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { NotFoundError } from '../errors.js'
import { CreateOrganizationInput, Organization } from '../model/organization.js'
import { nowIso } from '../time/timestamp.js'
import { decodeOrThrow } from '../util/decode.js'
import { isUuid } from '../util/uuid.js'
import type { Actor } from '../model/actor.js'
import { recordActivity } from './activity-log.js'

const fromRow = (row: { id: string; name: string; created_at: string }): Organization =>
  decodeOrThrow(Organization, { id: row.id, name: row.name, createdAt: row.created_at }, 'stored organization')

export function organizationsService(ctx: EngineContext) {
  return {
    /** Creates an organization; logged as activity. */
    async create(input: CreateOrganizationInput, actor?: Actor): Promise<Organization> {
      ctx.assertOpen()
      const { name } = decodeOrThrow(CreateOrganizationInput, input, 'invalid organization')
      const row = { id: randomUUID(), name, created_at: nowIso(ctx.clock) }
      await runStorage('create organization', () =>
        ctx.db.transaction().execute(async (trx) => {
          await trx.insertInto('organizations').values(row).execute()
          await recordActivity(trx, ctx.clock, { organizationId: row.id, projectId: null, actor, scope: 'Organization', itemId: row.id, activity: 'created', name })
        }),
      )
      return fromRow(row)
    },

    /** The organization, or `NotFoundError`. */
    async get(id: string): Promise<Organization> {
      ctx.assertOpen()
      // A malformed id names nothing; asking the database would only raise a cast error.
      if (!isUuid(id)) throw new NotFoundError('organization', id)
      const row = await runStorage('get organization', () =>
        ctx.db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst(),
      )
      if (!row) throw new NotFoundError('organization', id)
      return fromRow(row)
    },

    /** All organizations, or those the user belongs to, oldest first. */
    async list(options: { userId?: number } = {}): Promise<Organization[]> {
      ctx.assertOpen()
      let query = ctx.db.selectFrom('organizations').selectAll('organizations').orderBy('organizations.created_at').orderBy('organizations.id')
      if (options.userId !== undefined) {
        const userId = options.userId
        query = query.where('organizations.id', 'in', (eb) =>
          eb.selectFrom('organization_memberships').select('organization_id').where('user_id', '=', userId),
        )
      }
      const rows = await runStorage('list organizations', () => query.execute())
      return rows.map(fromRow)
    },
  }
}

export type OrganizationsService = ReturnType<typeof organizationsService>
