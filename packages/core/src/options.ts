import { Schema } from 'effect'
import { MAX_TIMEOUT_MS } from './query/execution/query-executor.js'
import type { StorageAdapter } from './storage.js'

const isStorageAdapter = (u: unknown): u is StorageAdapter =>
  typeof u === 'object' && u !== null && typeof (u as StorageAdapter).open === 'function' && typeof (u as StorageAdapter).name === 'string'

const PositiveInt = Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(1)))

/** Options of `createSightline`. */
export const SightlineOptions = Schema.Struct({
  /** Where everything is stored: `duckdbStorage()` or `postgresStorage(...)`. */
  storage: Schema.declare(isStorageAdapter, { expected: 'a storage adapter such as duckdbStorage()' }),
  /**
   * The catalogue of installable plugins, served by `plugins.repository()`;
   * `check_for_updates` compares plugin tags with it. Default: empty.
   */
  pluginRepository: Schema.optional(
    Schema.Array(
      Schema.Struct({
        name: Schema.String,
        url: Schema.String,
        description: Schema.String,
        icon: Schema.String,
        tag: Schema.String,
        maintainer: Schema.optional(Schema.String),
        type: Schema.optional(Schema.Literals(['data_in', 'data_out', 'transformation', 'other'])),
      }),
    ),
  ),
  /** "Now" for relative dates, defaults and generated timestamps. Default: the system clock. */
  clock: Schema.optional(Schema.declare((u: unknown): u is () => Date => typeof u === 'function', { expected: 'a function returning a Date' })),
  /** Event properties in typed columns (`sightline.properties`). */
  properties: Schema.optional(
    Schema.Struct({
      /**
       * Promote a numeric event property to a `Numeric` slot by itself once
       * this many analyses of its project (counted by this engine) read it as
       * a number from the JSON: when the project's event property definition
       * says `Numeric` and a `Numeric` slot is free. Its stored events are
       * filled in the background, and analyses read the slot once that is
       * done, with the same answers. PostHog materializes the properties its
       * slow queries read in the same way. Default: off.
       */
      promoteNumbersAfter: Schema.optional(PositiveInt),
    }),
  ),
  /** Limits on analyses (trends, funnels ...), each answered with a clear error. Defaults: PostHog's. */
  queries: Schema.optional(
    Schema.Struct({
      /**
       * How long one analysis may run, in milliseconds, before it is stopped
       * with `QueryTimeoutError`. Default 60000 (PostHog's query timeout).
       */
      timeoutMs: Schema.optional(Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: MAX_TIMEOUT_MS })))),
      /**
       * How many analyses one project may run at once; one more is refused
       * with `ConcurrencyLimitError`. Default 3 (PostHog's limit for API queries).
       */
      maxConcurrentPerProject: Schema.optional(Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(1)))),
      /**
       * How many analyses run at once, all projects together; more wait for a
       * slot inside their timeout, granted to projects in turn, so one
       * project's burst cannot hold every slot. Default 2 (see
       * `DEFAULT_MAX_CONCURRENT`); a server database can take more.
       */
      maxConcurrent: Schema.optional(PositiveInt),
      /**
       * The budgets each analysis is checked against before its work starts
       * (`QueryLimits`: buckets per series, cells and bytes per answer,
       * series, breakdown_limit, list items). Each defaults as
       * `DEFAULT_QUERY_LIMITS` says; a request over one is refused with a
       * `ValidationError` naming the parameter.
       */
      limits: Schema.optional(
        Schema.Struct({
          maxBucketsPerSeries: Schema.optional(PositiveInt),
          maxCells: Schema.optional(PositiveInt),
          maxBreakdownCells: Schema.optional(PositiveInt),
          maxSeries: Schema.optional(PositiveInt),
          maxBreakdownLimit: Schema.optional(PositiveInt),
          maxListItems: Schema.optional(PositiveInt),
          maxResponseBytes: Schema.optional(PositiveInt),
        }),
      ),
    }),
  ),
})
export type SightlineOptions = typeof SightlineOptions.Type
