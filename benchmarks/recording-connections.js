// The A/B tools' view of what an engine sends (funnel-ab.js, trend-ab.js): a DuckDB connection and a
// `pg` pool whose statements a callback sees before they run. Not imported by the harness.

/**
 * `raw` (a `@duckdb/node-api` connection) as the DuckDB adapter uses it, calling `record({ sql, values, types })`
 * before each statement.
 */
export const recordingDuckDBConnection = (raw, record) => ({
  run: (sql, values, types) => (record({ sql, values, types }), raw.run(sql, values, types)),
  stream: (sql, values, types) => (record({ sql, values, types }), raw.stream(sql, values, types)),
  createAppender: (table, schema) => raw.createAppender(table, schema),
  interrupt: () => raw.interrupt(),
  disconnectSync: () => raw.disconnectSync(),
})

/**
 * A pool for the Postgres adapter over `pool` (a `pg.Pool`), calling `record({ sql, values })` before each
 * query; `intercept({ sql, values })` may answer a query instead of the server (a result, or undefined to
 * send it). The dialect keeps one wrapper per client object, so one pg client maps to one wrapper. `end`
 * leaves `pool` open: its owner ends it.
 */
export function recordingPgPool(pool, record, intercept = () => undefined) {
  const wrappers = new WeakMap()
  return {
    async connect() {
      const client = await pool.connect()
      if (!wrappers.has(client)) {
        wrappers.set(client, {
          query: (config, values) => {
            const statement = typeof config === 'string' ? { sql: config, values } : { sql: config.text, values: config.values }
            record(statement)
            const answer = intercept(statement)
            return answer === undefined ? client.query(config, values) : Promise.resolve(answer)
          },
          getTypeParser: (oid, format) => client.getTypeParser(oid, format),
          release: () => client.release(),
        })
      }
      return wrappers.get(client)
    },
    end: async () => {},
  }
}
