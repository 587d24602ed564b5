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
 * Text that no database can store (U+0000, unpaired surrogates) anywhere in
 * the input is refused too, with its path.
 */
export function decodeOrThrow<S extends Schema.Top>(
  schema: S,
  input: unknown,
  context: string,
  prefix: ReadonlyArray<string | number> = [],
  options: { allowUnstorableText?: boolean } = {},
): S['Type'] {
  const result = Schema.decodeUnknownExit(schema as any, { errors: 'all' })(input)
  if (result._tag === 'Success') {
    const bad = options.allowUnstorableText ? null : findUnstorableText(result.value)
    if (bad) throw new ValidationError([{ path: [...prefix, ...bad], message: 'contains U+0000 or an unpaired UTF-16 surrogate, which cannot be stored' }], { context })
    return result.value as S['Type']
  }
  const error = findSchemaError(result.cause)
  if (!error) throw result.cause
  throw new ValidationError(schemaIssues(error.issue, prefix), { context, cause: error })
}

function findSchemaError(cause: unknown): Schema.SchemaError | undefined {
  const reasons = (cause as { reasons?: ReadonlyArray<{ error?: unknown }> }).reasons ?? []
  for (const reason of reasons) if (Schema.isSchemaError(reason.error)) return reason.error
  return undefined
}

const storable = (text: string) => text.isWellFormed() && !text.includes('\u0000')

/** The path to the first key or string that cannot be stored, or null. */
function findUnstorableText(value: unknown, depth = 0): Array<string | number> | null {
  if (typeof value === 'string') return storable(value) ? null : []
  if (typeof value !== 'object' || value === null || depth > 64) return null
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const path = findUnstorableText(value[i], depth + 1)
      if (path) return [i, ...path]
    }
    return null
  }
  for (const key in value as Record<string, unknown>) {
    if (!storable(key)) return [key]
    const path = findUnstorableText((value as Record<string, unknown>)[key], depth + 1)
    if (path) return [key, ...path]
  }
  return null
}
