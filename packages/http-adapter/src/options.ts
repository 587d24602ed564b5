import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, ValidationError } from '@sightline/core'
import { Schema, SchemaIssue } from 'effect'
import type { UiPages } from './ui-pages.js'

/** Options of `createHandler`. */
export interface HandlerOptions {
  /** The path the handler is mounted under, e.g. `/sightline`; requests outside it answer 404. Default `''`. */
  readonly basePath?: string
  /**
   * Build absolute URLs (`next`, `previous`) from `X-Forwarded-Proto` and
   * `X-Forwarded-Host`. Only behind a proxy that sets them. Default false.
   */
  readonly trustProxy?: boolean
  /** Largest management API request body, in bytes. Default 1 MiB. */
  readonly maxBodyBytes?: number
  /** Largest capture body, in bytes, both as sent and once decompressed (a gzip bomb stops there). Default 20 MiB. */
  readonly maxCaptureBodyBytes?: number
  /** Page size of lists without `limit`. Default 100 (core's `DEFAULT_PAGE_SIZE`). */
  readonly pageSize?: number
  /** Largest `limit` accepted; larger ones answer 400. Default and most 1,000 (core's `MAX_PAGE_SIZE`). */
  readonly maxPageSize?: number
  /**
   * Receives every error answered with a 500 (a `StorageError`, a bug); the
   * client only gets a generic body. Default `console.error`.
   */
  readonly onError?: (error: unknown, request: Request) => void
  /**
   * Receives each client report of `POST /insights/timing/` (how long an
   * insight took to show), with the project and user; for the host's metrics.
   * A hook that throws is reported to `onError`; the client still gets 200.
   * Default: reports are dropped.
   */
  readonly onInsightTiming?: (timing: InsightTimingReport, context: { readonly projectId: number; readonly userId: number }) => void
  /**
   * Pages to serve under the base path beside the API, e.g. `sightlineUi()`
   * of `@sightline/ui` (the insights drawn in the browser at `basePath/`).
   * Asked only for GET and HEAD requests that match no API route.
   * Default: none, every such path answers 404.
   */
  readonly ui?: UiPages
}

/** A client's timing report: `time_to_see_data_ms` and PostHog's other `captureTimeToSeeData` fields. */
export type InsightTimingReport = Readonly<Record<string, unknown>> & { readonly time_to_see_data_ms: number }

const MiB = 1024 * 1024

const Bytes = Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: 1024 * MiB })))
const PageSize = Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: MAX_PAGE_SIZE })))

const OptionsSchema = Schema.Struct({
  basePath: Schema.optional(
    Schema.String.pipe(
      Schema.check(Schema.makeFilter((s: string) => s === '' || /^(\/[^/?#\s]+)+\/?$/.test(s) || 'a path such as "/sightline", or ""')),
    ),
  ),
  trustProxy: Schema.optional(Schema.Boolean),
  maxBodyBytes: Schema.optional(Bytes),
  maxCaptureBodyBytes: Schema.optional(Bytes),
  pageSize: Schema.optional(PageSize),
  maxPageSize: Schema.optional(PageSize),
  onError: Schema.optional(Schema.declare((u: unknown): u is (error: unknown, request: Request) => void => typeof u === 'function')),
  onInsightTiming: Schema.optional(Schema.declare((u: unknown): u is NonNullable<HandlerOptions['onInsightTiming']> => typeof u === 'function')),
  ui: Schema.optional(
    Schema.declare((u: unknown): u is UiPages => typeof u === 'object' && u !== null && typeof (u as { serve?: unknown }).serve === 'function'),
  ),
})

export interface ResolvedOptions {
  readonly basePath: string
  readonly trustProxy: boolean
  readonly maxBodyBytes: number
  readonly maxCaptureBodyBytes: number
  readonly pageSize: number
  readonly maxPageSize: number
  readonly onError: (error: unknown, request: Request) => void
  readonly onInsightTiming: HandlerOptions['onInsightTiming']
  readonly ui: UiPages | undefined
}

const toStandard = SchemaIssue.makeFormatterStandardSchemaV1()

/** Decodes, defaults and freezes the options once; throws core's `ValidationError` for bad ones. */
export function resolveOptions(options: HandlerOptions = {}): ResolvedOptions {
  const result = Schema.decodeUnknownExit(OptionsSchema, { errors: 'all' })(options)
  if (result._tag === 'Failure') {
    const reasons = (result.cause as { reasons?: ReadonlyArray<{ error?: unknown }> }).reasons ?? []
    const error = reasons.map((r) => r.error).find(Schema.isSchemaError)
    const issues = error
      ? toStandard(error.issue).issues.map((i) => ({
          path: (i.path ?? []).map((p) => (typeof p === 'object' && p !== null && 'key' in p ? p.key : p) as string | number),
          message: i.message,
        }))
      : [{ path: [], message: 'invalid options' }]
    throw new ValidationError(issues, { context: 'invalid http-adapter options' })
  }
  const o = result.value
  const maxPageSize = o.maxPageSize ?? MAX_PAGE_SIZE
  const pageSize = Math.min(o.pageSize ?? DEFAULT_PAGE_SIZE, maxPageSize)
  return Object.freeze({
    basePath: (o.basePath ?? '').replace(/\/$/, ''),
    trustProxy: o.trustProxy ?? false,
    maxBodyBytes: o.maxBodyBytes ?? MiB,
    maxCaptureBodyBytes: o.maxCaptureBodyBytes ?? 20 * MiB,
    pageSize,
    maxPageSize,
    onError: o.onError ?? ((error: unknown) => console.error('[sightline/http-adapter]', error)),
    onInsightTiming: o.onInsightTiming,
    ui: o.ui,
  })
}
