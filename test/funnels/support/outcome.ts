import { ValidationError } from '@sightline/core'
import { RefValidationError } from '../../reference/shared/ref-dates.js'

/** An answer, or the 400 it ended in, named by its parameter, so that engine and reference compare either way. */
export async function outcome<T>(run: Promise<T>): Promise<{ ok: T } | { error: string }> {
  try {
    return { ok: await run }
  } catch (error) {
    // The engine's 400s are ValidationErrors, the reference's RefValidationErrors; both name the parameter.
    if (error instanceof ValidationError || error instanceof RefValidationError) return { error: `400 ${error.attr}` }
    throw error
  }
}
