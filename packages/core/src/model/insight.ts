import { Schema } from 'effect'
import { PageOptions } from './page.js'

/** PostHog's `Dashboard.RestrictionLevel`: who may edit a dashboard and the insights on it. */
export const RestrictionLevel = { EVERYONE_IN_PROJECT_CAN_EDIT: 21, ONLY_COLLABORATORS_CAN_EDIT: 37 } as const
export type RestrictionLevel = (typeof RestrictionLevel)[keyof typeof RestrictionLevel]
/** PostHog's `Dashboard.PrivilegeLevel`: what one user may do with a dashboard or insight. */
export const PrivilegeLevel = { CAN_VIEW: 21, CAN_EDIT: 37 } as const
export type PrivilegeLevel = (typeof PrivilegeLevel)[keyof typeof PrivilegeLevel]

const isPlainObject = (u: unknown): u is Record<string, unknown> => {
  if (typeof u !== 'object' || u === null || Array.isArray(u)) return false
  const proto = Object.getPrototypeOf(u)
  return proto === Object.prototype || proto === null
}

/** True when `u` survives `JSON.stringify` and `JSON.parse` unchanged (no undefined, NaN, Date, cycle...). */
const isJsonValue = (u: unknown, depth: number): boolean => {
  if (u === null || typeof u === 'string' || typeof u === 'boolean') return true
  if (typeof u === 'number') return Number.isFinite(u)
  if (depth > 100) return false
  if (Array.isArray(u)) return u.every((v) => isJsonValue(v, depth + 1))
  return isPlainObject(u) && Object.values(u).every((v) => isJsonValue(v, depth + 1))
}

/** A JSON object (insight `filters` and `query`, tile `layouts`): stored as given, as JSON. */
export const JsonObject = Schema.declare((u: unknown): u is Record<string, unknown> => isPlainObject(u) && isJsonValue(u, 0), {
  expected: 'a JSON object',
})
export type JsonObject = Record<string, unknown>

/** The user embedded in insights and dashboards (PostHog's UserBasicSerializer, the fields the interface names). */
export const UserSummary = Schema.Struct({
  id: Schema.Int,
  uuid: Schema.String,
  distinctId: Schema.String,
  firstName: Schema.String,
  email: Schema.String,
  isEmailVerified: Schema.Boolean,
})
export type UserSummary = typeof UserSummary.Type

/** A tile showing the insight, as the insight lists it. */
export const InsightDashboardTile = Schema.Struct({
  id: Schema.Int,
  dashboardId: Schema.Int,
  deleted: Schema.Boolean,
})
export type InsightDashboardTile = typeof InsightDashboardTile.Type

/** A saved analysis (PostHog's Insight). */
export const Insight = Schema.Struct({
  id: Schema.Int,
  /** Eight letters and digits, unique in the project: the insight's short link. */
  shortId: Schema.String,
  name: Schema.NullOr(Schema.String),
  derivedName: Schema.NullOr(Schema.String),
  filters: JsonObject,
  query: Schema.NullOr(JsonObject),
  order: Schema.NullOr(Schema.Int),
  deleted: Schema.Boolean,
  /** DEPRECATED (use `dashboardTiles`): ids of the dashboards showing the insight. */
  dashboards: Schema.Array(Schema.Int),
  /** The tiles showing the insight: not removed, on dashboards not deleted. */
  dashboardTiles: Schema.Array(InsightDashboardTile),
  /** When `result` was computed (ISO 8601 UTC); null without a result. */
  lastRefresh: Schema.NullOr(Schema.String),
  /** From when a `refresh: true` recomputes (`lastRefresh` plus PostHog's refresh interval); null without a result. */
  nextAllowedClientRefresh: Schema.NullOr(Schema.String),
  /**
   * The computed result, as `sightline.query.trend` or `.funnel` answers it
   * for the insight's filters. Only `insights.get` computes; lists, create and
   * update leave it null, as do insights that do not compute (retention and
   * paths, query nodes without a legacy equivalent, no filters).
   */
  result: Schema.Unknown,
  /** Whether `result` was read from the cache rather than computed by this call. */
  isCached: Schema.Boolean,
  /** With `fromDashboard`, when the insight is on that dashboard: the tile's layouts. */
  layouts: Schema.optional(JsonObject),
  /** With `fromDashboard`, when the insight is on that dashboard: the tile's colour. */
  color: Schema.optional(Schema.NullOr(Schema.String)),
  createdAt: Schema.String,
  createdBy: Schema.NullOr(UserSummary),
  description: Schema.NullOr(Schema.String),
  updatedAt: Schema.String,
  tags: Schema.Array(Schema.String),
  favorited: Schema.Boolean,
  saved: Schema.Boolean,
  lastModifiedAt: Schema.String,
  lastModifiedBy: Schema.NullOr(UserSummary),
  isSample: Schema.Boolean,
  effectiveRestrictionLevel: Schema.Literals([RestrictionLevel.EVERYONE_IN_PROJECT_CAN_EDIT, RestrictionLevel.ONLY_COLLABORATORS_CAN_EDIT]),
  effectivePrivilegeLevel: Schema.Literals([PrivilegeLevel.CAN_VIEW, PrivilegeLevel.CAN_EDIT]),
  /** The project's time zone, in which the insight is computed and shown. */
  timezone: Schema.String,
})
export type Insight = typeof Insight.Type

