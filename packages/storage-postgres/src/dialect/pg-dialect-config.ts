import type {
  DatabaseConnection,
  PostgresCursor,
  PostgresDialectConfig,
  PostgresPool,
  PostgresPoolClient,
  PostgresQueryResult,
} from 'kysely'
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
  release(): void
}

export type PgDialectOptions =
  /** A pool is created from the URL (importing pg then) and ended by `Kysely#destroy()`. */
  | { readonly connectionString: string }
  | {
      /** A pool the caller created: for TLS, pool sizes and other pg settings. */
      readonly pool: PgPoolLike
      /** Whether `Kysely#destroy()` ends `pool`. Default `false`: the caller created it, and ends it. */
      readonly closeOnDestroy?: boolean
    }

/**
 * Builds the config of kysely's `PostgresDialect`. Rows follow Sightline's
 * row contract (`typeParsers`) on either kind of pool, and every new
 * connection runs `sessionSettingsQuery` (TimeZone UTC, DateStyle ISO);
 * this shows in other users of a caller's pool too.
 */
export function createPgDialectConfig(options: PgDialectOptions & { readonly schema?: string }): PostgresDialectConfig {
  const settings = sessionSettings(options.schema)
  let pool: PostgresDialectConfig['pool']
  if ('pool' in options) {
    pool = normalisingPool(options.pool, options.closeOnDestroy ?? false)
  } else {
    const { connectionString } = options
    pool = () => createPool(connectionString)
  }

  return Object.freeze({
    pool,
    // Not pg's `options: '-c TimeZone=UTC'`: an `options` parameter in the
    // connection string would silently replace it.
    onCreateConnection: async (connection: DatabaseConnection) => {
      await connection.executeQuery(settings)
    },
  })
}

async function createPool(connectionString: string): Promise<PostgresPool> {
  // Imported here so that pg, an optional peer dependency, is needed only by
  // those who connect with a URL.
  const { Pool, types } = await import('pg')
  return new Pool({ connectionString, types: { getTypeParser: withTypeParsers(types.getTypeParser) } })
}

// Text is the format pg asks for, unless a query requested binary results.
function withTypeParsers(fallback: PgGetTypeParser): PgGetTypeParser {
  return (oid, format = 'text') => (format === 'text' ? typeParsers[oid] : undefined) ?? fallback(oid, format)
}

// A caller's pool keeps its own type parsers; ours are given per query instead.
function normalisingPool(pool: PgPoolLike, closeOnDestroy: boolean): PostgresPool {
  // kysely's PostgresDriver knows connections (and runs onCreateConnection)
  // per client object, so one pg client must always get the same wrapper.
  const wrappers = new WeakMap<PgPoolClientLike, NormalisingClient>()

  return {
    async connect() {
      const client = await pool.connect()
      let wrapper = wrappers.get(client)
      if (!wrapper) {
        wrapper = new NormalisingClient(client)
        wrappers.set(client, wrapper)
      }
      return wrapper
    },
    async end() {
      if (closeOnDestroy) await pool.end()
    },
  }
}

class NormalisingClient implements PostgresPoolClient {
  readonly #client: PgPoolClientLike
  readonly #types: { getTypeParser: PgGetTypeParser }

  constructor(client: PgPoolClientLike) {
    this.#client = client
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
    this.#client.release()
  }

  async #query<R>(text: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    const { command, rowCount, rows } = await this.#client.query({ text, values: [...parameters], types: this.#types })
    // kysely reads rowCount only for the commands that set it.
    return { command: command as PostgresQueryResult<R>['command'], rowCount: rowCount ?? 0, rows: rows as R[] }
  }
}
