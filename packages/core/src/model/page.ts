import { Schema } from 'effect'

/** PostHog's default page size for list endpoints. */
export const DEFAULT_PAGE_SIZE = 100
/** The largest page Sightline returns; larger `limit`s are refused. */
export const MAX_PAGE_SIZE = 1000

/** `limit` and `offset` of every list, validated at the edge. */
export const PageOptions = Schema.Struct({
  /** Default 100, at most 1,000. */
  limit: Schema.optional(Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: MAX_PAGE_SIZE })))),
  /** Default 0. */
  offset: Schema.optional(Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0)))),
})
export type PageOptions = typeof PageOptions.Type

/** One page of a list and the total it was cut from (the HTTP envelope adds `next` and `previous`). */
export interface Page<T> {
  readonly count: number
  readonly results: ReadonlyArray<T>
}
