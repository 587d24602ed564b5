import { Kysely } from 'kysely'
import type { EngineContext } from './context.js'
import { migrateToLatest } from './db/migrate.js'
import { rememberFailedSql, runStorage } from './db/run.js'
import { ClosedError } from './errors.js'
import { capture } from './ingest/capture.js'
import { DefinitionsCache } from './ingest/definitions-cache.js'
import { OverrideSquasher, SQUASH_THRESHOLD } from './ingest/override-squasher.js'
import { squashAllPersonOverrides } from './ingest/squash-person-overrides.js'
import type { CaptureInput, CaptureResult } from './model/capture-input.js'
import { SightlineOptions } from './options.js'
import { actionsService } from './services/actions.js'
import { activityLogService } from './services/activity-log.js'
import { cohortsService } from './services/cohorts.js'
import { dashboardsService } from './services/dashboards.js'
import { insightsService } from './services/insights.js'
import { pluginConfigsService, pluginsService } from './services/plugins.js'
import type { SightlineConfig } from './config.js'
import { eventDefinitionsService, propertyDefinitionsService } from './services/definitions.js'
import { eventsService } from './services/events.js'
import { groupsService } from './services/groups.js'
import { organizationsService } from './services/organizations.js'
import { personalApiKeysService } from './services/personal-api-keys.js'
import { personsService } from './services/persons.js'
import { NumberPromoter } from './services/number-promoter.js'
import { promoteIfNumeric, propertiesService } from './services/properties.js'
import { projectsService } from './services/projects.js'
import { statsService } from './services/stats.js'
import { usersService } from './services/users.js'
import { queryService, type SightlineQuery } from './services/query.js'
import { DEFAULT_MAX_CONCURRENT, DEFAULT_MAX_CONCURRENT_PER_PROJECT, DEFAULT_QUERY_TIMEOUT_MS, QueryExecutor } from './query/execution/query-executor.js'
import { DEFAULT_QUERY_LIMITS } from './query/execution/query-limits.js'
import type { SightlineDatabase } from './storage.js'
import { decodeOrThrow } from './util/decode.js'
import { KeyedMutex } from './util/keyed-mutex.js'

/** One analytics engine over one storage. Every method returns a Promise. */
export interface Sightline {
  readonly organizations: ReturnType<typeof organizationsService>
  readonly projects: ReturnType<typeof projectsService>
  readonly users: ReturnType<typeof usersService>
  readonly personalApiKeys: ReturnType<typeof personalApiKeysService>
  readonly persons: ReturnType<typeof personsService>
  /**
   * Promotion of a project's event properties into columns of `events`
   * (PostHog's materialized columns, per project): promote, list, demote,
   * backfill. Answers never change; promoted properties are read faster.
   */
  readonly properties: ReturnType<typeof propertiesService>
  readonly groups: ReturnType<typeof groupsService>
  readonly events: ReturnType<typeof eventsService>
  readonly eventDefinitions: ReturnType<typeof eventDefinitionsService>
  readonly propertyDefinitions: ReturnType<typeof propertyDefinitionsService>
  readonly stats: ReturnType<typeof statsService>
  /** The change log of every resource: who changed what, field by field. */
  readonly activity: ReturnType<typeof activityLogService>
  /** Organization-scoped plugins, their source files, updates and the plugin repository. */
  readonly plugins: ReturnType<typeof pluginsService>
  /** Which plugins a project enables, in what order, with what config. */
  readonly pluginConfigs: ReturnType<typeof pluginConfigsService>
  /** Saved analyses of a project: CRUD, soft delete, views, and their results through a shared cache. */
  readonly insights: ReturnType<typeof insightsService>
  /** Dashboards and their tiles (the insights they show, with layout and colour). */
  readonly dashboards: ReturnType<typeof dashboardsService>
  /** Named definitions of events (steps matched by event, URL, elements, properties); soft-deleted with `deleted: true`. */
  readonly actions: ReturnType<typeof actionsService>
  /** Sets of persons: static lists, or criteria on person properties, behaviour and other cohorts, evaluated when read. */
  readonly cohorts: ReturnType<typeof cohortsService>
  /**
   * The analyses (funnels, trends, stickiness, lifecycle, retention, paths,
   * correlation) and the persons behind their points, under a timeout, a
   * per-project concurrency limit and cancellation by `client_query_id`
   * (option `queries`). Parameters and results are typed (`FunnelParams`, ...).
   */
  readonly query: SightlineQuery
  /**
   * Stores events with PostHog's semantics (persons, merges, groups, definitions).
   * Atomic: a batch with one invalid event is rejected whole with a
   * `ValidationError` naming the index and field, and nothing is stored.
   */
  capture(projectId: number, events: ReadonlyArray<CaptureInput>): Promise<CaptureResult>
  /** Closes the storage. Safe to call twice; every later call throws `ClosedError`. */
  close(): Promise<void>
}

