import { createSightline, type Sightline } from '@sightline/core'
import { serveUntilSignal } from './serve.js'
import { parseStorageSpec } from './storage-spec.js'

export interface ServeCommandOptions {
  /** Default 8000. */
  readonly port?: number
  /** Default 127.0.0.1. */
  readonly host?: string
  /** `duckdb:<path>` or `postgres:<url>`; default `duckdb:.sightline/sightline.duckdb`. */
  readonly storage?: string
  /** On an empty database: bootstrap an organization, a project and a user holding this personal API key. */
  readonly apiKey?: string
  readonly out?: NodeJS.WritableStream
}

/**
 * `sightline serve`: Sightline as a standalone server. Runs until SIGINT or
 * SIGTERM, then closes the server and the storage.
 */
export async function runServe(options: ServeCommandOptions = {}): Promise<void> {
  const out = options.out ?? process.stdout
  const sightline = await createSightline({ storage: parseStorageSpec(options.storage ?? 'duckdb:.sightline/sightline.duckdb') })
  try {
    const boot = options.apiKey ? await bootstrap(sightline, options.apiKey) : undefined
    await serveUntilSignal(sightline, { port: options.port, host: options.host, out, key: options.apiKey, projectId: boot?.projectId })
  } finally {
    await sightline.close()
  }
}

/**
 * Makes `apiKey` work: on a database without users, creates an organization,
 * a project and an admin user holding the key. On one with users, the key
 * must already belong to one of them.
 */
export async function bootstrap(sightline: Sightline, apiKey: string): Promise<{ projectId: number }> {
  const known = await sightline.personalApiKeys.authenticate(apiKey)
  if (known) {
    const [orgId] = await sightline.users.organizationIds(known.user.id)
    const [project] = orgId ? await sightline.projects.list({ organizationId: orgId }) : []
    if (project) return { projectId: project.id }
  }
  if ((await sightline.organizations.list()).length > 0) {
    throw new Error('--api-key bootstraps an empty database only; this one has data and the key is not one of its keys')
  }
  const org = await sightline.organizations.create({ name: 'Default organization' })
  const project = await sightline.projects.create({ organizationId: org.id, name: 'Default project' })
  const user = await sightline.users.create({ email: 'admin@sightline.local', firstName: 'Admin', organizationIds: [org.id] })
  await sightline.personalApiKeys.create({ userId: user.id, label: 'bootstrap', secret: apiKey })
  return { projectId: project.id }
}
