import { HttpError } from '../errors.js'

const authError = (code: string, detail: string) => new HttpError(401, { type: 'authentication_error', code, detail, attr: null })

/**
 * PostHog's `get_token`: the query's `token` or `api_key` (GET), the form's
 * `api_key` or `token`, then the data (its first event for an array):
 * `$token`, `token`, `api_key`, `properties.token`. Sightline also reads the
 * query for POST, last.
 */
export function findToken(method: string, query: URLSearchParams, form: URLSearchParams, data: unknown): unknown {
  const fromQuery = query.get('token') || query.get('api_key') || undefined
  if (method === 'GET' && fromQuery) return fromQuery
  const fromForm = form.get('api_key') || form.get('token')
  if (fromForm) return fromForm
  const first = Array.isArray(data) ? data[0] : data
  if (typeof first === 'object' && first !== null && !Array.isArray(first)) {
    const d = first as Record<string, unknown>
    const properties = d.properties
    const candidate =
      d.$token || d.token || d.api_key || (typeof properties === 'object' && properties !== null ? (properties as Record<string, unknown>).token : undefined)
    if (candidate) return candidate
  }
  return fromQuery
}

/** PostHog's `_check_token_shape`, then the missing-token answer; returns the usable token. */
export function checkTokenShape(token: unknown): string {
  if (token === undefined || token === null || token === '') {
    throw authError('missing_api_key', 'API key not provided. You can find your project API key in PostHog project settings.')
  }
  const reason =
    typeof token !== 'string'
      ? 'not_string'
      : token.length > 64
        ? 'too_long'
        : !/^[\x00-\x7F]*$/.test(token)
          ? 'not_ascii'
          : token.startsWith('phx_')
            ? 'personal_api_key'
            : null
  if (reason) throw authError(reason, `Provided API key is not valid: ${reason}`)
  return token as string
}

export const invalidToken = () =>
  authError('invalid_api_key', 'Project API key invalid. You can find your project API key in PostHog project settings.')
