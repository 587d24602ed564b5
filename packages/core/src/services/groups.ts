import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { projectWrites, withWriteRetries } from '../db/write-retries.js'
import { ConflictError } from '../errors.js'
import { GroupStore, MAX_GROUP_TYPES } from '../ingest/group-store.js'
import { tellPersonRows } from '../ingest/tell-person-rows.js'
import { UpsertGroupInput, type Group, type GroupType } from '../model/group.js'
import { dateToMicros } from '../time/timestamp.js'
import { decodeOrThrow } from '../util/decode.js'
import { sanitizeJson } from '../util/sanitize-text.js'
import { requireProject } from './require-project.js'

export function groupsService(ctx: EngineContext) {
  const get = async (projectId: number, groupTypeIndex: number, groupKey: string): Promise<Group | null> => {
    ctx.assertOpen()
    if (!Number.isInteger(groupTypeIndex) || groupTypeIndex < 0 || groupTypeIndex > 4) return null
    const row = await runStorage('get group', () =>
      ctx.db
        .selectFrom('groups as g')
        .innerJoin('group_types as t', (j) => j.onRef('t.project_id', '=', 'g.project_id').onRef('t.group_type_index', '=', 'g.group_type_index'))
        .select(['g.group_type_index', 't.group_type', 'g.group_key', 'g.properties', 'g.created_at'])
        .where('g.project_id', '=', projectId)
        .where('g.group_type_index', '=', groupTypeIndex)
        .where('g.group_key', '=', groupKey)
        .executeTakeFirst(),
    )
    return row
      ? { groupTypeIndex: row.group_type_index, groupType: row.group_type, groupKey: row.group_key, properties: row.properties, createdAt: row.created_at }
      : null
  }

  return {
    get,

    /** Creates or updates a group (its properties are `$set`), registering its type if new. */
    async upsert(projectId: number, input: UpsertGroupInput): Promise<Group> {
      ctx.assertOpen()
      const g = sanitizeJson(decodeOrThrow(UpsertGroupInput, input, 'invalid group', [], { allowUnstorableText: true }))
      await requireProject(ctx, projectId)
      const { index, rows } = await withWriteRetries(ctx, projectWrites(projectId), 'upsert group', () =>
          ctx.db.transaction().execute(async (trx) => {
            const store = new GroupStore(trx, projectId, ctx.adapter.capabilities)
            const index = await store.typeIndex(g.groupType, g.groupTypeIndex)
            if (index === null) {
              throw new ConflictError(
                g.groupTypeIndex === undefined
                  ? `the project already has ${MAX_GROUP_TYPES} group types`
                  : `group type index ${g.groupTypeIndex} is taken by another group type, or ${JSON.stringify(g.groupType)} has another index`,
                'groupTypeIndex',
              )
            }
            await store.set(index, g.groupKey, g.properties ?? {}, dateToMicros(ctx.clock()))
            await store.flush()
            return { index, rows: store.changes() }
          }),
      )
      await tellPersonRows(ctx, projectId, undefined, rows)
      return (await get(projectId, index, g.groupKey))!
    },

    /** The project's group types, by index. */
    async types(projectId: number): Promise<GroupType[]> {
      ctx.assertOpen()
      const rows = await runStorage('list group types', () =>
        ctx.db.selectFrom('group_types').selectAll().where('project_id', '=', projectId).orderBy('group_type_index').execute(),
      )
      return rows.map((r) => ({ groupType: r.group_type, groupTypeIndex: r.group_type_index, nameSingular: r.name_singular, namePlural: r.name_plural }))
    },
  }
}

export type GroupsService = ReturnType<typeof groupsService>