/**
 * Opens the storage, brings its schema up to date and returns the engine.
 *
 * ```ts
 * const sightline = await createSightline({ storage: duckdbStorage() })
 * ```
 */
export async function createSightline(options: SightlineOptions): Promise<Sightline> {
  const { storage, clock = () => new Date(), pluginRepository = [], queries = {}, properties = {} } = decodeOrThrow(SightlineOptions, options, 'invalid Sightline options')
  const config: SightlineConfig = Object.freeze({ pluginRepository: Object.freeze([...pluginRepository]) })
  const driver = await runStorage(`open ${storage.name} storage`, () => storage.open())
  const db = new Kysely<SightlineDatabase>({ dialect: driver.dialect, log: rememberFailedSql })
  try {
    await migrateToLatest(db, storage, driver)
  } catch (error) {
    await db.destroy().catch(() => {})
    await driver.close().catch(() => {})
    throw error
  }

  let closed = false
  let closing: Promise<void> | undefined
  const ctx: EngineContext = {
    db,
    adapter: storage,
    driver,
    clock,
    writeLocks: new KeyedMutex(),
    knownProjects: new Set(),
    definitionsCache: new DefinitionsCache(),
    // Called only after createSightline returned, so `ctx` is set by then.
    overrideSquasher: new OverrideSquasher(SQUASH_THRESHOLD, (projectId) => squashAllPersonOverrides(ctx, projectId)),
    limits: Object.freeze({ ...DEFAULT_QUERY_LIMITS, ...queries.limits }),
    // Called only after createSightline returned, so `ctx` is set by then.
    numberPromoter:
      properties.promoteNumbersAfter === undefined ? null : new NumberPromoter(properties.promoteNumbersAfter, (projectId, key) => promoteIfNumeric(ctx, projectId, key)),
    assertOpen() {
      if (closed) throw new ClosedError()
    },
  }

  const query = queryService(
    ctx,
    new QueryExecutor({
      timeoutMs: queries.timeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS,
      maxConcurrentPerProject: queries.maxConcurrentPerProject ?? DEFAULT_MAX_CONCURRENT_PER_PROJECT,
      maxConcurrent: queries.maxConcurrent ?? DEFAULT_MAX_CONCURRENT,
    }),
  )
  return Object.freeze({
    organizations: organizationsService(ctx),
    projects: projectsService(ctx),
    users: usersService(ctx),
    personalApiKeys: personalApiKeysService(ctx),
    persons: personsService(ctx),
    properties: propertiesService(ctx),
    groups: groupsService(ctx),
    events: eventsService(ctx),
    eventDefinitions: eventDefinitionsService(ctx),
    propertyDefinitions: propertyDefinitionsService(ctx),
    stats: statsService(ctx),
    activity: activityLogService(ctx),
    plugins: pluginsService(ctx, config),
    pluginConfigs: pluginConfigsService(ctx),
    insights: insightsService(ctx, query),
    dashboards: dashboardsService(ctx),
    actions: actionsService(ctx),
    cohorts: cohortsService(ctx),
    query,
    capture: (projectId: number, events: ReadonlyArray<CaptureInput>) => capture(ctx, projectId, events),
    close() {
      closed = true
      // Writes already queued, of every key, finish first, so a capture that resolved is never cut off.
      closing ??= ctx.writeLocks.idle().then(async () => {
        await db.destroy()
        await driver.close()
      })
      return closing
    },
  })
}
