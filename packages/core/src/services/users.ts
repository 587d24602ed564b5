import { randomUUID } from 'node:crypto'
import type { Selectable } from 'kysely'
import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { GLOBAL_WRITES, writeTransaction } from '../db/write-retries.js'
import { ConflictError, NotFoundError } from '../errors.js'
import { CreateUserInput, User } from '../model/user.js'
import type { UsersTable } from '../storage.js'
import { nowIso } from '../time/timestamp.js'
import { decodeOrThrow } from '../util/decode.js'
import { uuidv7 } from '../util/uuid.js'

/** Decodes a stored user row. */
export const userFromRow = (row: Selectable<UsersTable>): User =>
  decodeOrThrow(
    User,
    {
      id: row.id,
      uuid: row.uuid,
      distinctId: row.distinct_id,
      email: row.email,
      firstName: row.first_name,
      lastName: row.last_name,
      isEmailVerified: row.is_email_verified,
      createdAt: row.created_at,
    },
    'stored user',
  )

/** PostHog's membership level for a plain member. */
const MEMBER = 1

export function usersService(ctx: EngineContext) {
  const get = async (id: number): Promise<User> => {
    ctx.assertOpen()
    if (!Number.isSafeInteger(id)) throw new NotFoundError('user', id)
    const row = await runStorage('get user', () => ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst())
    if (!row) throw new NotFoundError('user', id)
    return userFromRow(row)
  }

  return {
    /** Creates a user (e-mails are unique, compared case-insensitively) and adds it to organizations. */
    async create(input: CreateUserInput): Promise<User> {
      ctx.assertOpen()
      const u = decodeOrThrow(CreateUserInput, input, 'invalid user')
      const email = u.email.toLowerCase()
      const now = nowIso(ctx.clock)
      return writeTransaction(ctx, GLOBAL_WRITES, 'create user', async (trx) => {
        const taken = await trx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()
        if (taken) throw new ConflictError(`a user with e-mail ${email} already exists`, 'email')
        for (const orgId of u.organizationIds ?? []) {
          const org = await trx.selectFrom('organizations').select('id').where('id', '=', orgId).executeTakeFirst()
          if (!org) throw new NotFoundError('organization', orgId)
        }
        const row = await trx
          .insertInto('users')
          .values({
            uuid: randomUUID(),
            distinct_id: uuidv7(),
            email,
            first_name: u.firstName,
            last_name: u.lastName ?? '',
            is_email_verified: u.isEmailVerified ?? false,
            created_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        for (const orgId of new Set(u.organizationIds ?? [])) {
          await trx.insertInto('organization_memberships').values({ organization_id: orgId, user_id: row.id, level: MEMBER, joined_at: now }).execute()
        }
        return userFromRow(row)
      })
    },

    /** The user, or `NotFoundError`. */
    get,

    /** Ids of the organizations the user belongs to. */
    async organizationIds(userId: number): Promise<string[]> {
      ctx.assertOpen()
      const rows = await runStorage('list memberships', () =>
        ctx.db.selectFrom('organization_memberships').select('organization_id').where('user_id', '=', userId).orderBy('joined_at').execute(),
      )
      return rows.map((r) => r.organization_id)
    },
  }
}

export type UsersService = ReturnType<typeof usersService>
