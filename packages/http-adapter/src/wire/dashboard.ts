import { Schema } from 'effect'
import type { Dashboard as CoreDashboard, DashboardTile as CoreTile, Insight as CoreInsight, UserSummary } from '@sightline/core'
import { DateTime, UserBasic } from './common.js'
import { Insight, insightToWire } from './insight.js'

const FreeForm = Schema.Record(Schema.String, Schema.Unknown)

/**
 * What Sightline has no notion of answers as a PostHog dashboard without it
 * would: not shared, everyone in the project can edit (restriction 21,
 * privilege 37), never viewed or refreshed as a whole.
 */
const basicFields = {
  id: Schema.Int,
  name: Schema.String,
  description: Schema.String,
  pinned: Schema.Boolean.annotate({ description: 'Pinned dashboards come first in the list.' }),
  created_at: DateTime,
  created_by: Schema.NullOr(UserBasic),
  last_accessed_at: Schema.Null,
  is_shared: Schema.Boolean.annotate({ description: 'Always false: no sharing.' }),
  deleted: Schema.Boolean.annotate({ description: 'True only in the answer of the PATCH that soft-deleted it.' }),
  creation_mode: Schema.Literal('default'),
  tags: Schema.Array(Schema.String).annotate({ description: 'Trimmed, lower-cased and deduplicated, as an insight\'s.' }),
  restriction_level: Schema.Literal(21),
  effective_restriction_level: Schema.Literal(21),
  effective_privilege_level: Schema.Literal(37),
  user_access_level: Schema.Literal('editor'),
  access_control_version: Schema.Literal('v2'),
  last_refresh: Schema.Null,
  team_id: Schema.Int,
}

/** PostHog's DashboardBasicSerializer: what lists answer (no filters, no tiles). */
export const DashboardBasic = Schema.Struct(basicFields).annotate({ identifier: 'DashboardBasic' })

/** PostHog's TextSerializer: a text tile's markdown. Its id is its tile's (one text per tile). */
export const DashboardText = Schema.Struct({
  id: Schema.Int,
  body: Schema.String,
  created_by: Schema.NullOr(UserBasic),
  last_modified_at: DateTime,
  last_modified_by: Schema.NullOr(UserBasic),
  team: Schema.Int,
}).annotate({ identifier: 'DashboardText' })

/** PostHog's DashboardTileSerializer: a tile shows an insight or a text (the other is null). */
export const DashboardTile = Schema.Struct({
  id: Schema.Int,
  insight: Schema.NullOr(
    Insight.annotate({ description: "The insight as `GET /insights/:id/?from_dashboard=<this dashboard>` answers it, with its cached result only (never computed here)." }),
  ),
  text: Schema.NullOr(DashboardText),
  layouts: FreeForm.annotate({ description: 'Layouts by breakpoint, e.g. `{"sm": {"x": 0, "y": 0, "w": 6, "h": 5}}`.' }),
  color: Schema.NullOr(Schema.String),
  order: Schema.Int.annotate({ description: "The tile's place, by its `sm` layout's y, then x (100 when unset), as PostHog orders them." }),
  last_refresh: Schema.NullOr(DateTime),
  is_cached: Schema.Boolean,
}).annotate({ identifier: 'DashboardTile' })

/** PostHog's DashboardSerializer: what create, retrieve and update answer. */
export const Dashboard = Schema.Struct({
  ...basicFields,
  filters: FreeForm.annotate({ description: 'Overrides for every tile: `date_from`, `date_to`, `properties` (ANDed with the insight\'s).' }),
  variables: FreeForm,
  breakdown_colors: Schema.Array(Schema.Unknown),
  data_color_theme_id: Schema.Null,
  persisted_filters: Schema.NullOr(FreeForm),
  persisted_variables: Schema.Null,
  tiles: Schema.Array(DashboardTile),
}).annotate({ identifier: 'Dashboard' })

const TilePatch = Schema.Struct({
  id: Schema.optionalKey(Schema.Int.annotate({ description: 'A tile of this dashboard; left out for a new text tile.' })),
  text: Schema.optionalKey(
    Schema.NullOr(
      Schema.Struct({
        id: Schema.optionalKey(Schema.NullOr(Schema.Int.annotate({ description: "The text's id (its tile's): this text gets the new body." }))),
        body: Schema.String.annotate({ description: 'Markdown, at most 4,000 characters.' }),
      }),
    ).annotate({ description: 'A new text tile (no ids), or a new body for a text tile. Null: no text (an insight tile).' }),
  ),
  layouts: Schema.optionalKey(FreeForm),
  color: Schema.optionalKey(Schema.NullOr(Schema.String)),
  deleted: Schema.optionalKey(Schema.Boolean.annotate({ description: 'True removes the tile: the insight leaves the dashboard.' })),
}).annotate({ identifier: 'DashboardTileRequest' })

