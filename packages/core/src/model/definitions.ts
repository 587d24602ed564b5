import { Schema } from 'effect'

/** An event name seen in a project (PostHog's EventDefinition). */
export interface EventDefinition {
  readonly id: string
  readonly name: string
  readonly createdAt: string
  readonly lastSeenAt: string
  readonly lastUpdatedAt: string
  readonly tags: ReadonlyArray<string>
  readonly description: string | null
  readonly postToSlack: boolean
}

/** PostHog's PropertyDefinition.Type. */
export const PropertyDefinitionType = { event: 1, person: 2, group: 3 } as const
export type PropertyDefinitionKind = keyof typeof PropertyDefinitionType

export type PropertyType = 'String' | 'Numeric' | 'Boolean' | 'DateTime'

/** A property name seen in a project, with the type inferred from its first values. */
export interface PropertyDefinition {
  readonly id: string
  readonly name: string
  readonly type: PropertyDefinitionKind
  /** For group properties, the group type index; otherwise null. */
  readonly groupTypeIndex: number | null
  readonly propertyType: PropertyType | null
  readonly isNumerical: boolean
  readonly lastSeenAt: string
}

const Tag = Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(255)))
const IsoTime = Schema.String.pipe(Schema.check(Schema.isMaxLength(40)))

/** The writeable fields of an event definition (PATCH). */
export const UpdateEventDefinitionInput = Schema.Struct({
  name: Schema.optional(Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(400)))),
  description: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.check(Schema.isMaxLength(10_000))))),
  tags: Schema.optional(Schema.Array(Tag)),
  postToSlack: Schema.optional(Schema.Boolean),
  /** ISO 8601. */
  createdAt: Schema.optional(IsoTime),
  /** ISO 8601. */
  lastSeenAt: Schema.optional(IsoTime),
})
export type UpdateEventDefinitionInput = typeof UpdateEventDefinitionInput.Type
