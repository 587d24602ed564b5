import { Schema } from 'effect'

/** Every error answer (drf-exceptions-hog's shape). */
export const ErrorBody = Schema.Struct({
  type: Schema.String,
  code: Schema.String,
  detail: Schema.String,
  attr: Schema.NullOr(Schema.String),
}).annotate({ identifier: 'Error', description: "PostHog's error shape: `attr` names the failing field of a validation error." })

export const DateTime = Schema.String.annotate({ format: 'date-time' })
export const Uuid = Schema.String.annotate({ format: 'uuid' })
export const Url = Schema.String.annotate({ format: 'uri' })

/** The list envelope of every list endpoint; named `Paginated<Name>List` as drf-spectacular names it. */
export function Paginated<S extends Schema.Top>(item: S, name: string) {
  return Schema.Struct({
    count: Schema.Int,
    next: Schema.NullOr(Url),
    previous: Schema.NullOr(Url),
    results: Schema.Array(item),
  }).annotate({ identifier: `Paginated${name}List` })
}

/** The embedded user of `created_by` (PostHog's UserBasicSerializer). */
export const UserBasic = Schema.Struct({
  id: Schema.Int,
  uuid: Uuid,
  distinct_id: Schema.String,
  first_name: Schema.String,
  email: Schema.String.annotate({ format: 'email' }),
  is_email_verified: Schema.Boolean,
}).annotate({ identifier: 'UserBasic' })