/**
 * The writeable fields, for POST and PATCH; read-only and unknown fields
 * (`use_template`, `restriction_level` ...) are ignored. Insights join a
 * dashboard through their own `dashboards` field.
 */
export const DashboardWrite = Schema.Struct({
  name: Schema.optionalKey(Schema.NullOr(Schema.String)),
  description: Schema.optionalKey(Schema.String),
  filters: Schema.optionalKey(FreeForm),
  pinned: Schema.optionalKey(Schema.Boolean),
  tags: Schema.optionalKey(Schema.Array(Schema.String)),
  deleted: Schema.optionalKey(
    Schema.Boolean.annotate({
      description: 'True soft-deletes the dashboard and removes its tiles (the insights stay). False on a deleted dashboard restores it, with every tile it had and their insights, as PostHog.',
    }),
  ),
  tiles: Schema.optionalKey(
    Schema.Array(TilePatch).annotate({ description: "PATCH only: change tiles' `layouts` and `color`, remove them with `deleted: true`, add a text tile (`text` without ids) or rewrite one's `text`." }),
  ),
}).annotate({ identifier: 'DashboardRequest' })

const userToWire = (u: UserSummary | null): typeof UserBasic.Type | null =>
  u === null ? null : { id: u.id, uuid: u.uuid, distinct_id: u.distinctId, first_name: u.firstName, email: u.email, is_email_verified: u.isEmailVerified }

const basicToWire = (d: CoreDashboard, projectId: number): typeof DashboardBasic.Type => ({
  id: d.id,
  name: d.name,
  description: d.description,
  pinned: d.pinned,
  created_at: d.createdAt,
  created_by: userToWire(d.createdBy),
  last_accessed_at: null,
  is_shared: false,
  deleted: d.deleted,
  creation_mode: 'default',
  tags: d.tags,
  restriction_level: 21,
  effective_restriction_level: 21,
  effective_privilege_level: 37,
  user_access_level: 'editor',
  access_control_version: 'v2',
  last_refresh: null,
  team_id: projectId,
})

export const dashboardBasicToWire = basicToWire

/** PostHog's tile order: by the `sm` layout's y, then x, a missing one as 100. */
function layoutKey(layouts: Record<string, unknown>): [number, number] {
  const sm = layouts.sm
  const at = (k: 'x' | 'y') => {
    const v = typeof sm === 'object' && sm !== null ? (sm as Record<string, unknown>)[k] : undefined
    return typeof v === 'number' ? v : 100
  }
  return [at('y'), at('x')]
}

const textToWire = (t: NonNullable<CoreTile['text']>, projectId: number): typeof DashboardText.Type => ({
  id: t.id,
  body: t.body,
  created_by: userToWire(t.createdBy),
  last_modified_at: t.lastModifiedAt,
  last_modified_by: userToWire(t.lastModifiedBy),
  team: projectId,
})

/** The dashboard with its tiles; `insights` holds each insight tile's insight as read for this dashboard, by insight id. */
export function dashboardToWire(d: CoreDashboard, projectId: number, insights: ReadonlyMap<number, CoreInsight>): typeof Dashboard.Type {
  // Array.prototype.sort is stable: equal layouts keep core's order (insight order, then tile id).
  const tiles = d.tiles
    .filter((t) => t.text !== null || (t.insightId !== null && insights.has(t.insightId)))
    .sort((x, y) => {
      const [a, b] = [layoutKey(x.layouts), layoutKey(y.layouts)]
      return a[0] - b[0] || a[1] - b[1]
    })
  return {
    ...basicToWire(d, projectId),
    filters: d.filters,
    variables: {},
    breakdown_colors: [],
    data_color_theme_id: null,
    persisted_filters: Object.keys(d.filters).length > 0 ? d.filters : null,
    persisted_variables: null,
    tiles: tiles.map((t, order) => {
      const look = { layouts: t.layouts, color: t.color, order }
      // PostHog's to_representation: a tile without an insight has no refresh and is not cached.
      if (t.insightId === null) return { id: t.id, insight: null, text: textToWire(t.text!, projectId), ...look, last_refresh: null, is_cached: false }
      const insight = insightToWire(insights.get(t.insightId)!)
      return { id: t.id, insight, text: null, ...look, last_refresh: insight.last_refresh, is_cached: insight.is_cached }
    }),
  }
}
