import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { StorageAdapter } from '@sightline/core'
import { clickhouseStorage } from '@sightline/storage-clickhouse'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { postgresStorage } from '@sightline/storage-postgres'

/**
 * Reads `--storage`: `duckdb:<path>` (a file), `duckdb:` or `duckdb:memory`
 * (in memory), `postgres:<url>` or a bare `postgres://` / `postgresql://` URL,
 * `clickhouse:<directory>` (events on chDB in `<directory>/chdb`, the rest on
 * DuckDB in `<directory>/companion.duckdb`; created if missing).
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
  if (kind === 'clickhouse') return clickhouseDirectory(rest)
  throw new Error(`--storage must be duckdb:<path>, postgres:<url> or clickhouse:<directory>, got ${JSON.stringify(spec)}`)
}

function clickhouseDirectory(dir: string): StorageAdapter {
  if (!dir) throw new Error('--storage clickhouse:<directory> needs a directory')
  // A server needs a companion store of its own choosing; serve keeps to one machine.
  if (/^https?:\/\//.test(dir)) throw new Error('--storage clickhouse: takes a directory (chDB); a ClickHouse server is used through clickhouseStorage({ client, companion })')
  const storage = clickhouseStorage({ path: join(dir, 'chdb'), companion: duckdbStorage({ path: join(dir, 'companion.duckdb') }) })
  return {
    ...storage,
    open: async () => {
      mkdirSync(dir, { recursive: true })
      return storage.open()
    },
  }
}
