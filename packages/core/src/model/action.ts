import { Schema } from 'effect'
import { PropertyFilters } from '../query/filters/property-filters.js'
import { UserSummary } from './insight.js'

/** How a step's `url`, `text` or `href` is matched (PostHog's `ActionStepMatching`). */
export const ActionStepMatching = Schema.Literals(['contains', 'regex', 'exact'])
export type ActionStepMatching = typeof ActionStepMatching.Type

const Text = Schema.NullOr(Schema.String.pipe(Schema.check(Schema.isMaxLength(65_535))))

/**
 * One step as written (PostHog's `ActionStepJSONSerializer`): every field is
 * optional and nullable; unknown fields are ignored. An event matches the step
 * when all its given parts match:
 * - `event`: the event name; null or '' means any event;
 * - `url` (when not ''): the event's `$current_url`, by `url_matching`:
 *   `contains` (the default when the field is absent; SQL LIKE as PostHog,
 *   so `%` and `_` are wildcards and `\` escapes them), `exact` or `regex`;
 * - `selector`, `tag_name`, `text` (`text_matching`), `href` (`href_matching`):
 *   the autocapture elements, and only when `event` is `$autocapture`, as
 *   PostHog. `text` and `href` default to `exact`; `contains` ignores case;
 * - `properties`: property filters (a list means AND, or a group).
 */
export const ActionStepInput = Schema.Struct({
  event: Schema.optional(Text),
  properties: Schema.optional(Schema.NullOr(PropertyFilters)),
  selector: Schema.optional(Text),
  tag_name: Schema.optional(Text),
  text: Schema.optional(Text),
  text_matching: Schema.optional(Schema.NullOr(ActionStepMatching)),
  href: Schema.optional(Text),
  href_matching: Schema.optional(Schema.NullOr(ActionStepMatching)),
  url: Schema.optional(Text),
  url_matching: Schema.optional(Schema.NullOr(ActionStepMatching)),
})
export type ActionStepInput = typeof ActionStepInput.Type

/** A stored step: every field present (PostHog's `ActionStepJSON`, as `asdict` stores it). */
export const ActionStep = Schema.Struct({
  event: Schema.NullOr(Schema.String),
  properties: Schema.NullOr(PropertyFilters),
  selector: Schema.NullOr(Schema.String),
  tag_name: Schema.NullOr(Schema.String),
  text: Schema.NullOr(Schema.String),
  text_matching: Schema.NullOr(ActionStepMatching),
  href: Schema.NullOr(Schema.String),
  href_matching: Schema.NullOr(ActionStepMatching),
  url: Schema.NullOr(Schema.String),
  url_matching: Schema.NullOr(ActionStepMatching),
})
export type ActionStep = typeof ActionStep.Type

/** A written step with PostHog's defaults filled in: nulls, and `url_matching` `contains` when absent. */
export const normalizeStep = (s: ActionStepInput): ActionStep => ({
  event: s.event ?? null,
  properties: s.properties ?? null,
  selector: s.selector ?? null,
  tag_name: s.tag_name ?? null,
  text: s.text ?? null,
  text_matching: s.text_matching ?? null,
  href: s.href ?? null,
  href_matching: s.href_matching ?? null,
  url: s.url ?? null,
  url_matching: s.url_matching === undefined ? 'contains' : s.url_matching,
})

/** What a query needs of an action: its steps (an event matches when any step matches). */
export interface ActionDefinition {
  readonly id: number
  readonly name: string | null
  readonly steps: ReadonlyArray<ActionStep>
}

/** A named definition of events (PostHog's Action). */
export const Action = Schema.Struct({
  id: Schema.Int,
  projectId: Schema.Int,
  name: Schema.NullOr(Schema.String),
  description: Schema.String,
  tags: Schema.Array(Schema.String),
  postToSlack: Schema.Boolean,
  slackMessageFormat: Schema.String,
  steps: Schema.Array(ActionStep),
  createdAt: Schema.String,
  createdBy: Schema.NullOr(UserSummary),
  deleted: Schema.Boolean,
  /** DEPRECATED in PostHog: the creation time. */
  lastCalculatedAt: Schema.String,
  pinnedAt: Schema.NullOr(Schema.String),
})
export type Action = typeof Action.Type

const Name = Schema.String.pipe(Schema.check(Schema.isMaxLength(400)))
/** PostHog stores tags trimmed and lower-cased; an empty tag is refused. */
const Tag = Schema.String.pipe(
  Schema.check(Schema.isMaxLength(255), Schema.makeFilter((s: string) => s.trim().length > 0 || 'expected a non-empty tag')),
)

const ActionFields = {
  /** Default ''. */
  description: Schema.optional(Schema.String.pipe(Schema.check(Schema.isMaxLength(10_000)))),
  /** Trimmed, lower-cased and deduplicated. Default none. */
  tags: Schema.optional(Schema.Array(Tag)),
  /** Default false. */
  postToSlack: Schema.optional(Schema.Boolean),
  /** Default ''. At most 1,200 characters. */
  slackMessageFormat: Schema.optional(Schema.String.pipe(Schema.check(Schema.isMaxLength(1200)))),
  /** Default none. An action without steps, like a step without parts, matches every event (as PostHog). */
  steps: Schema.optional(Schema.Array(ActionStepInput)),
  /** Any non-empty value pins the action now (a pinned action keeps its time); null or '' unpins. */
  pinnedAt: Schema.optional(Schema.NullOr(Schema.String)),
}

/** A new action. The name is unique among the project's actions that are not deleted. */
export const CreateActionInput = Schema.Struct({ name: Name, ...ActionFields })
export type CreateActionInput = typeof CreateActionInput.Type

/** Changes to an action; `deleted: true` soft-deletes it, `false` restores it. `steps` replaces every step. */
export const UpdateActionInput = Schema.Struct({ name: Schema.optional(Name), ...ActionFields, deleted: Schema.optional(Schema.Boolean) })
export type UpdateActionInput = typeof UpdateActionInput.Type
