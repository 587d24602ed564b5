import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { projectWrites, withWriteRetries } from '../db/write-retries.js'
import { ValidationError } from '../errors.js'
import { UpsertPersonInput, type Person } from '../model/person.js'
import { PersonStore } from '../ingest/person-store.js'
import { tellPersonRows, tellsPersonRows } from '../ingest/tell-person-rows.js'
import { squashAllPersonOverrides } from '../ingest/squash-person-overrides.js'
import { dateToMicros, parseTimestamp } from '../time/timestamp.js'
import { decodeOrThrow } from '../util/decode.js'
import { sanitizeJson, sanitizeText } from '../util/sanitize-text.js'
import { requireProject } from './require-project.js'

export function personsService(ctx: EngineContext) {
  const get = async (projectId: number, distinctId: string): Promise<Person | null> => {
    ctx.assertOpen()
    distinctId = sanitizeText(distinctId)
    const row = await runStorage('get person', () =>
      ctx.db
        .selectFrom('person_distinct_ids as pdi')
        .innerJoin('persons as p', (j) => j.onRef('p.uuid', '=', 'pdi.person_uuid').onRef('p.project_id', '=', 'pdi.project_id'))
        .select(['p.id', 'p.uuid', 'p.properties', 'p.is_identified', 'p.created_at'])
        .where('pdi.project_id', '=', projectId)
        .where('pdi.distinct_id', '=', distinctId)
        .executeTakeFirst(),
    )
    if (!row) return null
    const ids = await runStorage('get person distinct ids', () =>
      ctx.db
        .selectFrom('person_distinct_ids')
        .select('distinct_id')
        .where('project_id', '=', projectId)
        .where('person_uuid', '=', row.uuid)
        .orderBy('distinct_id')
        .execute(),
    )
    return {
      id: row.id,
      uuid: row.uuid,
      distinctIds: ids.map((i) => i.distinct_id),
      properties: row.properties,
      isIdentified: row.is_identified,
      createdAt: row.created_at,
    }
  }

  return {
    /** The person a distinct id belongs to, or null. */
    get,

    /**
     * Folds the project's person overrides (distinct ids whose person changed
     * after their events were stored: merges, and personless distinct ids that
     * got a person) into the stored events, so analyses join fewer of them.
     * Runs by itself in the background once captures wrote 1,000 of them;
     * call it to do it now (say, after a bulk import of identities). Answers
     * are the same before and after. Resolves to the number folded.
     */
    async squashOverrides(projectId: number): Promise<number> {
      ctx.assertOpen()
      await requireProject(ctx, projectId)
      return squashAllPersonOverrides(ctx, projectId)
    },

    /**
     * Imports or updates a person (see `UpsertPersonInput`). All distinct ids end
     * on the person of the first one; others' persons are merged into it.
     */
    async upsert(projectId: number, input: UpsertPersonInput): Promise<Person> {
      ctx.assertOpen()
      const decoded = decodeOrThrow(UpsertPersonInput, input, 'invalid person', [], { allowUnstorableText: true })
      const p = { ...decoded, distinctIds: decoded.distinctIds.map(sanitizeText) as [string, ...string[]], properties: sanitizeJson(decoded.properties) }
      const createdAt = p.createdAt === undefined ? undefined : parseTimestamp(p.createdAt)
      if (createdAt === null) throw new ValidationError([{ path: ['createdAt'], message: `not an ISO 8601 date-time: ${JSON.stringify(p.createdAt)}` }])
      await requireProject(ctx, projectId)
      const [first, ...rest] = p.distinctIds
      // The person is read back under the lock too: a write of the project in between could merge it away.
      return withWriteRetries(ctx, projectWrites(projectId), 'upsert person', async () => {
        const written = await ctx.db.transaction().execute(async (trx) => {
          const store = new PersonStore(trx, projectId, ctx.adapter.capabilities, ctx.adapter.sql, tellsPersonRows(ctx))
          await store.load(p.distinctIds)
          const person = store.get(first) ?? store.create(first, createdAt ?? dateToMicros(ctx.clock()), {}, p.isIdentified ?? true)
          for (const id of rest) {
            const other = store.get(id)
            if (!other) store.addDistinctId(person, id)
            else store.merge(person, other)
          }
          if (createdAt !== undefined) person.createdAt = createdAt
          if (p.isIdentified !== undefined) person.isIdentified = p.isIdentified
          store.update(person, { set: p.properties ?? {}, setOnce: {}, unset: [] })
          return { overrides: await store.flush(), rows: store.changes() }
        })
        ctx.overrideSquasher.added(projectId, written.overrides)
        await tellPersonRows(ctx, projectId, written.rows)
        return (await get(projectId, first))!
      })
    },
  }
}

export type PersonsService = ReturnType<typeof personsService>
