import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Selectable } from 'kysely'
import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { ConflictError, NotFoundError } from '../errors.js'
import { CreatePersonalApiKeyInput, PersonalApiKey } from '../model/personal-api-key.js'
import type { User } from '../model/user.js'
import type { PersonalApiKeysTable } from '../storage.js'
import { dateToMicros, formatTimestamp, nowIso, parseTimestamp } from '../time/timestamp.js'
import { decodeOrThrow } from '../util/decode.js'
import { uuidv7 } from '../util/uuid.js'
import { userFromRow } from './users.js'

const fromRow = (row: Selectable<PersonalApiKeysTable>): PersonalApiKey =>
  decodeOrThrow(
    PersonalApiKey,
    {
      id: row.id,
      userId: row.user_id,
      label: row.label,
      maskValue: row.mask_value,
      scopes: row.scopes,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
    },
    'stored personal API key',
  )

/**
 * Keys are random (256 bits), so a fast hash is enough: unlike passwords they
 * cannot be guessed from a dictionary. PostHog also stores sha256 of the key.
 */
const hashKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex')

/** PostHog's personal key form: `phx_` and url-safe characters. */
const KEY_PATTERN = /^phx_[A-Za-z0-9_-]{20,100}$/

export function personalApiKeysService(ctx: EngineContext) {
  // Keys whose use is being recorded now: concurrent requests with one key write it once.
  const recording = new Map<string, Promise<void>>()
  const recordUse = (id: string, at: string): Promise<void> => {
    let pending = recording.get(id)
    if (!pending) {
      pending = ctx.db
        .updateTable('personal_api_keys')
        .set({ last_used_at: at })
        .where('id', '=', id)
        .execute()
        .then(
          () => undefined,
          (error: unknown) => {
            // Another process recorded the same key at the same moment (DuckDB refuses the second
            // of two concurrent updates of a row): the use is recorded, the request goes on.
            if (!ctx.driver.isWriteConflict(error)) return runStorage('record key use', () => Promise.reject(error))
          },
        )
        .finally(() => recording.delete(id))
      recording.set(id, pending)
    }
    return pending
  }
  return {
    /** Creates a key. The secret is returned here once and stored only as a hash. */
    async create(input: CreatePersonalApiKeyInput): Promise<{ key: string; apiKey: PersonalApiKey }> {
      ctx.assertOpen()
      const k = decodeOrThrow(CreatePersonalApiKeyInput, input, 'invalid personal API key')
      const user = await runStorage('find user', () => ctx.db.selectFrom('users').select('id').where('id', '=', k.userId).executeTakeFirst())
      if (!user) throw new NotFoundError('user', k.userId)
      const key = k.secret ?? `phx_${randomBytes(32).toString('base64url')}`
      const taken = await runStorage('check key', () => ctx.db.selectFrom('personal_api_keys').select('id').where('secure_value', '=', hashKey(key)).executeTakeFirst())
      if (taken) throw new ConflictError('this secret is already in use', 'secret')
      const row = {
        id: uuidv7(),
        user_id: k.userId,
        label: k.label,
        secure_value: hashKey(key),
        mask_value: `${key.slice(0, 6)}...${key.slice(-4)}`,
        scopes: JSON.stringify(k.scopes && k.scopes.length > 0 ? [...new Set(k.scopes)] : ['*']),
        created_at: nowIso(ctx.clock),
        last_used_at: null,
      }
      await runStorage('create personal API key', () => ctx.db.insertInto('personal_api_keys').values(row).execute())
      return { key, apiKey: fromRow({ ...row, scopes: JSON.parse(row.scopes) }) }
    },

    /**
     * The user and key a secret belongs to, or null for an unknown or malformed
     * secret. Records the time of use.
     */
    async authenticate(secret: string): Promise<{ user: User; apiKey: PersonalApiKey } | null> {
      ctx.assertOpen()
      if (!KEY_PATTERN.test(secret)) return null
      const hash = hashKey(secret)
      const row = await runStorage('authenticate', () =>
        ctx.db.selectFrom('personal_api_keys').selectAll().where('secure_value', '=', hash).executeTakeFirst(),
      )
      // The lookup is by hash; comparing again in constant time costs nothing and rules out collation surprises.
      if (!row || !timingSafeEqual(Buffer.from(row.secure_value), Buffer.from(hash))) return null
      // Recorded at most once an hour, as PostHog: otherwise every API request would cost a write.
      const nowMicros = dateToMicros(ctx.clock())
      const lastUsed = row.last_used_at === null ? null : parseTimestamp(row.last_used_at)
      let now = row.last_used_at
      if (lastUsed === null || nowMicros - lastUsed >= 3_600_000_000) {
        now = formatTimestamp(nowMicros)
        await recordUse(row.id, now)
      }
      const userRow = await runStorage('get user', () => ctx.db.selectFrom('users').selectAll().where('id', '=', row.user_id).executeTakeFirst())
      if (!userRow) return null
      return { user: userFromRow(userRow), apiKey: fromRow({ ...row, last_used_at: now }) }
    },

    /** A user's keys (never their secrets), newest first. */
    async list(userId: number): Promise<PersonalApiKey[]> {
      ctx.assertOpen()
      const rows = await runStorage('list personal API keys', () =>
        ctx.db.selectFrom('personal_api_keys').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').execute(),
      )
      return rows.map(fromRow)
    },

    /** Revokes a key; safe to call twice. */
    async delete(id: string): Promise<void> {
      ctx.assertOpen()
      await runStorage('delete personal API key', () => ctx.db.deleteFrom('personal_api_keys').where('id', '=', id).execute())
    },
  }
}

export type PersonalApiKeysService = ReturnType<typeof personalApiKeysService>
