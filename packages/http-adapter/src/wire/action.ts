import { Schema } from 'effect'
import type { Action as CoreAction, UserSummary } from '@sightline/core'
import { DateTime, UserBasic } from './common.js'

const Matching = Schema.Literals(['contains', 'regex', 'exact'])
const Text = Schema.NullOr(Schema.String)

/** PostHog's `ActionStepJSONSerializer`, every field present. */
export const ActionStep = Schema.Struct({
  event: Text,
  properties: Schema.NullOr(Schema.Unknown).annotate({ description: 'Property filters: a list (AND) or a group `{type, values}`.' }),
  selector: Text,
  tag_name: Text,
  text: Text,
  text_matching: Schema.NullOr(Matching),
  href: Text,
  href_matching: Schema.NullOr(Matching),
  url: Text,
  url_matching: Schema.NullOr(Matching),
}).annotate({ identifier: 'ActionStep' })

/** PostHog's ActionSerializer, field for field. */
export const Action = Schema.Struct({
  id: Schema.Int,
  name: Schema.NullOr(Schema.String),
  description: Schema.String,
  tags: Schema.Array(Schema.String),
  post_to_slack: Schema.Boolean,
  slack_message_format: Schema.String,
  steps: Schema.Array(ActionStep),
  created_at: DateTime,
  created_by: Schema.NullOr(UserBasic),
  deleted: Schema.Boolean,
  is_calculating: Schema.Boolean.annotate({ description: 'Always false: actions are matched at query time.' }),
  last_calculated_at: DateTime,
  team_id: Schema.Int,
  is_action: Schema.Literal(true),
  bytecode_error: Schema.Null,
  pinned_at: Schema.NullOr(DateTime),
  creation_context: Schema.Null,
}).annotate({ identifier: 'Action' })
export type WireAction = typeof Action.Type

const StepWrite = Schema.Struct({
  event: Schema.optionalKey(Text),
  properties: Schema.optionalKey(Schema.NullOr(Schema.Unknown)),
  selector: Schema.optionalKey(Text),
  tag_name: Schema.optionalKey(Text),
  text: Schema.optionalKey(Text),
  text_matching: Schema.optionalKey(Schema.NullOr(Matching)),
  href: Schema.optionalKey(Text),
  href_matching: Schema.optionalKey(Schema.NullOr(Matching)),
  url: Schema.optionalKey(Text),
  url_matching: Schema.optionalKey(Schema.NullOr(Matching)),
}).annotate({ identifier: 'ActionStepRequest' })

/** The writeable fields, for POST (`name` required there) and PATCH; read-only and unknown fields are ignored. */
export const ActionWrite = Schema.Struct({
  name: Schema.optionalKey(Schema.String),
  description: Schema.optionalKey(Schema.String),
  tags: Schema.optionalKey(Schema.Array(Schema.String)),
  post_to_slack: Schema.optionalKey(Schema.Boolean),
  slack_message_format: Schema.optionalKey(Schema.String),
  steps: Schema.optionalKey(Schema.Array(StepWrite)),
  deleted: Schema.optionalKey(Schema.Boolean.annotate({ description: 'True soft-deletes the action, false restores it.' })),
  pinned_at: Schema.optionalKey(Schema.NullOr(Schema.String).annotate({ description: 'Any value pins the action now; null or "" unpins it.' })),
}).annotate({ identifier: 'ActionRequest' })

const userToWire = (u: UserSummary | null): typeof UserBasic.Type | null =>
  u === null ? null : { id: u.id, uuid: u.uuid, distinct_id: u.distinctId, first_name: u.firstName, email: u.email, is_email_verified: u.isEmailVerified }

export const actionToWire = (a: CoreAction): WireAction => ({
  id: a.id,
  name: a.name,
  description: a.description,
  tags: a.tags,
  post_to_slack: a.postToSlack,
  slack_message_format: a.slackMessageFormat,
  steps: a.steps,
  created_at: a.createdAt,
  created_by: userToWire(a.createdBy),
  deleted: a.deleted,
  is_calculating: false,
  last_calculated_at: a.lastCalculatedAt,
  team_id: a.projectId,
  is_action: true,
  bytecode_error: null,
  pinned_at: a.pinnedAt,
  creation_context: null,
})
