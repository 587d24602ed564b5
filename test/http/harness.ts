import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createSightline, type ApiScope, type Organization, type PluginRepositoryEntry, type Project, type Sightline, type User } from '@sightline/core'
import { createHandler, toNodeHandler } from '@sightline/http-adapter'
import type { ConformanceTarget, FreshDatabase } from '../conformance/target.js'

export const NOW = new Date('2026-01-15T12:00:00.000Z')
/** `NOW` as every timestamp of the interface spells it. */
export const STAMP = '2026-01-15T12:00:00.000000Z'

export const REPOSITORY: ReadonlyArray<PluginRepositoryEntry> = [
  { name: 'GeoIP', url: 'https://github.com/PostHog/posthog-plugin-geoip', description: 'Adds location properties.', icon: 'https://example.test/geoip.png', tag: 'v2' },
  { name: 'Taxonomy', url: 'https://github.com/PostHog/taxonomy-plugin', description: 'Standardizes event names.', icon: '', tag: 'abc123', type: 'transformation' },
]

/** One organization with its user, project and `*` key. */
export interface Tenant {
  readonly org: Organization
  readonly user: User
  readonly project: Project
  readonly key: string
}

export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  /** The parsed JSON body, or undefined for an empty or non-JSON one. */
  readonly body: any
}

/** A response as tests read it: status, headers, text, and the body parsed when it is JSON. */
export async function readAnswer(response: Response): Promise<Answer> {
  const text = await response.text()
  let body: unknown
  try {
    body = text === '' ? undefined : JSON.parse(text)
  } catch {
    body = undefined
  }
  return { status: response.status, headers: response.headers, text, body }
}

export interface CallInit {
  /** The bearer key; undefined for tenant A's `*` key, null for none. */
  readonly key?: string | null
  readonly body?: unknown
  readonly headers?: Readonly<Record<string, string>>
}

/** A Sightline served by `toNodeHandler(createHandler(...))` on a real `node:http` server on 127.0.0.1, port 0. */
export interface Live {
  readonly origin: string
  readonly sightline: Sightline
  /** The database itself, for raw reads that bypass Sightline. */
  readonly db: FreshDatabase
  /** The tenant under test. */
  readonly a: Tenant
  /** A second organization, whose key must see nothing of `a`. */
  readonly b: Tenant
  /** Errors the handler answered with a 500 (there must be none). */
  readonly serverErrors: unknown[]
  /** A key of `a`'s user with only these scopes. */
  keyWith(...scopes: ApiScope[]): Promise<string>
  /** A request to a path of the server (or an absolute URL, as `next` links are). */
  call(method: string, pathOrUrl: string, init?: CallInit): Promise<Answer>
  close(): Promise<void>
}

async function tenant(sightline: Sightline, name: string, email: string): Promise<Tenant> {
  const org = await sightline.organizations.create({ name: `${name} Org` })
  const user = await sightline.users.create({ email, firstName: name, organizationIds: [org.id] })
  const project = await sightline.projects.create({ organizationId: org.id, name: `${name} Web` })
  const { key } = await sightline.personalApiKeys.create({ userId: user.id, label: 'all' })
  return { org, user, project, key }
}

/** Per-request limit: a request that does not answer by then is a hang. */
export const ANSWER_WITHIN_MS = 10_000

export async function serve(target: ConformanceTarget): Promise<Live> {
  const db = await target.fresh()
  const sightline = await createSightline({ storage: db.storage(), clock: () => NOW, pluginRepository: REPOSITORY })
  const a = await tenant(sightline, 'Acme', 'ada@acme.test')
  const b = await tenant(sightline, 'Bravo', 'bob@bravo.test')
  const serverErrors: unknown[] = []
  const server: Server = createServer(toNodeHandler(createHandler(sightline, { onError: (error) => serverErrors.push(error) })))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    origin,
    sightline,
    db,
    a,
    b,
    serverErrors,
    async keyWith(...scopes) {
      return (await sightline.personalApiKeys.create({ userId: a.user.id, label: scopes.join(' ').slice(0, 40) || 'none', scopes })).key
    },
    async call(method, pathOrUrl, init = {}) {
      const headers = new Headers(init.headers)
      const key = init.key === undefined ? a.key : init.key
      if (key !== null) headers.set('authorization', `Bearer ${key}`)
      let body: RequestInit['body']
      if (init.body !== undefined) {
        body = typeof init.body === 'string' || init.body instanceof Uint8Array ? (init.body as RequestInit['body']) : JSON.stringify(init.body)
        if (!headers.has('content-type')) headers.set('content-type', 'application/json')
      }
      const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${origin}${pathOrUrl}`
      const response = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(ANSWER_WITHIN_MS) })
      return readAnswer(response)
    },
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await sightline.close()
      await db.dispose()
    },
  }
}

/** Follows `next` links from `path` until null, collecting every result; fails on a non-200 or a loop. */
export async function walk(live: Live, path: string, key?: string): Promise<{ results: any[]; pages: number; counts: number[] }> {
  const results: any[] = []
  const counts: number[] = []
  let next: string | null = path
  let pages = 0
  while (next !== null) {
    const page = await live.call('GET', next, { key })
    if (page.status !== 200) throw new Error(`${next}: ${page.status} ${page.text}`)
    results.push(...page.body.results)
    counts.push(page.body.count ?? page.body.total_count)
    // Links are absolute and point at this server.
    if (page.body.next !== null && !String(page.body.next).startsWith(live.origin)) throw new Error(`next leaves the server: ${page.body.next}`)
    next = page.body.next
    if (++pages > 500) throw new Error('pagination does not end')
  }
  return { results, pages, counts }
}
