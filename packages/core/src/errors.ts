/**
 * Every error Sightline throws. Each carries a `_tag` so callers (and the
 * http-adapter's single status mapping) can switch on it without `instanceof`
 * across package copies, and keeps its `cause`.
 */

/** One problem found while validating input: where it is and what is wrong. */
export interface ValidationIssue {
  /** Path into the input, e.g. `[3, 'properties', '$set']` for the fourth event of a batch. */
  readonly path: ReadonlyArray<string | number>
  readonly message: string
}

abstract class SightlineErrorBase extends Error {
  abstract readonly _tag: string
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
  }
}

/** Input that does not match its schema. Nothing was written. */
export class ValidationError extends SightlineErrorBase {
  readonly _tag = 'ValidationError' as const
  constructor(
    readonly issues: ReadonlyArray<ValidationIssue>,
    options?: { cause?: unknown; context?: string },
  ) {
    super(formatIssues(issues, options?.context), options)
  }
  /** The first failing path rendered PostHog-style (`events__3__properties`), or null for the root. */
  get attr(): string | null {
    const first = this.issues[0]
    return first && first.path.length > 0 ? first.path.join('__') : null
  }
}

/** A record that does not exist (or that the caller may not see: the two are not told apart). */
export class NotFoundError extends SightlineErrorBase {
  readonly _tag = 'NotFoundError' as const
  constructor(
    readonly resource: string,
    readonly id: string | number,
  ) {
    super(`${resource} ${JSON.stringify(id)} not found`)
  }
}

/** A write that would break a uniqueness or state rule (e.g. an e-mail already taken). */
export class ConflictError extends SightlineErrorBase {
  readonly _tag = 'ConflictError' as const
  constructor(
    message: string,
    readonly attr: string | null = null,
  ) {
    super(message)
  }
}

/** The storage failed (outage, constraint, bug). `sql` is the failing statement when known. */
export class StorageError extends SightlineErrorBase {
  readonly _tag = 'StorageError' as const
  constructor(
    message: string,
    readonly sql: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(sql ? `${message}\n  while running: ${sql.slice(0, 500)}` : message, options)
  }
}

/** The engine was used after `close()`. */
export class ClosedError extends SightlineErrorBase {
  readonly _tag = 'ClosedError' as const
  constructor() {
    super('this Sightline instance is closed')
  }
}

/**
 * An analysis stopped by `cancel(projectId, clientQueryId)`: its running
 * statement was interrupted (where the database can be) and its result discarded.
 */
export class QueryCancelledError extends SightlineErrorBase {
  readonly _tag = 'QueryCancelledError' as const
  constructor(readonly clientQueryId: string) {
    super(`the query ${JSON.stringify(clientQueryId)} was cancelled`)
  }
}

/** An analysis that ran longer than the `queries.timeoutMs` option allows; it was stopped like a cancelled one. */
export class QueryTimeoutError extends SightlineErrorBase {
  readonly _tag = 'QueryTimeoutError' as const
  constructor(readonly timeoutMs: number) {
    super(`the query ran longer than ${timeoutMs} ms and was stopped: narrow its date range or filters`)
  }
}

/** An analysis refused because its project already runs `queries.maxConcurrentPerProject` of them; nothing ran. */
export class ConcurrencyLimitError extends SightlineErrorBase {
  readonly _tag = 'ConcurrencyLimitError' as const
  constructor(
    readonly projectId: number,
    readonly limit: number,
  ) {
    super(`project ${projectId} already runs ${limit} queries, the most allowed at once: retry when one has finished`)
  }
}

export type SightlineError =
  | ValidationError
  | NotFoundError
  | ConflictError
  | StorageError
  | ClosedError
  | QueryCancelledError
  | QueryTimeoutError
  | ConcurrencyLimitError

/** True for errors thrown by Sightline itself (as opposed to bugs or driver errors not yet wrapped). */
export const isSightlineError = (error: unknown): error is SightlineError =>
  error instanceof SightlineErrorBase

function formatIssues(issues: ReadonlyArray<ValidationIssue>, context?: string): string {
  const lines = issues.slice(0, 5).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('') : '(root)'
    return `${where}: ${issue.message}`
  })
  const more = issues.length > 5 ? `\n  ... and ${issues.length - 5} more` : ''
  return `${context ?? 'invalid input'}: ${lines.join('; ')}${more}`
}
