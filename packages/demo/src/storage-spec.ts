import type { StorageAdapter } from '@sightline/core'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { postgresStorage } from '@sightline/storage-postgres'

/**
 * Reads `--storage`: `duckdb:<path>` (a file), `duckdb:` or `duckdb:memory`
 * (in memory), `postgres:<url>` or a bare `postgres://` / `postgresql://` URL.
 */
export function parseStorageSpec(spec: string): StorageAdapter {
  if (spec.startsWith('postgres://') || spec.startsWith('postgresql://')) return postgresStorage({ connectionString: spec })
  const colon = spec.indexOf(':')
  const kind = colon < 0 ? spec : spec.slice(0, colon)
  const rest = colon < 0 ? '' : spec.slice(colon + 1)
  if (kind === 'duckdb') return duckdbStorage(rest === '' || rest === 'memory' ? {} : { path: rest })
  if (kind === 'postgres') {
    if (!rest) throw new Error('--storage postgres:<url> needs a connection URL')
    return postgresStorage({ connectionString: rest })
  }
  throw new Error(`--storage must be duckdb:<path> or postgres:<url>, got ${JSON.stringify(spec)}`)
}
