import { Schema, SchemaIssue } from 'effect'
import { ValidationError, type ValidationIssue } from '../errors.js'

const toStandard = SchemaIssue.makeFormatterStandardSchemaV1()

/** Converts an Effect Schema issue tree to Sightline's flat issue list. */
export function schemaIssues(issue: SchemaIssue.Issue, prefix: ReadonlyArray<string | number> = []): ValidationIssue[] {
  return toStandard(issue).issues.map((i) => ({
    path: [...prefix, ...(i.path ?? []).map((p) => (typeof p === 'object' && p !== null && 'key' in p ? p.key : p) as string | number)],
    message: i.message,
  }))
}

/**
 * Decodes untrusted input with a schema, throwing a `ValidationError` that names
 * every failing path. `context` starts the message ("invalid capture batch").
 */
export function decodeOrThrow<S extends Schema.Top>(
  schema: S,
  input: unknown,
  context: string,
  prefix: ReadonlyArray<string | number> = [],
): S['Type'] {
  const result = Schema.decodeUnknownExit(schema as any, { errors: 'all' })(input)
  if (result._tag === 'Success') return result.value as S['Type']
  const error = findSchemaError(result.cause)
  if (!error) throw result.cause
  throw new ValidationError(schemaIssues(error.issue, prefix), { context, cause: error })
}

function findSchemaError(cause: unknown): Schema.SchemaError | undefined {
  const reasons = (cause as { reasons?: ReadonlyArray<{ error?: unknown }> }).reasons ?? []
  for (const reason of reasons) if (Schema.isSchemaError(reason.error)) return reason.error
  return undefined
}
