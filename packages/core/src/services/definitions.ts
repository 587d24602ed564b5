import { sql, type Selectable } from 'kysely'
import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { projectWrites, writeTransaction } from '../db/write-retries.js'
import { ConflictError, NotFoundError, ValidationError } from '../errors.js'
import type { Actor } from '../model/actor.js'
import {
  PropertyDefinitionType,
  UpdateEventDefinitionInput,
  type EventDefinition,
  type PropertyDefinition,
  type PropertyDefinitionKind,
  type PropertyType,
} from '../model/definitions.js'
import { DEFAULT_PAGE_SIZE, PageOptions, type Page } from '../model/page.js'
import type { EventDefinitionsTable } from '../storage.js'
import { formatTimestamp, nowIso, parseTimestamp } from '../time/timestamp.js'
import { decodeOrThrow } from '../util/decode.js'
import { sanitizeText } from '../util/sanitize-text.js'
import { isUuid } from '../util/uuid.js'
import { DefinitionsCache } from '../ingest/definitions-cache.js'
import { diffFields, recordActivity } from './activity-log.js'

const KIND_BY_TYPE = Object.fromEntries(Object.entries(PropertyDefinitionType).map(([k, v]) => [v, k])) as Record<number, PropertyDefinitionKind>

const eventDefinitionFromRow = (r: Selectable<EventDefinitionsTable>): EventDefinition => ({
  id: r.id,
  name: r.name,
  createdAt: r.created_at,
  lastSeenAt: r.last_seen_at,
  lastUpdatedAt: r.last_updated_at,
  tags: r.tags,
  description: r.description,
  postToSlack: r.post_to_slack,
})

const isoOrThrow = (field: string, value: string) => {
  const micros = parseTimestamp(value)
  if (micros === null) throw new ValidationError([{ path: [field], message: `not an ISO 8601 date-time: ${JSON.stringify(value)}` }])
  return formatTimestamp(micros)
}

