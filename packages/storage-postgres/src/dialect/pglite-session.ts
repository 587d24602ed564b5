import { CompiledQuery } from 'kysely'
import { ConnectionMutex } from './connection-mutex.js'
import type { PGliteLike } from './pglite-dialect-config.js'
import { sessionSettings } from './session-settings.js'

/**
 * What every driver on one PGlite instance shares. PGlite has a single
 * session, so a `search_path` one driver sets is the path of all of them: two
 * engines on one instance with different schemas would otherwise write into
 * whichever schema was set last. The drivers take turns through one mutex,
 * and each puts its own settings back when the session last ran another's.
 */
export interface PGliteSession {
  readonly mutex: ConnectionMutex
  /** The schema whose settings the session holds now (`''`: the default path); undefined before any. */
  current: string | undefined
  /** The instance's `search_path` before any driver changed it: what a driver without a schema runs on. */
  defaultPath: string | undefined
  /** While the session holds `analysisPlanner`'s settings: the value to put back (the session's, whichever driver set them). */
  plannerBefore: string | undefined
}

const sessions = new WeakMap<PGliteLike, PGliteSession>()

/** The shared state of `pglite`'s one session, made on first use. */
export function pgliteSession(pglite: PGliteLike): PGliteSession {
  let session = sessions.get(pglite)
  if (!session) {
    session = { mutex: new ConnectionMutex(), current: undefined, defaultPath: undefined, plannerBefore: undefined }
    sessions.set(pglite, session)
  }
  return session
}

/**
 * The settings a driver with `schema` needs the session to hold. Without a
 * schema, the instance's default path is put back, since another driver may
 * have replaced it.
 */
export function pgliteSettings(schema: string | undefined, defaultPath: string): CompiledQuery {
  if (schema !== undefined) return sessionSettings(schema)
  const base = sessionSettings()
  return CompiledQuery.raw(`${base.sql}, set_config('search_path', $1::text, false)`, [defaultPath])
}

/** Reads the path the instance starts with, before any Sightline driver sets one. */
export const DEFAULT_PATH_QUERY = CompiledQuery.raw("select current_setting('search_path') as path")
