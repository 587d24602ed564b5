import { ValidationError } from '../../errors.js'

/**
 * Runs `compile`, moving the paths of a `ValidationError` it throws under
 * `prefix`. The property-filter compiler names paths from `properties`: with
 * `keep` they stay below `prefix` (a step's own `properties`); without, the
 * issue is reported at `prefix` itself (a filter built from one step field).
 */
export function atPath<T>(prefix: ReadonlyArray<string | number>, keep: boolean, context: string, compile: () => T): T {
  try {
    return compile()
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error
    const issues = error.issues.map((i) => ({ path: keep ? [...prefix, ...i.path] : [...prefix], message: i.message }))
    throw new ValidationError(issues, { cause: error, context })
  }
}
