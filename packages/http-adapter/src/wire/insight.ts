import { Schema } from 'effect'
import type { Insight as CoreInsight, UserSummary } from '@sightline/core'
import { DateTime, UserBasic } from './common.js'

const FreeForm = Schema.Record(Schema.String, Schema.Unknown)

const DashboardTile = Schema.Struct({
  id: Schema.Int,
  dashboard_id: Schema.Int,
  deleted: Schema.Boolean,
}).annotate({ identifier: 'DashboardTileBasic' })

/** Interface 2.3, field for field. */
export const Insight = Schema.Struct({
  id: Schema.Int,
  short_id: Schema.String,
  name: Schema.NullOr(Schema.String),
  derived_name: Schema.NullOr(Schema.String),
  filters: FreeForm,
  query: Schema.NullOr(FreeForm),
  order: Schema.NullOr(Schema.Int),
  deleted: Schema.Boolean,
  dashboards: Schema.Array(Schema.Int).annotate({ description: 'DEPRECATED: use `dashboard_tiles`. Ids of the dashboards showing the insight.' }),
  dashboard_tiles: Schema.Array(DashboardTile),
  last_refresh: Schema.NullOr(DateTime),
  next_allowed_client_refresh: Schema.NullOr(DateTime),
  result: Schema.Unknown.annotate({
    description: "The computed result, as `/insights/trend/` or `/insights/funnel/` answers it for the insight's filters; null in lists, for insights that do not compute (retention, paths, no filters) and for `refresh=force_cache` with nothing cached.",
  }),
  created_at: DateTime,
  created_by: Schema.NullOr(UserBasic),
  description: Schema.NullOr(Schema.String),
  updated_at: DateTime,
  tags: Schema.Array(Schema.String),
  favorited: Schema.Boolean,
  saved: Schema.Boolean,
  last_modified_at: DateTime,
  last_modified_by: Schema.NullOr(UserBasic),
  is_sample: Schema.Boolean,
  effective_restriction_level: Schema.Literals([21, 37]),
  effective_privilege_level: Schema.Literals([21, 37]),
  timezone: Schema.String,
  is_cached: Schema.Boolean.annotate({ description: 'Whether `result` came from the cache rather than being computed by this request.' }),
  layouts: Schema.optionalKey(FreeForm.annotate({ description: "With `from_dashboard` naming a dashboard that shows the insight: the tile's layouts." })),
  color: Schema.optionalKey(Schema.NullOr(Schema.String).annotate({ description: "With `from_dashboard` naming a dashboard that shows the insight: the tile's colour." })),
}).annotate({ identifier: 'Insight' })
export type WireInsight = typeof Insight.Type

const Text400 = Schema.NullOr(Schema.String.pipe(Schema.check(Schema.isMaxLength(400))))
const Tag = Schema.String.pipe(
  Schema.check(Schema.isMaxLength(255), Schema.makeFilter((s: string) => s.trim().length > 0 || 'This field may not be blank.')),
)

/**
 * The writeable fields (interface 2.3), for POST and PATCH (and what `viewed`
 * documents and ignores); read-only and unknown fields are ignored. `query` is
 * a query node, as an object or as its JSON text.
 */
export const InsightWrite = Schema.Struct({
  name: Schema.optionalKey(Text400),
  derived_name: Schema.optionalKey(Text400),
  filters: Schema.optionalKey(FreeForm),
  query: Schema.optionalKey(
    Schema.NullOr(Schema.Union([FreeForm, Schema.String])).annotate({ description: 'A query node: a JSON object, or its JSON text.' }),
  ),
  order: Schema.optionalKey(Schema.NullOr(Schema.Int.pipe(Schema.check(Schema.isInt32())))),
  deleted: Schema.optionalKey(Schema.Boolean.annotate({ description: 'True soft-deletes the insight, false restores it.' })),
  dashboards: Schema.optionalKey(Schema.Array(Schema.Int).annotate({ description: 'DEPRECATED: the dashboards (of the project) to show the insight on, exactly.' })),
  description: Schema.optionalKey(Text400),
  tags: Schema.optionalKey(Schema.Array(Tag)),
  favorited: Schema.optionalKey(Schema.Boolean),
  saved: Schema.optionalKey(Schema.Boolean),
}).annotate({ identifier: 'InsightRequest' })

const userToWire = (u: UserSummary | null): typeof UserBasic.Type | null =>
  u === null
    ? null
    : { id: u.id, uuid: u.uuid, distinct_id: u.distinctId, first_name: u.firstName, email: u.email, is_email_verified: u.isEmailVerified }

export const insightToWire = (i: CoreInsight): WireInsight => ({
  id: i.id,
  short_id: i.shortId,
  name: i.name,
  derived_name: i.derivedName,
  filters: i.filters,
  query: i.query,
  order: i.order,
  deleted: i.deleted,
  dashboards: i.dashboards,
  dashboard_tiles: i.dashboardTiles.map((t) => ({ id: t.id, dashboard_id: t.dashboardId, deleted: t.deleted })),
  last_refresh: i.lastRefresh,
  next_allowed_client_refresh: i.nextAllowedClientRefresh,
  result: i.result ?? null,
  created_at: i.createdAt,
  created_by: userToWire(i.createdBy),
  description: i.description,
  updated_at: i.updatedAt,
  tags: i.tags,
  favorited: i.favorited,
  saved: i.saved,
  last_modified_at: i.lastModifiedAt,
  last_modified_by: userToWire(i.lastModifiedBy),
  is_sample: i.isSample,
  effective_restriction_level: i.effectiveRestrictionLevel,
  effective_privilege_level: i.effectivePrivilegeLevel,
  timezone: i.timezone,
  is_cached: i.isCached,
  ...(i.layouts !== undefined && { layouts: i.layouts }),
  ...(i.color !== undefined && { color: i.color }),
})
