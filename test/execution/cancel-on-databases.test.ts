/**
 * Analyses under control on every target: a statement cancelled or timed out
 * mid-flight stops in the database itself (DuckDB's interrupt, Postgres's
 * pg_cancel_backend), and its connection is usable afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql, type Kysely } from 'kysely'
import { ConcurrencyLimitError, ConflictError, QueryCancelledError, QueryTimeoutError } from '@sightline/core'
import { QueryExecutor } from '../../packages/core/src/query/execution/query-executor.js'
import { executionTargets, isInterruptible, MARK, openExecutionDb, serverSkipReason, type ExecutionDb } from './execution-db.js'

/** Long enough for a broken cancel to let the long statement end by itself first. */
const LONG_TEST = { timeout: 60_000 }
/** A stopped statement must end this soon after the cancel; it would run 10 s or more otherwise. */
const STOPS_WITHIN_MS = 2_500

const executor = (timeoutMs = 60_000, maxConcurrentPerProject = 3) => new QueryExecutor({ timeoutMs, maxConcurrentPerProject })
const countOf = (rows: ReadonlyArray<{ n: unknown }>) => Number(rows[0]?.n)

for (const target of executionTargets) {
  describe(`analyses under control on ${target.name}`, () => {
    let x: ExecutionDb
    beforeAll(async () => {
      x = await openExecutionDb(target)
    })
    afterAll(() => x?.close())

    const isServer = target.name === 'postgres (server)'

    /** Statements of these tests that Postgres runs now (our own reading of pg_stat_activity aside). */
    const activeOnServer = async () => {
      const rows = await x.fresh.raw<{ n: number }>(
        `select count(*) as n from pg_stat_activity where state = 'active' and query like $1 and pid <> pg_backend_pid()`,
        [`%${MARK}%`],
      )
      return Number(rows[0]?.n)
    }

    /** Resolves once the statement is running in the database, not merely sent. */
    const running = async () => {
      if (isServer) await expect.poll(activeOnServer, { timeout: 10_000, interval: 50 }).toBe(1)
      else await new Promise((r) => setTimeout(r, 500))
    }

    /** Runs the long statement on `db` as one analysis, recording when the database let go of it. */
    const longAnalysis = (ex: QueryExecutor, id: string, db: Kysely<any>, run = () => x.long().execute(db)) => {
      const ended = { at: 0 }
      const answer = ex.run(1, id, async () => {
        try {
          return await run()
        } finally {
          ended.at = Date.now()
        }
      })
      return { answer, ended }
    }

    it.runIf(isInterruptible(target))('a long statement cancelled mid-flight stops in the database; its connection works afterwards', LONG_TEST, async () => {
      const ex = executor()
      await x.db.connection().execute(async (connection) => {
        const { answer, ended } = longAnalysis(ex, 'long', connection)
        await running()
        const cancelledAt = Date.now()
        expect(await ex.cancel(1, 'long')).toBe(true)
        await expect(answer).rejects.toBeInstanceOf(QueryCancelledError)
        expect(Date.now() - cancelledAt).toBeLessThan(500)
        await expect.poll(() => ended.at, { timeout: STOPS_WITHIN_MS, interval: 20 }).toBeGreaterThan(0)
        if (isServer) expect(await activeOnServer()).toBe(0)
        // The very connection that ran the cancelled statement.
        expect(countOf((await x.short().execute(connection)).rows)).toBe(x.shortCount)
      })
    })

    it.runIf(isInterruptible(target))('a long statement times out: QueryTimeoutError, and the database stops it', LONG_TEST, async () => {
      const ex = executor(400)
      const started = Date.now()
      const { answer, ended } = longAnalysis(ex, 'slow', x.db)
      const error = await answer.then(() => null, (e: unknown) => e)
      expect(error).toBeInstanceOf(QueryTimeoutError)
      expect(Date.now() - started).toBeLessThan(1_500)
      await expect.poll(() => ended.at, { timeout: STOPS_WITHIN_MS, interval: 20 }).toBeGreaterThan(0)
      if (isServer) expect(await activeOnServer()).toBe(0)
    })

    it.runIf(isInterruptible(target))('cancelled inside a transaction: it still rolls back, and its connection is out of any transaction', LONG_TEST, async () => {
      const ex = executor()
      await x.db.connection().execute(async (connection) => {
        const { answer, ended } = longAnalysis(ex, 'in-tx', connection, () => connection.transaction().execute((trx) => x.long().execute(trx)))
        await running()
        await ex.cancel(1, 'in-tx')
        await expect(answer).rejects.toBeInstanceOf(QueryCancelledError)
        await expect.poll(() => ended.at, { timeout: STOPS_WITHIN_MS, interval: 20 }).toBeGreaterThan(0)
        const rows = await connection.transaction().execute((trx) => x.short().execute(trx))
        expect(countOf(rows.rows)).toBe(x.shortCount)
      })
    })

    it.runIf(isInterruptible(target))('a statement outside any analysis is untouched by a cancel running beside it', LONG_TEST, async () => {
      const ex = executor()
      const { answer, ended } = longAnalysis(ex, 'beside', x.db)
      await running()
      const plain = x.short().execute(x.db)
      await ex.cancel(1, 'beside')
      await expect(answer).rejects.toBeInstanceOf(QueryCancelledError)
      expect(countOf((await plain).rows)).toBe(x.shortCount)
      await expect.poll(() => ended.at, { timeout: STOPS_WITHIN_MS, interval: 20 }).toBeGreaterThan(0)
    })

    it.runIf(!isInterruptible(target))('cannot stop a statement: a cancel takes effect when it ends, and no later statement runs', LONG_TEST, async () => {
      const ex = executor()
      let statements = 0
      const answer = ex.run(1, 'steps', async () => {
        for (let i = 0; i < 5; i++) {
          await x.short().execute(x.db)
          statements++
        }
      })
      // A timer, like a cancel request arriving: it runs once the first statement lets go of the thread.
      setTimeout(() => void ex.cancel(1, 'steps'), 50)
      await expect(answer).rejects.toBeInstanceOf(QueryCancelledError)
      await new Promise((r) => setTimeout(r, 50))
      expect(statements).toBe(1)
      expect(countOf((await x.short().execute(x.db)).rows)).toBe(x.shortCount)
    })

    it.runIf(!isInterruptible(target))('cannot stop a statement: a timeout takes effect when it ends, and no later statement runs', LONG_TEST, async () => {
      const ex = executor(100)
      let statements = 0
      const answer = ex.run(1, undefined, async () => {
        for (let i = 0; i < 5; i++) {
          await x.short().execute(x.db)
          statements++
        }
      })
      await expect(answer).rejects.toBeInstanceOf(QueryTimeoutError)
      await new Promise((r) => setTimeout(r, 50))
      expect(statements).toBe(1)
    })

    it.runIf(isServer)('a cancel while the pool opens a connection for the analysis loses no connection', LONG_TEST, async () => {
      const other = await openExecutionDb(target)
      const ex = executor(60_000, 1)
      // The pool is empty: the statement needs a new connection, set up before it runs.
      const answer = ex.run(1, 'early', () => other.short().execute(other.db))
      await ex.cancel(1, 'early')
      await expect(answer).rejects.toBeInstanceOf(QueryCancelledError)
      // The project's one slot is free again once that work has ended.
      await expect.poll(() => ex.run(1, undefined, async () => 'free').catch(() => 'busy'), { timeout: 10_000 }).toBe('free')
      // A connection kysely never released would keep the pool, and this close, waiting forever.
      const closed = await Promise.race([other.close().then(() => true), new Promise((r) => setTimeout(() => r(false), 5_000))])
      expect(closed).toBe(true)
    })

    it('refuses the N+1th concurrent analysis of a project and frees a slot when one finishes', async () => {
      const ex = executor(60_000, 2)
      const first = ex.run(1, undefined, () => x.short().execute(x.db))
      const second = ex.run(1, undefined, () => x.short().execute(x.db))
      await expect(ex.run(1, undefined, () => x.short().execute(x.db))).rejects.toBeInstanceOf(ConcurrencyLimitError)
      expect(countOf((await first).rows)).toBe(x.shortCount)
      const third = ex.run(1, undefined, () => x.short().execute(x.db))
      expect(countOf((await second).rows)).toBe(x.shortCount)
      expect(countOf((await third).rows)).toBe(x.shortCount)
    })

    it('refuses a client_query_id already running; a cancel of an unknown id is false', async () => {
      const ex = executor()
      const first = ex.run(1, 'dup', () => x.short().execute(x.db))
      await expect(ex.run(1, 'dup', () => x.short().execute(x.db))).rejects.toBeInstanceOf(ConflictError)
      expect(await ex.cancel(1, 'unknown')).toBe(false)
      expect(countOf((await first).rows)).toBe(x.shortCount)
      expect(await ex.cancel(1, 'dup')).toBe(false)
    })

    it('a statement outside any analysis runs as before', async () => {
      expect(countOf((await sql<{ n: number }>`select 1 as n`.execute(x.db)).rows)).toBe(1)
      expect(countOf((await x.short().execute(x.db)).rows)).toBe(x.shortCount)
    })
  })
}

const reason = serverSkipReason
if (reason) {
  describe('postgres (server)', () => {
    it.skip(reason, () => {})
  })
}
