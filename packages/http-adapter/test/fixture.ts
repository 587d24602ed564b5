import { createSightline, type ApiScope, type Organization, type PluginRepositoryEntry, type Project, type Sightline, type StorageAdapter, type User } from '@sightline/core'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { createHandler, type FetchHandler, type HandlerOptions } from '@sightline/http-adapter'

export const NOW = new Date('2026-01-15T12:00:00.000Z')

/** Two organizations, each with a user, a project and keys; the second is the "other" tenant. */
export interface World {
  readonly sightline: Sightline
  readonly handler: FetchHandler
  readonly org: Organization
  readonly otherOrg: Organization
  readonly user: User
  readonly project: Project
  readonly otherProject: Project
  /** A `*` key of `user`. */
  readonly key: string
  /** A `*` key of the other organization's user. */
  readonly otherKey: string
  /** A key of `user` with only the given scopes. */
  keyWith(...scopes: ApiScope[]): Promise<string>
  /** Calls the handler with no server. */
  call(method: string, path: string, init?: CallInit): Promise<Response>
  close(): Promise<void>
}

export interface CallInit {
  readonly key?: string | null
  readonly body?: unknown
  readonly headers?: Record<string, string>
}

export const BASE = 'http://sightline.test'

/** The host's plugin repository in every world: two installable plugins. */
export const REPOSITORY: ReadonlyArray<PluginRepositoryEntry> = [
  { name: 'GeoIP', url: 'https://github.com/PostHog/posthog-plugin-geoip', description: 'Adds location properties.', icon: 'https://example.test/geoip.png', tag: 'v2', maintainer: 'official', type: 'transformation' },
  { name: 'Taxonomy', url: 'https://github.com/PostHog/taxonomy-plugin', description: 'Standardizes event names.', icon: '', tag: 'abc123' },
]

export async function world(options: HandlerOptions & { storage?: StorageAdapter } = {}): Promise<World> {
  const { storage = duckdbStorage(), ...handlerOptions } = options
  const sightline = await createSightline({ storage, clock: () => NOW, pluginRepository: REPOSITORY })
  const org = await sightline.organizations.create({ name: 'Acme' })
  const otherOrg = await sightline.organizations.create({ name: 'Other' })
  const user = await sightline.users.create({ email: 'ada@acme.test', firstName: 'Ada', organizationIds: [org.id] })
  const otherUser = await sightline.users.create({ email: 'bob@other.test', firstName: 'Bob', organizationIds: [otherOrg.id] })
  const project = await sightline.projects.create({ organizationId: org.id, name: 'Web' })
  const otherProject = await sightline.projects.create({ organizationId: otherOrg.id, name: 'Secret' })
  const { key } = await sightline.personalApiKeys.create({ userId: user.id, label: 'all' })
  const { key: otherKey } = await sightline.personalApiKeys.create({ userId: otherUser.id, label: 'all' })
  const handler = createHandler(sightline, { onError: () => {}, ...handlerOptions })
  const base = handlerOptions.basePath ?? ''
  return {
    sightline,
    handler,
    org,
    otherOrg,
    user,
    project,
    otherProject,
    key,
    otherKey,
    async keyWith(...scopes) {
      return (await sightline.personalApiKeys.create({ userId: user.id, label: scopes.join(' ').slice(0, 40) || 'none', scopes })).key
    },
    call(method, path, init = {}) {
      const headers = new Headers(init.headers)
      const k = init.key === undefined ? key : init.key
      if (k !== null) headers.set('authorization', `Bearer ${k}`)
      let body: RequestInit['body']
      if (init.body !== undefined) {
        body = typeof init.body === 'string' || init.body instanceof Uint8Array ? (init.body as RequestInit['body']) : JSON.stringify(init.body)
        if (!headers.has('content-type')) headers.set('content-type', 'application/json')
      }
      return handler(new Request(`${BASE}${base}${path}`, { method, headers, body }))
    },
    close: () => sightline.close(),
  }
}

/** A response's JSON body, untyped: tests assert its shape. */
export const json = (response: Response): Promise<any> => response.json()

/** Walks a list through its `next` links, collecting every result. */
export async function walk(w: World, firstPath: string, key = w.key): Promise<{ results: unknown[]; pages: number }> {
  const results: unknown[] = []
  let url: string | null = `${BASE}${firstPath}`
  let pages = 0
  while (url !== null) {
    const response = await w.handler(new Request(url, { headers: { authorization: `Bearer ${key}` } }))
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`)
    const body = (await json(response)) as { next: string | null; results: unknown[] }
    results.push(...body.results)
    url = body.next
    if (++pages > 1000) throw new Error('pagination does not end')
  }
  return { results, pages }
}
