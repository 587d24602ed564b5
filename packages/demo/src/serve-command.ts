import { createSightline, type Sightline } from '@sightline/core'
import { curlExamples, serveUntilSignal } from './serve.js'
import { parseStorageSpec } from './storage-spec.js'

export interface ServeCommandOptions {
  /** Default 8000. */
  readonly port?: number
  /** Default 127.0.0.1. */
  readonly host?: string
  /** `duckdb:<path>`, `postgres:<url>`, `clickhouse:<directory>` or `clickhouse:http(s)://host:port`; default `duckdb:.sightline/sightline.duckdb`. */
  readonly storage?: string
  /** With `clickhouse:http(s)://...`: where everything but events lives (`duckdb:<path>` or `postgres:<url>`); default `duckdb:.sightline/clickhouse-companion.duckdb`. */
  readonly companion?: string
  /** On an empty database: bootstrap an organization, a project and a user holding this personal API key. */
  readonly apiKey?: string
  /** Creates a personal API key for the user with this id (the first user is 1) and prints it once. */
  readonly createKeyFor?: number
  readonly out?: NodeJS.WritableStream
  /** Stops the server when aborted, as SIGINT and SIGTERM do. */
  readonly signal?: AbortSignal
}

/** A key that opens the served database, and a project it can read. */
interface Access {
  readonly key: string
  readonly projectId?: number
}

/**
 * `sightline serve`: Sightline as a standalone server. Runs until SIGINT or
 * SIGTERM, then closes the server and the storage. Nobody can use a database
 * without a personal API key, so it always says how to get one: with
 * `apiKey`, that key; on an empty database, a new key printed once; with
 * `createKeyFor`, a new key for that user; otherwise how to make one.
 */
export async function runServe(options: ServeCommandOptions = {}): Promise<void> {
  const out = options.out ?? process.stdout
  if (options.apiKey !== undefined && options.createKeyFor !== undefined) throw new Error('--api-key and --create-key exclude each other')
  const sightline = await createSightline({ storage: parseStorageSpec(options.storage ?? 'duckdb:.sightline/sightline.duckdb', options.companion) })
  try {
    const access = await accessFor(sightline, options, out)
    await serveUntilSignal(sightline, {
      port: options.port,
      host: options.host,
      out,
      signal: options.signal,
      examples: access?.projectId === undefined ? undefined : (url) => curlExamples(url, access.key, access.projectId as number),
    })
  } finally {
    await sightline.close()
  }
}

async function accessFor(sightline: Sightline, options: ServeCommandOptions, out: NodeJS.WritableStream): Promise<Access | undefined> {
  if (options.apiKey !== undefined) return bootstrap(sightline, options.apiKey)
  if (options.createKeyFor !== undefined) {
    const user = await sightline.users.get(options.createKeyFor)
    const { key } = await sightline.personalApiKeys.create({ userId: user.id, label: 'sightline serve --create-key' })
    out.write(`New personal API key for ${user.email} (shown this once; only its hash is stored): ${key}\n`)
    return { key, projectId: await firstProjectOf(sightline, user.id) }
  }
  if ((await sightline.organizations.list()).length === 0) {
    const boot = await bootstrap(sightline)
    out.write(
      `Empty database: created project ${boot.projectId} and the user ${BOOTSTRAP_EMAIL} with the personal API key\n` +
        `  ${boot.key}\n(shown this once; only its hash is stored. Next time pass it as --api-key, or create another with --create-key 1)\n`,
    )
    return boot
  }
  out.write(
    [
      'No --api-key: every request needs a personal API key of one of this database’s users. To get one:',
      '  run again with --create-key <user id> (the first user has id 1): a new key for that user, printed once',
      "  or in code: const { key } = await sightline.personalApiKeys.create({ userId, label: 'cli' })",
      '',
    ].join('\n'),
  )
  return undefined
}

const BOOTSTRAP_EMAIL = 'admin@sightline.local'

/**
 * Makes a key work: on a database without organizations, creates an
 * organization, a project and an admin user holding `apiKey` (or a new key
 * when none is given). With data, `apiKey` must already belong to a user.
 */
export async function bootstrap(sightline: Sightline, apiKey?: string): Promise<{ projectId: number; key: string }> {
  if (apiKey !== undefined) {
    const known = await sightline.personalApiKeys.authenticate(apiKey)
    const projectId = known ? await firstProjectOf(sightline, known.user.id) : undefined
    if (projectId !== undefined) return { projectId, key: apiKey }
  }
  if ((await sightline.organizations.list()).length > 0) {
    throw new Error('--api-key bootstraps an empty database only; this one has data and the key is not one of its keys')
  }
  const org = await sightline.organizations.create({ name: 'Default organization' })
  const project = await sightline.projects.create({ organizationId: org.id, name: 'Default project' })
  const user = await sightline.users.create({ email: BOOTSTRAP_EMAIL, firstName: 'Admin', organizationIds: [org.id] })
  const { key } = await sightline.personalApiKeys.create({ userId: user.id, label: 'bootstrap', ...(apiKey === undefined ? {} : { secret: apiKey }) })
  return { projectId: project.id, key }
}

async function firstProjectOf(sightline: Sightline, userId: number): Promise<number | undefined> {
  const [orgId] = await sightline.users.organizationIds(userId)
  const [project] = orgId ? await sightline.projects.list({ organizationId: orgId }) : []
  return project?.id
}
