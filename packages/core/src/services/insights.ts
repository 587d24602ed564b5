import { sql, type Kysely } from 'kysely'
import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { projectWrites, withWriteRetries, writeTransaction } from '../db/write-retries.js'
import { ConflictError, ValidationError } from '../errors.js'
import { changesBetween, jsonEqual } from '../insights/changes.js'
import { displayName, findInsightRow, findProject, toInsights, type InsightRow, type ProjectInfo } from '../insights/rows.js'
import { generateShortId } from '../insights/short-id.js'
import { isRowId, placeOnDashboards, putTile, resolveDashboards } from '../insights/tiles.js'
import type { ActivityChange, ActivityEntry } from '../model/activity.js'
import type { Actor } from '../model/actor.js'
import { applyDashboardFilters } from '../insights/dashboard-filters.js'
import { insightResults, type InsightAnalyses } from '../insights/insight-result.js'
import { findTileContext } from '../insights/tile-context.js'
import { CreateInsightInput, GetInsightOptions, ListInsightsOptions, UpdateInsightInput, type Insight } from '../model/insight.js'
import { loadQueryProject } from '../query/scope/query-project.js'
import { DEFAULT_PAGE_SIZE, PageOptions, type Page } from '../model/page.js'
import type { SightlineDatabase } from '../storage.js'
import { nowIso } from '../time/timestamp.js'
import { decodeOrThrow } from '../util/decode.js'
import { activityLogService, recordActivity } from './activity-log.js'
import { normalizeTags } from '../util/tags.js'

/** The fields PostHog's activity log compares for an insight (its `field_exclusions` leave these), in its order. */
const ACTIVITY_FIELDS = ['name', 'derivedName', 'description', 'filters', 'query', 'deleted', 'favorited', 'tags'] as const

/** PostHog's page size for activity. */
const ACTIVITY_PAGE_SIZE = 10
const MY_LAST_VIEWED = 5
const SHORT_ID_ATTEMPTS = 10


/** SQL NULL for a null JSON value (not the JSON text `null`), so `query is null` means "no query". */
const jsonOrNull = (value: Record<string, unknown> | null) => (value === null ? sql<string>`null` : JSON.stringify(value))

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)

function checkActor(actor: Actor | undefined, required = false): void {
  if (actor === undefined ? required : !isRowId(actor.userId)) {
    throw new ValidationError([{ path: ['actor', 'userId'], message: 'expected the id of a user' }], { context: 'invalid actor' })
  }
}

/** Records or refreshes the user's view of the insight. */
async function recordView(db: Kysely<SightlineDatabase>, projectId: number, insightId: number, userId: number, now: string): Promise<void> {
  await db
    .insertInto('insight_views')
    .values({ project_id: projectId, insight_id: insightId, user_id: userId, last_viewed_at: now })
    .onConflict((oc) => oc.columns(['insight_id', 'user_id']).doUpdateSet({ last_viewed_at: now }))
    .execute()
}

/**
 * Saved insights. `analyses` computes their results (the engine's
 * `sightline.query`, so they run under its executor).
 */
