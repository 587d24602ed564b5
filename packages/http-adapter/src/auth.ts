import type { ApiScope, PersonalApiKey, Sightline, User } from '@sightline/core'
import { authenticationFailed, notAuthenticated, permissionDenied } from './errors.js'

/** The caller of a management endpoint: a user through one of its personal API keys. */
export interface Principal {
  readonly user: User
  readonly apiKey: PersonalApiKey
  /** The organizations the user is a member of: everything else answers as if it did not exist. */
  readonly organizationIds: ReadonlySet<string>
}

type KeySource = 'Authorization header' | 'body' | 'query string'

/**
 * PostHog's PersonalAPIKeyAuthentication.find_key_with_source: the first
 * candidate only, in this order: `Authorization: Bearer <key>`, the JSON
 * body's `personal_api_key`, the query's `personal_api_key`.
 */
function findKey(request: Request, query: URLSearchParams, body: unknown): { key: unknown; source: KeySource } | null {
  const header = request.headers.get('authorization')
  const bearer = header === null ? null : /^Bearer\s+(\S.+)$/.exec(header)
  if (bearer) return { key: bearer[1]!.trim(), source: 'Authorization header' }
  if (typeof body === 'object' && body !== null && !Array.isArray(body) && 'personal_api_key' in body) {
    return { key: (body as Record<string, unknown>).personal_api_key, source: 'body' }
  }
  const fromQuery = query.get('personal_api_key')
  if (fromQuery !== null) return { key: fromQuery, source: 'query string' }
  return null
}

/** No key: 401 `not_authenticated`; an unknown key: 401 `authentication_failed` naming where it was found. */
export async function authenticate(sightline: Sightline, request: Request, query: URLSearchParams, body: unknown): Promise<Principal> {
  const found = findKey(request, query, body)
  if (!found) throw notAuthenticated()
  const result = typeof found.key === 'string' ? await sightline.personalApiKeys.authenticate(found.key) : null
  if (!result) throw authenticationFailed(`Personal API key found in request ${found.source} is invalid.`)
  const organizationIds = new Set(await sightline.users.organizationIds(result.user.id))
  return { user: result.user, apiKey: result.apiKey, organizationIds }
}

/** PostHog's APIScopePermission: `*` grants all, and a `:write` scope grants its `:read`. */
export function hasScope(scopes: ReadonlyArray<string>, required: ApiScope): boolean {
  if (scopes.includes('*') || scopes.includes(required)) return true
  return required.endsWith(':read') && scopes.includes(required.replace(/:read$/, ':write'))
}

export function requireScope(principal: Principal, required: ApiScope): void {
  if (!hasScope(principal.apiKey.scopes, required)) throw permissionDenied(`API key missing required scope '${required}'`)
}
