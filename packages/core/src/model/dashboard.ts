import { Schema } from 'effect'
import { JsonObject, Tag, UserSummary } from './insight.js'

/**
 * Filter overrides a dashboard applies to its tiles, in PostHog's JSON shape
 * (`date_from`, `date_to`, `properties`). Other keys are kept as given.
 */
export const DashboardFilters = Schema.StructWithRest(
  Schema.Struct({
    date_from: Schema.optional(Schema.NullOr(Schema.String)),
    date_to: Schema.optional(Schema.NullOr(Schema.String)),
    properties: Schema.optional(Schema.NullOr(Schema.Union([Schema.Array(Schema.Unknown), JsonObject]))),
  }),
  [Schema.Record(Schema.String, Schema.Unknown)],
).pipe(Schema.check(Schema.makeFilter((u: object) => Schema.is(JsonObject)(u) || 'expected JSON values only')))
export type DashboardFilters = typeof DashboardFilters.Type

/** PostHog's `Text` of a text tile. Sightline keeps one per tile: its id is the tile's. */
export const DashboardText = Schema.Struct({
  id: Schema.Int,
  /** Markdown, at most 4,000 characters. */
  body: Schema.String,
  createdBy: Schema.NullOr(UserSummary),
  /** When the text was written or last changed. */
  lastModifiedAt: Schema.String,
  /** Who last changed it; null until someone changes it after writing it. */
  lastModifiedBy: Schema.NullOr(UserSummary),
})
export type DashboardText = typeof DashboardText.Type

/** A tile: one insight or one text shown on one dashboard, with its layout and colour. */
export const DashboardTile = Schema.Struct({
  id: Schema.Int,
  dashboardId: Schema.Int,
  /** Null on a text tile. */
  insightId: Schema.NullOr(Schema.Int),
  /** Null on an insight tile. */
  text: Schema.NullOr(DashboardText),
  /** PostHog's layouts by breakpoint, e.g. `{ sm: { x, y, w, h } }`. */
  layouts: JsonObject,
  color: Schema.NullOr(Schema.String),
  deleted: Schema.Boolean,
})
export type DashboardTile = typeof DashboardTile.Type

export const Dashboard = Schema.Struct({
  id: Schema.Int,
  name: Schema.String,
  description: Schema.String,
  filters: DashboardFilters,
  createdAt: Schema.String,
  createdBy: Schema.NullOr(UserSummary),
  /** Pinned dashboards come first in the list, as PostHog's. */
  pinned: Schema.Boolean,
  tags: Schema.Array(Schema.String),
  /** True only in the answer of the `update` that soft-deleted it (a deleted dashboard is otherwise not found). */
  deleted: Schema.Boolean,
  /** The tiles shown: not removed, and whose insight is not deleted; by insight `order`, then tile id. */
  tiles: Schema.Array(DashboardTile),
})
export type Dashboard = typeof Dashboard.Type

const Name = Schema.String.pipe(Schema.check(Schema.isMaxLength(400)))
const Description = Schema.String.pipe(Schema.check(Schema.isMaxLength(10_000)))
const Color = Schema.NullOr(Schema.String.pipe(Schema.check(Schema.isMaxLength(400))))

export const CreateDashboardInput = Schema.Struct({
  name: Name,
  /** Default ''. */
  description: Schema.optional(Description),
  /** Default `{}`. */
  filters: Schema.optional(DashboardFilters),
  /** Default false. */
  pinned: Schema.optional(Schema.Boolean),
  /** Trimmed, lower-cased and deduplicated, as an insight's. Default none. */
  tags: Schema.optional(Schema.Array(Tag)),
})
export type CreateDashboardInput = typeof CreateDashboardInput.Type

const TextBody = Schema.String.pipe(Schema.check(Schema.isMaxLength(4000)))

/**
 * A change to one of the dashboard's tiles inside `update` (PostHog's
 * `PATCH /dashboards/:id/` with `tiles`), or a new text tile: with `text` and
 * no tile id (nor text id), a text tile is added with the given look.
 */
export const DashboardTilePatch = Schema.Struct({
  /** A tile shown on this dashboard; none for a new text tile. */
  id: Schema.optional(Schema.Int),
  /** A text tile's text: a new one, or (with the tile's `id`, or its own `id`, which is the tile's) a new body for it. */
  text: Schema.optional(Schema.Struct({ id: Schema.optional(Schema.NullOr(Schema.Int)), body: TextBody })),
  layouts: Schema.optional(JsonObject),
  color: Schema.optional(Color),
  /** True removes the tile (the insight leaves the dashboard); false changes nothing. */
  deleted: Schema.optional(Schema.Boolean),
})
export type DashboardTilePatch = typeof DashboardTilePatch.Type

export const UpdateDashboardInput = Schema.Struct({
  name: Schema.optional(Name),
  description: Schema.optional(Description),
  filters: Schema.optional(DashboardFilters),
  pinned: Schema.optional(Schema.Boolean),
  tags: Schema.optional(Schema.Array(Tag)),
  /** Tile changes, applied in order with the rest in one transaction; at most 1,000. */
  tiles: Schema.optional(Schema.Array(DashboardTilePatch).pipe(Schema.check(Schema.isMaxLength(1000)))),
  /**
   * True soft-deletes the dashboard after the other changes, as `delete` does.
   * False on a deleted dashboard restores it first, as PostHog's undelete: with
   * every tile it ever had, and their insights restored too.
   */
  deleted: Schema.optional(Schema.Boolean),
})
export type UpdateDashboardInput = typeof UpdateDashboardInput.Type

export const AddDashboardTileInput = Schema.Struct({
  insightId: Schema.Int,
  /** Default `{}`. */
  layouts: Schema.optional(JsonObject),
  /** Default null. */
  color: Schema.optional(Color),
})
export type AddDashboardTileInput = typeof AddDashboardTileInput.Type

export const UpdateDashboardTileInput = Schema.Struct({
  layouts: Schema.optional(JsonObject),
  color: Schema.optional(Color),
})
export type UpdateDashboardTileInput = typeof UpdateDashboardTileInput.Type
