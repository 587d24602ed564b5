import { MAX_PAGE_SIZE } from '@sightline/core'
import { Schema } from 'effect'
import type { QueryParam } from '../route.js'

/** `limit` and `offset`, as every list takes them. */
export const LIST_QUERY: ReadonlyArray<QueryParam> = [
  {
    name: 'limit',
    schema: Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: MAX_PAGE_SIZE }))),
    description: 'Number of results to return per page (default 100, at most 1,000).',
  },
  {
    name: 'offset',
    schema: Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0))),
    description: 'The initial index from which to return the results.',
  },
]

/** `limit` and `page`, as PostHog's activity endpoints take them. */
export const ACTIVITY_QUERY: ReadonlyArray<QueryParam> = [
  {
    name: 'limit',
    schema: Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: MAX_PAGE_SIZE }))),
    description: 'Number of entries per page (default 10, at most 1,000).',
  },
  {
    name: 'page',
    schema: Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(1))),
    description: 'The page to return, from 1.',
  },
]