const Text400 = Schema.NullOr(Schema.String.pipe(Schema.check(Schema.isMaxLength(400))))
/** PostHog stores tags trimmed and lower-cased; an empty tag is refused. */
export const Tag = Schema.String.pipe(
  Schema.check(Schema.isMaxLength(255), Schema.makeFilter((s: string) => s.trim().length > 0 || 'expected a non-empty tag')),
)

/**
 * The writeable fields of an insight (interface 2.3), for create and update.
 * `dashboards` (DEPRECATED) puts the insight on exactly these dashboards of
 * its project, creating, restoring or removing tiles.
 */
export const InsightInput = Schema.Struct({
  /** Default null. At most 400 characters. */
  name: Schema.optional(Text400),
  /** Default null. At most 400 characters. */
  derivedName: Schema.optional(Text400),
  /** PostHog's legacy filter JSON. Default `{}`. */
  filters: Schema.optional(JsonObject),
  /** A query node (JSON). Default null. */
  query: Schema.optional(Schema.NullOr(JsonObject)),
  /** A 32-bit signed integer. Default null. */
  order: Schema.optional(Schema.NullOr(Schema.Int.pipe(Schema.check(Schema.isInt32())))),
  /** True soft-deletes the insight, false restores it. Default false. */
  deleted: Schema.optional(Schema.Boolean),
  /** DEPRECATED: dashboard ids of the same project. */
  dashboards: Schema.optional(Schema.Array(Schema.Int)),
  /** Default null. At most 400 characters. */
  description: Schema.optional(Text400),
  /** Trimmed, lower-cased and deduplicated, as PostHog. Default none. */
  tags: Schema.optional(Schema.Array(Tag)),
  /** Default false. */
  favorited: Schema.optional(Schema.Boolean),
  /** Default true (PostHog's current default); an update that omits it sets it to true, as PostHog. */
  saved: Schema.optional(Schema.Boolean),
})
export const CreateInsightInput = InsightInput
export type CreateInsightInput = typeof InsightInput.Type
export const UpdateInsightInput = InsightInput
export type UpdateInsightInput = typeof InsightInput.Type

/** PostHog's query execution modes, which `refresh` takes besides booleans. */
export const REFRESH_MODES = ['blocking', 'force_blocking', 'force_cache', 'async', 'lazy_async', 'force_async', 'async_except_on_cache_miss'] as const
export type RefreshMode = (typeof REFRESH_MODES)[number]

/** How `insights.get` computes the result. */
export const GetInsightOptions = Schema.Struct({
  /**
   * Default: answer a fresh cached result, else compute (PostHog's `blocking`).
   * `true`: recompute once `nextAllowedClientRefresh` has passed, else answer
   * the cached result. `force_cache`: never compute (null when nothing is
   * cached). `force_blocking`: always compute. See the core README, "Insight
   * results and cache", for every mode.
   */
  refresh: Schema.optional(Schema.Union([Schema.Boolean, Schema.Literals(REFRESH_MODES)])),
  /**
   * A dashboard showing the insight: its filter overrides apply and the
   * tile's layouts and colour are returned. Ignored when the insight is not on it (as PostHog).
   */
  fromDashboard: Schema.optional(Schema.Int),
  /**
   * Names the computation, should one run, so that `sightline.query.cancel`
   * can stop it (PostHog's `client_query_id`). Requests that join a
   * computation already running for the same result share it, and its id.
   */
  clientQueryId: Schema.optional(Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(200)))),
})
export type GetInsightOptions = typeof GetInsightOptions.Type

/** Filters of `insights.list`, and the page. */
export const ListInsightsOptions = Schema.Struct({
  ...PageOptions.fields,
  /** Insights created by this user (or by any of these users). */
  createdBy: Schema.optional(Schema.Union([Schema.Int, Schema.Array(Schema.Int)])),
  shortId: Schema.optional(Schema.String),
  /** True: saved insights and those on a dashboard; false: unsaved insights only. */
  saved: Schema.optional(Schema.Boolean),
  favorited: Schema.optional(Schema.Boolean),
  /** Case-insensitive substring of the name, derived name, description or a tag. */
  search: Schema.optional(Schema.String.pipe(Schema.check(Schema.isMaxLength(1000)))),
})
export type ListInsightsOptions = typeof ListInsightsOptions.Type
