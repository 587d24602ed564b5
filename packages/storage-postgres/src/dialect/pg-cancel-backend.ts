import type { PgGetTypeParser, PgPoolLike } from './pg-dialect-config.js'

/**
 * Cancels the statement that Postgres backend `pid` runs, with
 * `pg_cancel_backend` sent on another client of `pool`: the busy client
 * cannot take a second query until its statement ends.
 *
 * With a caller's pool, the cancel waits for a free client when the pool is
 * exhausted; the analysis has already answered by then, only the database
 * keeps working meanwhile. A pool made from a URL has a cancel pool of its own.
 * A cancel that arrives while the backend is between statements is ignored
 * by Postgres, so it can never stop a later statement of someone else.
 */
export async function cancelBackend(pool: PgPoolLike, pid: number): Promise<void> {
  const client = await pool.connect()
  try {
    const types: { getTypeParser: PgGetTypeParser } = { getTypeParser: (oid, format) => client.getTypeParser(oid, format) }
    await client.query({ text: 'select pg_cancel_backend($1)', values: [pid], types })
  } finally {
    client.release()
  }
}
