import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { StorageAdapter } from '@sightline/core'
import { clickhouseStorage } from '@sightline/storage-clickhouse'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { postgresStorage } from '@sightline/storage-postgres'

/** Where `clickhouse:http://...` keeps everything but events when no `--companion` is given. */
export const DEFAULT_CLICKHOUSE_COMPANION = 'duckdb:.sightline/clickhouse-companion.duckdb'

/**
 * Reads `--storage`: `duckdb:<path>` (a file), `duckdb:` or `duckdb:memory`
 * (in memory), `postgres:<url>` or a bare `postgres://` / `postgresql://` URL,
 * `clickhouse:<directory>` (events on chDB in `<directory>/chdb`, the rest on
 * DuckDB in `<directory>/companion.duckdb`; created if missing), or
 * `clickhouse:http(s)://host:port` (events on that ClickHouse server, the
 * rest on `companion`, a duckdb or postgres spec; by default
 * `DEFAULT_CLICKHOUSE_COMPANION`). `companion` is refused with any other
 * storage, which keeps everything itself.
 */
export function parseStorageSpec(spec: string, companion?: string): StorageAdapter {
  const server = /^clickhouse:(https?:\/\/.*)$/.exec(spec)
  if (server) return clickhouseServer(server[1]!, companion ?? DEFAULT_CLICKHOUSE_COMPANION)
  if (companion !== undefined) throw new Error(`--companion is for --storage clickhouse:http(s)://...; ${JSON.stringify(spec)} keeps everything itself`)
  if (spec.startsWith('postgres://') || spec.startsWith('postgresql://')) return postgresStorage({ connectionString: spec })
  const colon = spec.indexOf(':')
  const kind = colon < 0 ? spec : spec.slice(0, colon)
  const rest = colon < 0 ? '' : spec.slice(colon + 1)
  if (kind === 'duckdb') return duckdbStorage(rest === '' || rest === 'memory' ? {} : { path: rest })
  if (kind === 'postgres') {
    if (!rest) throw new Error('--storage postgres:<url> needs a connection URL')
    return postgresStorage({ connectionString: rest })
  }
  if (kind === 'clickhouse') return clickhouseDirectory(rest)
  throw new Error(`--storage must be duckdb:<path>, postgres:<url>, clickhouse:<directory> or clickhouse:http(s)://host:port, got ${JSON.stringify(spec)}`)
}

function clickhouseDirectory(dir: string): StorageAdapter {
  if (!dir) throw new Error('--storage clickhouse:<directory> needs a directory')
  const storage = clickhouseStorage({ path: join(dir, 'chdb'), companion: duckdbStorage({ path: join(dir, 'companion.duckdb') }) })
  return {
    ...storage,
    open: async () => {
      mkdirSync(dir, { recursive: true })
      return storage.open()
    },
  }
}

/**
 * Events on the ClickHouse server at `url` (through `@clickhouse/client`),
 * the rest on the companion spec: a DuckDB file (its directory created if
 * missing) or Postgres. Several serve processes on one server need a
 * companion they can share, a Postgres server.
 */
function clickhouseServer(url: string, companionSpec: string): StorageAdapter {
  if (companionSpec.startsWith('clickhouse:')) throw new Error('--companion holds everything but events: a duckdb:<path> or postgres:<url> storage, not clickhouse')
  const companion = parseStorageSpec(companionSpec)
  const file = /^duckdb:(.+)$/.exec(companionSpec)?.[1]
  const storage = clickhouseStorage({ url, companion })
  if (file === undefined || file === 'memory') return storage
  return {
    ...storage,
    open: async () => {
      mkdirSync(dirname(file), { recursive: true })
      return storage.open()
    },
  }
}