export function insightsService(ctx: EngineContext, analyses: InsightAnalyses) {
  const activityLog = activityLogService(ctx)
  const results = insightResults(ctx, analyses)

  const record = (db: Kysely<SightlineDatabase>, project: ProjectInfo, row: InsightRow, actor: Actor | undefined, activity: string, changes: ActivityChange[]) =>
    recordActivity(db, ctx.clock, {
      organizationId: project.organizationId,
      projectId: project.id,
      actor,
      scope: 'Insight',
      itemId: row.id,
      activity,
      name: displayName(row),
      changes,
      extra: { short_id: row.short_id },
    })

  const one = async (db: Kysely<SightlineDatabase>, project: ProjectInfo, row: InsightRow) => (await toInsights(db, project, [row]))[0]!

  return {
    /**
     * The project's insights that are not deleted, a page at a time, in
     * PostHog's default order (`order`, unset last), then most recently
     * modified first.
     */
    async list(projectId: number, options: ListInsightsOptions = {}): Promise<Page<Insight>> {
      ctx.assertOpen()
      const o = decodeOrThrow(ListInsightsOptions, options, 'invalid insight list options')
      const { limit = DEFAULT_PAGE_SIZE, offset = 0 } = o
      return runStorage('list insights', async () => {
        const project = await findProject(ctx.db, projectId)
        let query = ctx.db.selectFrom('insights').where('project_id', '=', project.id).where('deleted', '=', false)
        if (o.createdBy !== undefined) {
          const ids = (typeof o.createdBy === 'number' ? [o.createdBy] : o.createdBy).filter(isRowId)
          query = ids.length > 0 ? query.where('created_by', 'in', ids) : query.where(sql<boolean>`false`)
        }
        if (o.shortId !== undefined) query = query.where('short_id', '=', o.shortId)
        if (o.saved === true) {
          // PostHog: saved, or shown on a dashboard.
          query = query.where((eb) =>
            eb.or([
              eb('saved', '=', true),
              eb.exists(
                eb
                  .selectFrom('dashboard_tiles as t')
                  .innerJoin('dashboards as d', 'd.id', 't.dashboard_id')
                  .select('t.id')
                  .whereRef('t.insight_id', '=', 'insights.id')
                  .where('t.deleted', '=', false)
                  .where('d.deleted', '=', false),
              ),
            ]),
          )
        } else if (o.saved === false) query = query.where('saved', '=', false)
        if (o.favorited !== undefined) query = query.where('favorited', '=', o.favorited)
        if (o.search) {
          const term = o.search.toLowerCase()
          const pattern = `%${escapeLike(term)}%`
          // DuckDB's LIKE has no default escape character: name it, for both databases.
          const like = (column: 'name' | 'derived_name' | 'description') => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`
          const conditions = [like('name'), like('derived_name'), like('description')]
          // Tags are a JSON array: match the term as it is spelled inside a JSON string. A term of
          // JSON punctuation only would match the array itself, so it is not looked for in tags.
          if (/[^[\], ]/.test(term)) {
            const inJson = `%${escapeLike(JSON.stringify(term).slice(1, -1))}%`
            conditions.push(sql<boolean>`lower(cast(tags as text)) like ${inJson} escape '\\'`)
          }
          query = query.where((eb) => eb.or(conditions))
        }
        const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
        const rows = await query
          .selectAll()
          .orderBy('order', (ob) => ob.asc().nullsLast())
          .orderBy('last_modified_at', 'desc')
          .orderBy('id', 'desc')
          .limit(limit)
          .offset(offset)
          .execute()
        return { count: Number(total.n), results: await toInsights(ctx.db, project, rows) }
      })
    },

    /**
     * Creates an insight with a new short id, made and last modified by `actor`
     * (whose view of it is recorded, as PostHog), and puts it on `dashboards`.
     */
    async create(projectId: number, input: CreateInsightInput, actor?: Actor): Promise<Insight> {
      ctx.assertOpen()
      const i = decodeOrThrow(CreateInsightInput, input, 'invalid insight')
      checkActor(actor)
      return writeTransaction(ctx, projectWrites(projectId), 'create insight', async (trx) => {
        const project = await findProject(trx, projectId)
        const dashboards = await resolveDashboards(trx, project.id, i.dashboards ?? [])
        const taken = async (shortId: string) =>
          (await trx.selectFrom('insights').select('id').where('project_id', '=', project.id).where('short_id', '=', shortId).executeTakeFirst()) !== undefined
        let shortId = generateShortId()
        for (let attempt = 1; await taken(shortId); attempt++) {
          if (attempt === SHORT_ID_ATTEMPTS) throw new ConflictError('no free short id found for the insight', 'short_id')
          shortId = generateShortId()
        }
        const now = nowIso(ctx.clock)
        const row = await trx
          .insertInto('insights')
          .values({
            project_id: project.id,
            short_id: shortId,
            name: i.name ?? null,
            derived_name: i.derivedName ?? null,
            description: i.description ?? null,
            filters: JSON.stringify(i.filters ?? {}),
            query: jsonOrNull(i.query ?? null),
            order: i.order ?? null,
            deleted: i.deleted ?? false,
            favorited: i.favorited ?? false,
            saved: i.saved ?? true,
            tags: JSON.stringify(normalizeTags(i.tags ?? [])),
            is_sample: false,
            created_at: now,
            created_by: actor?.userId ?? null,
            updated_at: now,
            last_modified_at: now,
            last_modified_by: actor?.userId ?? null,
            last_refresh: null,
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        for (const d of dashboards) if (!d.deleted) await putTile(trx, now, d.id, row.id)
        if (actor) await recordView(trx, project.id, row.id, actor.userId, now)
        await record(trx, project, row, actor, 'created', [])
        return one(trx, project, row)
      })
    },

    /**
     * The insight with its computed result, or `NotFoundError` (also when
     * soft-deleted, as PostHog: restore it with `update(..., { deleted: false })`).
     * The result comes from the cache or is computed, as `refresh` asks
     * (default: a fresh cached result, else computed); see `GetInsightOptions`.
     * With `fromDashboard` naming a dashboard that shows the insight, its
     * filter overrides apply (`filters` shows them, for filter-based
     * insights) and the tile's `layouts` and `color` are added. Throws
     * ValidationError under `filters` or `query` when they cannot be computed.
     */
    async get(projectId: number, id: number, options: GetInsightOptions = {}): Promise<Insight> {
      ctx.assertOpen()
      const o = decodeOrThrow(GetInsightOptions, options, 'invalid insight options')
      const { row, insight, tile } = await runStorage('get insight', async () => {
        const project = await findProject(ctx.db, projectId)
        const row = await findInsightRow(ctx.db, project.id, id)
        const tile = o.fromDashboard === undefined ? null : await findTileContext(ctx.db, project.id, o.fromDashboard, row.id)
        return { row, insight: await one(ctx.db, project, row), tile }
      })
      const project = await loadQueryProject(ctx, projectId)
      const definition = { filters: row.filters, query: row.query ?? null }
      const computed = await results.resolve(project, definition, tile?.dashboardFilters ?? null, o.refresh, o.clientQueryId)
      return {
        ...insight,
        // PostHog shows a filter-based insight's filters as the dashboard applies them.
        ...(tile && definition.query === null && { filters: applyDashboardFilters(row.filters, tile.dashboardFilters) }),
        ...computed,
        ...(tile && { layouts: tile.layouts, color: tile.color }),
      }
    },

    /**
     * Changes the writeable fields. `deleted: true` soft-deletes the insight
     * and removes its tiles; `deleted: false` restores it (the only call that
     * reaches a soft-deleted insight). `lastModifiedAt`/`By` move when the
     * name, description, filters or query change. The activity entry is
     * `updated`, `deleted` or `restored`, with field-level changes; an update
     * that changes nothing records none.
     */
    async update(projectId: number, id: number, input: UpdateInsightInput, actor?: Actor): Promise<Insight> {
      ctx.assertOpen()
      const patch = decodeOrThrow(UpdateInsightInput, input, 'invalid insight')
      checkActor(actor)
      const tags = patch.tags && normalizeTags(patch.tags)
      return writeTransaction(ctx, projectWrites(projectId), 'update insight', async (trx) => {
        const project = await findProject(trx, projectId)
        const row = await findInsightRow(trx, project.id, id, { includeDeleted: patch.deleted === false })
        const wanted = patch.dashboards && (await resolveDashboards(trx, project.id, patch.dashboards))
        const before = await one(trx, project, row)
        const now = nowIso(ctx.clock)
        const material =
          (patch.name !== undefined && patch.name !== row.name) ||
          (patch.description !== undefined && patch.description !== row.description) ||
          (patch.filters !== undefined && !jsonEqual(patch.filters, row.filters)) ||
          (patch.query !== undefined && !jsonEqual(patch.query, row.query ?? null))
        await trx
          .updateTable('insights')
          .set({
            ...(patch.name !== undefined && { name: patch.name }),
            ...(patch.derivedName !== undefined && { derived_name: patch.derivedName }),
            ...(patch.description !== undefined && { description: patch.description }),
            ...(patch.filters !== undefined && { filters: JSON.stringify(patch.filters) }),
            ...(patch.query !== undefined && { query: jsonOrNull(patch.query) }),
            ...(patch.order !== undefined && { order: patch.order }),
            ...(patch.deleted !== undefined && { deleted: patch.deleted }),
            ...(tags !== undefined && { tags: JSON.stringify(tags) }),
            ...(patch.favorited !== undefined && { favorited: patch.favorited }),
            // PostHog: an edit turns a sample into the user's own, and marks the insight saved unless told otherwise.
            saved: patch.saved ?? true,
            is_sample: false,
            updated_at: now,
            ...(material && { last_modified_at: now, last_modified_by: actor?.userId ?? null }),
          })
          .where('id', '=', row.id)
          .execute()
        let dashboardsChange: ActivityChange | null = null
        if (patch.deleted === true) {
          await trx.updateTable('dashboard_tiles').set({ deleted: true }).where('insight_id', '=', row.id).where('deleted', '=', false).execute()
        } else if (wanted) {
          dashboardsChange = await placeOnDashboards(trx, now, project.id, row.id, wanted)
        }
        const afterRow = await findInsightRow(trx, project.id, row.id, { includeDeleted: true })
        const after = await one(trx, project, afterRow)
        const changes = changesBetween('Insight', before, after, ACTIVITY_FIELDS)
        if (dashboardsChange) changes.push(dashboardsChange)
        const deleted = changes.find((c) => c.field === 'deleted')
        if (changes.length > 0) await record(trx, project, afterRow, actor, deleted ? (deleted.after ? 'deleted' : 'restored') : 'updated', changes)
        return after
      })
    },

    /** Records (or refreshes) that the user viewed the insight now. The activity log is not touched. */
    async viewed(projectId: number, id: number, actor: Actor): Promise<void> {
      ctx.assertOpen()
      checkActor(actor, true)
      await withWriteRetries(ctx, projectWrites(projectId), 'record insight view', async () => {
        const project = await findProject(ctx.db, projectId)
        const row = await findInsightRow(ctx.db, project.id, id)
        await recordView(ctx.db, project.id, row.id, actor.userId, nowIso(ctx.clock))
      })
    },

    /** The last 5 insights (not deleted) the user viewed in the project, most recently viewed first. */
    async myLastViewed(projectId: number, userId: number): Promise<Insight[]> {
      ctx.assertOpen()
      if (!isRowId(userId)) throw new ValidationError([{ path: ['userId'], message: 'expected the id of a user' }], { context: 'invalid user' })
      return runStorage('list last viewed insights', async () => {
        const project = await findProject(ctx.db, projectId)
        const rows = await ctx.db
          .selectFrom('insight_views as v')
          .innerJoin('insights as i', 'i.id', 'v.insight_id')
          .selectAll('i')
          .where('v.project_id', '=', project.id)
          .where('v.user_id', '=', userId)
          .where('i.project_id', '=', project.id)
          .where('i.deleted', '=', false)
          .orderBy('v.last_viewed_at', 'desc')
          .orderBy('v.insight_id', 'desc')
          .limit(MY_LAST_VIEWED)
          .execute()
        return toInsights(ctx.db, project, rows)
      })
    },

    /**
     * The activity of one insight (soft-deleted ones too) or of all the
     * project's insights, newest first; `limit` defaults to 10, as PostHog.
     */
    async activity(projectId: number, id?: number, page: PageOptions = {}): Promise<Page<ActivityEntry>> {
      ctx.assertOpen()
      const { limit = ACTIVITY_PAGE_SIZE, offset = 0 } = decodeOrThrow(PageOptions, page, 'invalid page')
      const project = await runStorage('find insight', async () => {
        const p = await findProject(ctx.db, projectId)
        if (id !== undefined) await findInsightRow(ctx.db, p.id, id, { includeDeleted: true })
        return p
      })
      return activityLog.list({ projectId: project.id, scope: 'Insight', ...(id !== undefined && { itemId: id }) }, { limit, offset })
    },
  }
}

export type InsightsService = ReturnType<typeof insightsService>
