import { Schema, SchemaIssue } from 'effect'
import { invalidInput } from '../errors.js'

const toStandard = SchemaIssue.makeFormatterStandardSchemaV1()

const pythonType = (u: unknown) =>
  Array.isArray(u) ? 'list' : u === null ? 'NoneType' : typeof u === 'string' ? 'str' : typeof u === 'boolean' ? 'bool' : typeof u === 'number' ? (Number.isInteger(u) ? 'int' : 'float') : 'dict'

/**
 * Decodes a JSON request body with its wire schema. Unknown fields are
 * ignored, as Django REST does. A failure is a 400 `validation_error` whose
 * `attr` is the first failing field (`tags__2` for the third tag).
 */
export function decodeBody<S extends Schema.Top>(schema: S, input: unknown): S['Type'] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    // DRF's Serializer.to_internal_value message for a non-object body.
    throw invalidInput(`Invalid data. Expected a dictionary, but got ${pythonType(input)}.`, null)
  }
  const result = Schema.decodeUnknownExit(schema as unknown as Schema.Codec<unknown, unknown, never, never>, { errors: 'first' })(input)
  if (result._tag === 'Success') return result.value as S['Type']
  const reasons = (result.cause as { reasons?: ReadonlyArray<{ error?: unknown }> }).reasons ?? []
  const error = reasons.map((r) => r.error).find(Schema.isSchemaError)
  if (!error) throw invalidInput('Invalid input.', null)
  const first = toStandard(error.issue).issues[0]
  const path = (first?.path ?? []).map((p) => String(typeof p === 'object' && p !== null && 'key' in p ? p.key : p))
  const attr = path.length > 0 ? path.join('__') : null
  // DRF's wording for the commonest failure; other messages are Effect's own.
  if (first?.message === 'Missing key') throw invalidInput('This field is required.', attr, 'required')
  throw invalidInput(first?.message ?? 'Invalid input.', attr)
}
