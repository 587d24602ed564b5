import type { Kysely, Selectable } from 'kysely'
import { NotFoundError } from '../errors.js'
import { Insight, PrivilegeLevel, RestrictionLevel, type InsightDashboardTile, type UserSummary } from '../model/insight.js'
import type { InsightsTable, SightlineDatabase } from '../storage.js'
import { decodeOrThrow } from '../util/decode.js'
import { isRowId } from './tiles.js'

type Db = Kysely<SightlineDatabase>
export type InsightRow = Selectable<InsightsTable>

/** What the insight and dashboard services need of the project they work in. */
export interface ProjectInfo {
  readonly id: number
  readonly organizationId: string
  readonly timezone: string
}

/** The project, or `NotFoundError`. */
export async function findProject(db: Db, projectId: number): Promise<ProjectInfo> {
  if (!isRowId(projectId)) throw new NotFoundError('project', projectId)
  const row = await db.selectFrom('projects').select(['id', 'organization_id', 'timezone']).where('id', '=', projectId).executeTakeFirst()
  if (!row) throw new NotFoundError('project', projectId)
  return { id: row.id, organizationId: row.organization_id, timezone: row.timezone }
}

/**
 * The project's insight, or `NotFoundError` (also for another project's insight,
 * so the two cannot be told apart). Soft-deleted insights only when asked.
 */
export async function findInsightRow(db: Db, projectId: number, id: number, options: { includeDeleted?: boolean } = {}): Promise<InsightRow> {
  if (!isRowId(id)) throw new NotFoundError('insight', id)
  let query = db.selectFrom('insights').selectAll().where('project_id', '=', projectId).where('id', '=', id)
  if (!options.includeDeleted) query = query.where('deleted', '=', false)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('insight', id)
  return row
}

/** The summaries of these users, by id; ids of users that no longer exist are left out. */
export async function userSummaries(db: Db, ids: ReadonlyArray<number | null>): Promise<Map<number, UserSummary>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))]
  if (wanted.length === 0) return new Map()
  const rows = await db.selectFrom('users').select(['id', 'uuid', 'distinct_id', 'first_name', 'email', 'is_email_verified']).where('id', 'in', wanted).execute()
  return new Map(
    rows.map((u) => [u.id, { id: u.id, uuid: u.uuid, distinctId: u.distinct_id, firstName: u.first_name, email: u.email, isEmailVerified: u.is_email_verified }]),
  )
}

/** The name an activity entry shows, as PostHog: the name, else the derived name. */
export const displayName = (row: Pick<InsightRow, 'name' | 'derived_name'>): string | null => row.name || row.derived_name || null

/**
 * Stored rows as `Insight`s, in the same order, with their tiles, users and
 * the project's time zone (a few queries for the whole list).
 */
export async function toInsights(db: Db, project: ProjectInfo, rows: ReadonlyArray<InsightRow>): Promise<Insight[]> {
  if (rows.length === 0) return []
  // PostHog lists the tiles of its default manager: neither removed nor on a deleted dashboard.
  const tiles = await db
    .selectFrom('dashboard_tiles as t')
    .innerJoin('dashboards as d', 'd.id', 't.dashboard_id')
    .select(['t.id', 't.dashboard_id', 't.insight_id', 't.deleted'])
    .where(
      't.insight_id',
      'in',
      rows.map((r) => r.id),
    )
    .where('t.deleted', '=', false)
    .where('d.deleted', '=', false)
    .where('d.project_id', '=', project.id)
    .orderBy('t.id')
    .execute()
  const tilesOf = new Map<number, InsightDashboardTile[]>()
  for (const t of tiles) {
    // Never null here: the rows were selected by insight id (text tiles have none).
    const insightId = t.insight_id!
    const list = tilesOf.get(insightId) ?? []
    list.push({ id: t.id, dashboardId: t.dashboard_id, deleted: t.deleted })
    tilesOf.set(insightId, list)
  }
  const users = await userSummaries(db, rows.flatMap((r) => [r.created_by, r.last_modified_by]))
  return rows.map((r) => {
    const insightTiles = tilesOf.get(r.id) ?? []
    return decodeOrThrow(
      Insight,
      {
        id: r.id,
        shortId: r.short_id,
        name: r.name,
        derivedName: r.derived_name,
        filters: r.filters,
        query: r.query ?? null,
        order: r.order,
        deleted: r.deleted,
        dashboards: insightTiles.map((t) => t.dashboardId),
        dashboardTiles: insightTiles,
        lastRefresh: r.last_refresh,
        nextAllowedClientRefresh: null,
        result: null,
        isCached: false,
        createdAt: r.created_at,
        createdBy: (r.created_by !== null && users.get(r.created_by)) || null,
        description: r.description,
        updatedAt: r.updated_at,
        tags: r.tags,
        favorited: r.favorited,
        saved: r.saved,
        lastModifiedAt: r.last_modified_at,
        lastModifiedBy: (r.last_modified_by !== null && users.get(r.last_modified_by)) || null,
        isSample: r.is_sample,
        // No access control in Sightline: PostHog's values for an insight nobody restricted.
        effectiveRestrictionLevel: RestrictionLevel.EVERYONE_IN_PROJECT_CAN_EDIT,
        effectivePrivilegeLevel: PrivilegeLevel.CAN_EDIT,
        timezone: project.timezone,
      },
      'stored insight',
    )
  })
}