export function eventDefinitionsService(ctx: EngineContext) {
  // Every read inside a write takes the transaction's `db`: PGlite has one connection, held by the transaction.
  const find = async (db: EngineContext['db'], projectId: number, id: string) => {
    ctx.assertOpen()
    // A malformed id names nothing; asking the database would only raise a cast error.
    if (!isUuid(id)) throw new NotFoundError('event definition', id)
    const row = await runStorage('get event definition', () =>
      db.selectFrom('event_definitions').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst(),
    )
    if (!row) throw new NotFoundError('event definition', id)
    return row
  }
  const organizationOf = async (db: EngineContext['db'], projectId: number) =>
    (await db.selectFrom('projects').select('organization_id').where('id', '=', projectId).executeTakeFirstOrThrow()).organization_id

  return {
    /** The project's event names, alphabetically, a page at a time; `search` matches names containing it. */
    async list(projectId: number, options: PageOptions & { search?: string } = {}): Promise<Page<EventDefinition>> {
      ctx.assertOpen()
      const { limit = DEFAULT_PAGE_SIZE, offset = 0 } = decodeOrThrow(PageOptions, { limit: options.limit, offset: options.offset }, 'invalid page')
      let query = ctx.db.selectFrom('event_definitions').where('project_id', '=', projectId)
      if (options.search) {
        const pattern = `%${sanitizeText(options.search).replace(/[\\%_]/g, (c) => `\\${c}`)}%`
        // DuckDB's LIKE has no default escape character: name it, for both databases.
        query = query.where(sql<boolean>`name like ${pattern} escape '\\'`)
      }
      return runStorage('list event definitions', async () => {
        const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
        const rows = await query.selectAll().orderBy('name').orderBy('id').limit(limit).offset(offset).execute()
        return { count: Number(total.n), results: rows.map(eventDefinitionFromRow) }
      })
    },

    /** The event definition, or `NotFoundError`. */
    async get(projectId: number, id: string): Promise<EventDefinition> {
      return eventDefinitionFromRow(await find(ctx.db, projectId, id))
    },

    /** Changes the writeable fields; records the change in the activity log. */
    async update(projectId: number, id: string, input: UpdateEventDefinitionInput, actor?: Actor): Promise<EventDefinition> {
      const patch = decodeOrThrow(UpdateEventDefinitionInput, input, 'invalid event definition')
      const createdAt = patch.createdAt === undefined ? undefined : isoOrThrow('created_at', patch.createdAt)
      const lastSeenAt = patch.lastSeenAt === undefined ? undefined : isoOrThrow('last_seen_at', patch.lastSeenAt)
      return writeTransaction(ctx, projectWrites(projectId), 'update event definition', async (trx) => {
        const before = eventDefinitionFromRow(await find(trx, projectId, id))
        if (patch.name !== undefined && patch.name !== before.name) {
          const taken = await trx.selectFrom('event_definitions').select('id').where('project_id', '=', projectId).where('name', '=', patch.name).executeTakeFirst()
          if (taken) throw new ConflictError(`an event definition named ${JSON.stringify(patch.name)} already exists`, 'name')
        }
        const now = nowIso(ctx.clock)
        await trx
          .updateTable('event_definitions')
          .set({
            ...(patch.name !== undefined && { name: patch.name }),
            ...(patch.description !== undefined && { description: patch.description }),
            ...(patch.tags !== undefined && { tags: JSON.stringify([...new Set(patch.tags)]) }),
            ...(patch.postToSlack !== undefined && { post_to_slack: patch.postToSlack }),
            ...(createdAt !== undefined && { created_at: createdAt }),
            ...(lastSeenAt !== undefined && { last_seen_at: lastSeenAt }),
            last_updated_at: now,
          })
          .where('project_id', '=', projectId)
          .where('id', '=', id)
          .execute()
        const after = eventDefinitionFromRow((await trx.selectFrom('event_definitions').selectAll().where('id', '=', id).executeTakeFirst())!)
        // A renamed definition frees its old name: the next event of that name creates it again.
        if (after.name !== before.name) ctx.definitionsCache.forget(DefinitionsCache.eventKey(projectId, before.name))
        const changes = diffFields('EventDefinition', before as never, after as never, ['name', 'description', 'tags', 'postToSlack', 'createdAt', 'lastSeenAt'])
        if (changes.length > 0) {
          await recordActivity(trx, ctx.clock, {
            organizationId: await organizationOf(trx, projectId),
            projectId,
            actor,
            scope: 'EventDefinition',
            itemId: id,
            activity: 'updated',
            name: after.name,
            changes,
          })
        }
        return after
      })
    },

    /**
     * Deletes the definition (PostHog deletes the row; events keep their
     * name, and the next event of that name creates the definition again).
     */
    async delete(projectId: number, id: string, actor?: Actor): Promise<void> {
      await writeTransaction(ctx, projectWrites(projectId), 'delete event definition', async (trx) => {
        const before = await find(trx, projectId, id)
        await trx.deleteFrom('event_definitions').where('project_id', '=', projectId).where('id', '=', id).execute()
        ctx.definitionsCache.forget(DefinitionsCache.eventKey(projectId, before.name))
        await recordActivity(trx, ctx.clock, {
          organizationId: await organizationOf(trx, projectId),
          projectId,
          actor,
          scope: 'EventDefinition',
          itemId: id,
          activity: 'deleted',
          name: before.name,
          changes: [{ type: 'EventDefinition', action: 'deleted' }],
        })
      })
    },
  }
}

export function propertyDefinitionsService(ctx: EngineContext) {
  return {
    /** The project's property names, alphabetically; of one kind when given. */
    async list(projectId: number, options: { type?: PropertyDefinitionKind } = {}): Promise<PropertyDefinition[]> {
      ctx.assertOpen()
      let query = ctx.db.selectFrom('property_definitions').selectAll().where('project_id', '=', projectId)
      if (options.type !== undefined) query = query.where('type', '=', PropertyDefinitionType[options.type])
      const rows = await runStorage('list property definitions', () => query.orderBy('type').orderBy('group_type_index').orderBy('name').execute())
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        type: KIND_BY_TYPE[r.type]!,
        groupTypeIndex: r.group_type_index < 0 ? null : r.group_type_index,
        propertyType: r.property_type as PropertyType | null,
        isNumerical: r.is_numerical,
        lastSeenAt: r.last_seen_at,
      }))
    },
  }
}
