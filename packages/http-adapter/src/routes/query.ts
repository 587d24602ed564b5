import { MAX_PAGE_SIZE } from '@sightline/core'
import { Schema } from 'effect'
import type { QueryParam } from '../route.js'

/** A page size from `minimum` to the largest page. */
const pageSize = (minimum: 0 | 1) => Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum, maximum: MAX_PAGE_SIZE })))
const OFFSET = Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0)))

/** `limit` and `offset`, as every list takes them. */
export const LIST_QUERY: ReadonlyArray<QueryParam> = [
  {
    name: 'limit',
    schema: pageSize(1),
    description: 'Number of results to return per page (default 100, at most 1,000).',
  },
  {
    name: 'offset',
    schema: OFFSET,
    description: 'The initial index from which to return the results.',
  },
]

/** `limit` and `page`, as PostHog's activity endpoints take them. */
export const ACTIVITY_QUERY: ReadonlyArray<QueryParam> = [
  {
    name: 'limit',
    schema: pageSize(1),
    description: 'Number of entries per page (default 10, at most 1,000).',
  },
  {
    name: 'page',
    schema: Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(1))),
    description: 'The page to return, from 1.',
  },
]

/** The page of a people URL, and what else PostHog's people URLs carry beside the analysis' parameters: its random cache key. */
export const PEOPLE_QUERY: ReadonlyArray<QueryParam> = [
  {
    name: 'limit',
    schema: pageSize(0),
    description: "Number of persons per page (0 or absent: the default 100, as PostHog's people endpoints read it; at most 1,000).",
  },
  ...LIST_QUERY.filter((q) => q.name !== 'limit'),
  {
    name: 'cache_invalidation_key',
    schema: Schema.String,
    description: "PostHog's people URLs carry a random key to miss its people cache; accepted and not read (no people list is cached).",
  },
]

/** The correlation persons' page keys, PostHog's names for `limit` and `offset` there. */
export const CORRELATION_PEOPLE_QUERY: ReadonlyArray<QueryParam> = [
  ...PEOPLE_QUERY,
  {
    name: 'funnel_correlation_person_limit',
    schema: pageSize(0),
    description: 'Persons per page (0 or absent: the default 100), read instead of limit when it or funnel_correlation_person_offset is sent.',
  },
  {
    name: 'funnel_correlation_person_offset',
    schema: OFFSET,
    description: 'The index of the first person of the page, read instead of offset.',
  },
]
