import type {
  DatabaseConnection,
  PostgresCursor,
  PostgresDialectConfig,
  PostgresPool,
  PostgresPoolClient,
  PostgresQueryResult,
} from 'kysely'
import { activeQueryScope, outsideQueryScope, runInterruptible } from '@sightline/core/storage'
import { analysisPlanner, restorePlanner } from './analysis-planner.js'
import { cancelBackend } from './pg-cancel-backend.js'
import { sessionSettings } from './session-settings.js'
import { typeParsers } from './type-parsers.js'

/** pg's `getTypeParser`: the parser for values of type `oid` sent in `format`. */
export type PgGetTypeParser = (oid: number, format?: 'text' | 'binary') => (value: any) => unknown

/** The subset of pg's `Pool` this dialect uses. */
export interface PgPoolLike {
  connect(): Promise<PgPoolClientLike>
  end(): Promise<void>
}

/** The subset of pg's `PoolClient` this dialect uses. */
export interface PgPoolClientLike {
  query(config: {
    text: string
    values: unknown[]
    types: { getTypeParser: PgGetTypeParser }
  }): Promise<{ command: string; rowCount: number | null; rows: unknown[] }>
  getTypeParser: PgGetTypeParser
  /** With an error: the client is broken, and the pool discards it. */
  release(error?: Error): void
  /**
   * The backend's process id, which pg's clients know once connected. When a
   * client lacks it, the dialect asks the server (`pg_backend_pid()`) once.
   */
  readonly processID?: number | null
}

export type PgDialectOptions =
  /** A pool is created from the URL (importing pg then) and ended by `Kysely#destroy()`. */
  | { readonly connectionString: string }
  | {
      /**
       * A pool the caller created: for TLS, pool sizes and other pg settings.
       * Cancelling an analysis takes one of its clients for a moment, so give
       * it at least one client more than the statements it runs at once.
       */
      readonly pool: PgPoolLike
      /** Whether `Kysely#destroy()` ends `pool`. Default `false`: the caller created it, and ends it. */
      readonly closeOnDestroy?: boolean
    }

/**
 * Builds the config of kysely's `PostgresDialect`. Rows follow Sightline's
 * row contract (`typeParsers`) on either kind of pool, and every new
 * connection runs `sessionSettingsQuery` (TimeZone UTC, DateStyle ISO);
 * this shows in other users of a caller's pool too. A statement run for a
 * cancelled or timed-out analysis is stopped with `pg_cancel_backend`
 * (see `cancelBackend`).
 */
export function createPgDialectConfig(options: PgDialectOptions & { readonly schema?: string }): PostgresDialectConfig {
  const settings = sessionSettings(options.schema)
  let pool: PostgresDialectConfig['pool']
  if ('pool' in options) {
    pool = normalisingPool(options.pool, options.closeOnDestroy ?? false)
  } else {
    const { connectionString } = options
    pool = async () => {
      // Cancels get a pool of their own (one client, opened on the first
      // cancel): the busy statements to cancel may hold every client of the main one.
      const [main, cancels] = await Promise.all([createPool(connectionString), createPool(connectionString, 1)])
      return normalisingPool(main, true, cancels)
    }
  }

  return Object.freeze({
    pool,
    // Not pg's `options: '-c TimeZone=UTC'`: an `options` parameter in the
    // connection string would silently replace it.
    // Outside any analysis's scope: kysely neither releases nor sets up again a
    // client whose setup failed, so a cancel landing here would leak the client.
    onCreateConnection: async (connection: DatabaseConnection) => {
      await outsideQueryScope(() => connection.executeQuery(settings))
    },
  })
}

async function createPool(connectionString: string, max?: number): Promise<PgPoolLike> {
  // Imported here so that pg, an optional peer dependency, is needed only by
  // those who connect with a URL.
  const { Pool, types } = await import('pg')
  return new Pool({ connectionString, max, types: { getTypeParser: withTypeParsers(types.getTypeParser) } })
}

