import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { PropertyDefinitionType, type EventDefinition, type PropertyDefinition, type PropertyDefinitionKind, type PropertyType } from '../model/definitions.js'

const KIND_BY_TYPE = Object.fromEntries(Object.entries(PropertyDefinitionType).map(([k, v]) => [v, k])) as Record<number, PropertyDefinitionKind>

export function eventDefinitionsService(ctx: EngineContext) {
  return {
    /** The project's event names, alphabetically. */
    async list(projectId: number): Promise<EventDefinition[]> {
      ctx.assertOpen()
      const rows = await runStorage('list event definitions', () =>
        ctx.db.selectFrom('event_definitions').selectAll().where('project_id', '=', projectId).orderBy('name').execute(),
      )
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        createdAt: r.created_at,
        lastSeenAt: r.last_seen_at,
        lastUpdatedAt: r.last_updated_at,
        tags: r.tags,
        description: r.description,
        postToSlack: r.post_to_slack,
      }))
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
