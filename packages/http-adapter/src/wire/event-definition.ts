import { Schema } from 'effect'
import type { EventDefinition as CoreEventDefinition } from '@sightline/core'
import { DateTime, UserBasic, Uuid } from './common.js'

/** Interface 2.4, field for field. Actions are not event definitions here: the action fields are constant. */
export const EventDefinition = Schema.Struct({
  id: Uuid,
  name: Schema.String,
  created_at: DateTime,
  last_seen_at: DateTime,
  last_updated_at: DateTime,
  tags: Schema.Array(Schema.String),
  is_action: Schema.Boolean,
  action_id: Schema.NullOr(Schema.Int),
  is_calculating: Schema.Boolean,
  last_calculated_at: Schema.NullOr(DateTime),
  created_by: Schema.NullOr(UserBasic),
  post_to_slack: Schema.Boolean,
}).annotate({ identifier: 'EventDefinition' })

const IsoTime = Schema.String.pipe(Schema.check(Schema.isMaxLength(40))).annotate({ format: 'date-time' })

/** PATCH body: the writeable fields; read-only and unknown fields are ignored. */
export const PatchedEventDefinition = Schema.Struct({
  name: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(400)))),
  created_at: Schema.optionalKey(IsoTime),
  last_seen_at: Schema.optionalKey(IsoTime),
  tags: Schema.optionalKey(Schema.Array(Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(255))))),
  post_to_slack: Schema.optionalKey(Schema.Boolean),
  description: Schema.optionalKey(Schema.NullOr(Schema.String.pipe(Schema.check(Schema.isMaxLength(10_000))))),
}).annotate({ identifier: 'PatchedEventDefinitionRequest' })

export const eventDefinitionToWire = (d: CoreEventDefinition): typeof EventDefinition.Type => ({
  id: d.id,
  name: d.name,
  created_at: d.createdAt,
  last_seen_at: d.lastSeenAt,
  last_updated_at: d.lastUpdatedAt,
  tags: d.tags,
  is_action: false,
  action_id: null,
  is_calculating: false,
  last_calculated_at: null,
  created_by: null,
  post_to_slack: d.postToSlack,
})