// Text is the format pg asks for, unless a query requested binary results.
function withTypeParsers(fallback: PgGetTypeParser): PgGetTypeParser {
  return (oid, format = 'text') => (format === 'text' ? typeParsers[oid] : undefined) ?? fallback(oid, format)
}

// A caller's pool keeps its own type parsers; ours are given per query instead.
// `cancels` is the pool cancels are sent through (see `cancelBackend`).
function normalisingPool(pool: PgPoolLike, closeOnDestroy: boolean, cancels: PgPoolLike = pool): PostgresPool {
  // kysely's PostgresDriver knows connections (and runs onCreateConnection)
  // per client object, so one pg client must always get the same wrapper.
  const wrappers = new WeakMap<PgPoolClientLike, NormalisingClient>()

  return {
    async connect() {
      const client = await pool.connect()
      let wrapper = wrappers.get(client)
      if (!wrapper) {
        wrapper = new NormalisingClient(client, cancels)
        wrappers.set(client, wrapper)
      }
      return wrapper
    },
    async end() {
      if (closeOnDestroy) await pool.end()
      if (cancels !== pool) await cancels.end()
    },
  }
}

class NormalisingClient implements PostgresPoolClient {
  readonly #client: PgPoolClientLike
  readonly #cancels: PgPoolLike
  readonly #types: { getTypeParser: PgGetTypeParser }
  #backendPid: number | undefined
  /** While the client holds `analysisPlanner`'s settings: the value to put back. */
  #plannerBefore: string | undefined

  constructor(client: PgPoolClientLike, cancels: PgPoolLike) {
    this.#client = client
    this.#cancels = cancels
    // The client's own lookup, so the caller's parsers still apply to other types.
    this.#types = { getTypeParser: withTypeParsers((oid, format) => client.getTypeParser(oid, format)) }
  }

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>
  query<R>(
    sqlOrCursor: string | PostgresCursor<R>,
    parameters: ReadonlyArray<unknown> = [],
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof sqlOrCursor !== 'string') {
      throw new TypeError('streaming needs a pg cursor, which this dialect does not configure')
    }
    return this.#query<R>(sqlOrCursor, parameters)
  }

  release(): void {
    const before = this.#plannerBefore
    if (before === undefined) return this.#client.release()
    this.#plannerBefore = undefined
    // The pool gets the client back only once its planner settings are put back (one statement,
    // which the analysis does not wait for); a client that cannot run it is discarded.
    const { sql, parameters } = restorePlanner(before)
    this.#client.query({ text: sql, values: [...parameters], types: this.#types }).then(
      () => this.#client.release(),
      (error: unknown) => this.#client.release(error instanceof Error ? error : new Error(String(error))),
    )
  }

  async #query<R>(text: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    const run = () => this.#client.query({ text, values: [...parameters], types: this.#types })
    let result: Awaited<ReturnType<typeof run>>
    if (activeQueryScope()) {
      if (this.#plannerBefore === undefined) {
        const { rows } = await this.#client.query({ text: analysisPlanner.sql, values: [], types: this.#types })
        this.#plannerBefore = String((rows[0] as { before: unknown }).before)
      }
      // Known before the statement: this client takes no second query while it runs.
      const pid = await this.#pid()
      result = await runInterruptible(() => cancelBackend(this.#cancels, pid), run)
    } else {
      result = await run()
    }
    const { command, rowCount, rows } = result
    // kysely reads rowCount only for the commands that set it.
    return { command: command as PostgresQueryResult<R>['command'], rowCount: rowCount ?? 0, rows: rows as R[] }
  }

  async #pid(): Promise<number> {
    const known = this.#client.processID
    if (typeof known === 'number') return known
    if (this.#backendPid === undefined) {
      const { rows } = await this.#client.query({ text: 'select pg_backend_pid() as pid', values: [], types: this.#types })
      this.#backendPid = Number((rows[0] as { pid: unknown }).pid)
    }
    return this.#backendPid
  }
}
