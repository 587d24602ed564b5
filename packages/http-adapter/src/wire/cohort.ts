import { Schema } from 'effect'
import type { Cohort as CoreCohort, Person, UserSummary } from '@sightline/core'
import { DateTime, UserBasic, Uuid } from './common.js'

const FreeForm = Schema.Record(Schema.String, Schema.Unknown)

/** PostHog's CohortSerializer, field for field (`query` and `experiment_set` are always empty here: a query is run once at creation, not kept). */
export const Cohort = Schema.Struct({
  id: Schema.Int,
  name: Schema.NullOr(Schema.String),
  description: Schema.String,
  groups: Schema.Array(FreeForm).annotate({ description: 'Legacy criteria, evaluated as PostHog converts them when `filters` has no criterion.' }),
  deleted: Schema.Boolean,
  filters: FreeForm.annotate({ description: '`{properties: {type: AND|OR, values: [...]}}` of person, behavioral and cohort criteria.' }),
  query: Schema.Null,
  is_calculating: Schema.Boolean.annotate({ description: 'Always false: membership is computed when read.' }),
  created_by: Schema.NullOr(UserBasic),
  created_at: DateTime,
  last_calculation: DateTime,
  errors_calculating: Schema.Int,
  count: Schema.Int.annotate({ description: 'The persons in the cohort, counted when the cohort is read.' }),
  is_static: Schema.Boolean,
  experiment_set: Schema.Array(Schema.Int),
}).annotate({ identifier: 'Cohort' })
export type WireCohort = typeof Cohort.Type

const PersonRefs = Schema.Array(Schema.String)

/**
 * The writeable fields, for POST and PATCH; read-only and unknown fields are
 * ignored. `distinct_ids` and `person_ids` add persons to a static cohort
 * (PostHog takes them as an uploaded CSV file).
 */
export const CohortWrite = Schema.Struct({
  name: Schema.optionalKey(Schema.NullOr(Schema.String)),
  description: Schema.optionalKey(Schema.String),
  groups: Schema.optionalKey(Schema.Array(FreeForm)),
  filters: Schema.optionalKey(Schema.Unknown),
  is_static: Schema.optionalKey(Schema.Boolean),
  deleted: Schema.optionalKey(Schema.Boolean.annotate({ description: 'True soft-deletes the cohort, false restores it.' })),
  query: Schema.optionalKey(
    Schema.NullOr(Schema.Unknown).annotate({
      description:
        "Create a static cohort only: an ActorsQuery of persons (`{kind: 'ActorsQuery', properties?, fixedProperties?, search?}`), run once; its persons are added. Not kept (read back as null). Other kinds, `source`, `limit` and `offset` are refused.",
    }),
  ),
  distinct_ids: Schema.optionalKey(PersonRefs.annotate({ description: 'Static cohorts: add the persons with these distinct ids (unknown ones are skipped).' })),
  person_ids: Schema.optionalKey(PersonRefs.annotate({ description: 'Static cohorts: add the persons with these uuids (unknown ones are skipped).' })),
}).annotate({ identifier: 'CohortRequest' })

/** A person as PostHog's cohort `persons` action lists them (its SerializedPerson). */
export const CohortPerson = Schema.Struct({
  type: Schema.Literal('person'),
  id: Uuid,
  uuid: Uuid,
  name: Schema.String,
  distinct_ids: Schema.Array(Schema.String),
  properties: FreeForm,
  is_identified: Schema.Boolean,
  created_at: DateTime,
}).annotate({ identifier: 'CohortPerson' })

const userToWire = (u: UserSummary | null): typeof UserBasic.Type | null =>
  u === null ? null : { id: u.id, uuid: u.uuid, distinct_id: u.distinctId, first_name: u.firstName, email: u.email, is_email_verified: u.isEmailVerified }

export const cohortToWire = (c: CoreCohort): WireCohort => ({
  id: c.id,
  name: c.name,
  description: c.description,
  groups: c.groups,
  deleted: c.deleted,
  filters: c.filters as unknown as Record<string, unknown>,
  query: null,
  is_calculating: false,
  created_by: userToWire(c.createdBy),
  created_at: c.createdAt,
  last_calculation: c.lastCalculation,
  errors_calculating: 0,
  count: c.count,
  is_static: c.isStatic,
  experiment_set: [],
})

/** PostHog's `get_person_name`: the e-mail, else the name or username, else the first distinct id, else the uuid. */
function personName(p: Person): string {
  for (const key of ['email', 'name', 'username']) {
    const v = p.properties[key]
    if (typeof v === 'string' && v !== '') return v
  }
  return p.distinctIds[0] ?? p.uuid
}

export const cohortPersonToWire = (p: Person): typeof CohortPerson.Type => ({
  type: 'person',
  id: p.uuid,
  uuid: p.uuid,
  name: personName(p),
  distinct_ids: p.distinctIds,
  properties: p.properties,
  is_identified: p.isIdentified,
  created_at: p.createdAt,
})
