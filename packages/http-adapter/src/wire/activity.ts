import { Schema } from 'effect'
import type { ActivityChange, ActivityEntry } from '@sightline/core'
import { DateTime, Url } from './common.js'

/** PostHog's UserMinimalSerializer, as the activity log shows who acted. */
const ActivityUser = Schema.Struct({
  first_name: Schema.String,
  email: Schema.String.annotate({ format: 'email' }),
}).annotate({ identifier: 'ActivityLogUser' })

const Change = Schema.Struct({
  type: Schema.String,
  action: Schema.String,
  field: Schema.NullOr(Schema.String),
  before: Schema.Unknown,
  after: Schema.Unknown,
}).annotate({ identifier: 'ActivityLogChange' })

/** PostHog's ActivityLogSerializer: who did what to which item, field by field. */
export const ActivityLogEntry = Schema.Struct({
  user: Schema.NullOr(ActivityUser).annotate({ description: 'Null for changes made by the host itself, not through a key.' }),
  activity: Schema.String,
  scope: Schema.String,
  item_id: Schema.String,
  detail: Schema.Struct({
    changes: Schema.Array(Change),
    trigger: Schema.Null,
    name: Schema.NullOr(Schema.String),
    short_id: Schema.NullOr(Schema.String),
  }),
  created_at: DateTime,
}).annotate({ identifier: 'ActivityLogEntry' })

/** PostHog's activity envelope (`activity_page_response`): pages by `page` and `limit`. */
export const ActivityLogPage = Schema.Struct({
  results: Schema.Array(ActivityLogEntry),
  next: Schema.NullOr(Url),
  previous: Schema.NullOr(Url),
  total_count: Schema.Int,
}).annotate({ identifier: 'ActivityLogPage' })

export type ActivityUserSummary = typeof ActivityUser.Type

const camelToSnake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
/** A field name core spells in camelCase (`derivedName`, `postToSlack`); file names (`plugin.json`) are not. */
const IDENTIFIER = /^[a-z][A-Za-z0-9]*$/
/** The fields of a plugin that `source_updated` entries name, besides its files. */
const PLUGIN_FIELDS = new Set(['name', 'configSchema'])

/** A change's field as PostHog spells it. A `source_updated` entry names files, which keep their names. */
function fieldOf(entry: ActivityEntry, change: ActivityChange): string | null {
  if (change.field === undefined) return null
  if (entry.activity === 'source_updated' && !PLUGIN_FIELDS.has(change.field)) return change.field
  return IDENTIFIER.test(change.field) ? camelToSnake(change.field) : change.field
}

const textOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null)

export function activityToWire(entry: ActivityEntry, users: ReadonlyMap<number, ActivityUserSummary>): typeof ActivityLogEntry.Type {
  return {
    user: entry.userId === null ? null : (users.get(entry.userId) ?? null),
    activity: entry.activity,
    scope: entry.scope,
    item_id: entry.itemId,
    detail: {
      changes: (entry.detail.changes ?? []).map((c) => ({
        type: c.type,
        action: c.action,
        field: fieldOf(entry, c),
        before: c.before ?? null,
        after: c.after ?? null,
      })),
      trigger: null,
      name: textOrNull(entry.detail.name),
      short_id: textOrNull(entry.detail.short_id),
    },
    created_at: entry.createdAt,
  }
}
