/**
 * Analyses under control on every target: a statement cancelled or timed out
 * mid-flight stops in the database itself (DuckDB's interrupt, Postgres's
 * pg_cancel_backend), and its connection is usable afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { ConcurrencyLimitError, ConflictError, QueryCancelledError, QueryTimeoutError } from '@sightline/core'
import { QueryExecutor } from '../../packages/core/src/query/execution/query-executor.js'
import { executionTargets, isInterruptible, MARK, openExecutionDb, serverSkipReason, type ExecutionDb } from './execution-db.js'

/**
 * A hang guard, not a measure: long enough for a broken cancel to let the long
 * statement end by itself first. No assertion here depends on how long anything
 * takes: each waits for an event (a statement handed to the database, a
 * promise settling, a row in pg_stat_activity) and checks an outcome.
 */
const LONG_TEST = { timeout: 60_000 }

const executor = (timeoutMs = 60_000, maxConcurrentPerProject = 3) => new QueryExecutor({ timeoutMs, maxConcurrentPerProject })
const countOf = (rows: ReadonlyArray<{ n: unknown }>) => Number(rows[0]?.n)

/** The database's own error for a statement it stopped (DuckDB's interrupt, Postgres's 57014). */
const STOPPED_BY_THE_DATABASE = /interrupt|cancel/i

/** One statement an analysis handed to the database, as the database answered it. */
interface HandedStatement {
  /** Whether the database has answered it yet. */
  settled: boolean
  /** Its own outcome, before the analysis' reason replaced it: ran to its end, or stopped with the database's error. */
  readonly outcome: Promise<{ ranToItsEnd: true } | { stopped: unknown }>
}

/** A promise settled from outside. */
function deferred<T>() {
  let resolve!: (value: T | PromiseLike<T>) => void
  const promise = new Promise<T>((res) => (resolve = res))
  return { promise, resolve }
}

/**
 * An executor that reports each statement its analyses hand to the database
 * (`QueryExecutorOptions.onStatementStart`) and whose timeout fires when the
 * test says so (`startTimeout`), not when a real timer does.
 * `onStart` runs synchronously as a statement is handed over.
 */
function observedExecutor(options: { onStart?: (statement: HandedStatement, index: number) => void } = {}) {
  const statements: HandedStatement[] = []
  const waiting: Array<(statement: HandedStatement) => void> = []
  const timeouts = new Set<() => void>()
  const ex = new QueryExecutor({
    timeoutMs: 60_000,
    maxConcurrentPerProject: 3,
    startTimeout: (onTimeout) => {
      timeouts.add(onTimeout)
      return () => timeouts.delete(onTimeout)
    },
    onStatementStart: (running) => {
      const statement: HandedStatement = {
        settled: false,
        outcome: running.then(
          () => ({ ranToItsEnd: true as const }),
          (error: unknown) => ({ stopped: error }),
        ),
      }
      void statement.outcome.then(() => (statement.settled = true))
      statements.push(statement)
      options.onStart?.(statement, statements.length - 1)
      waiting.shift()?.(statement)
    },
  })
  return {
    ex,
    statements,
    /** The next statement handed to the database: call it before the code that sends it. */
    next(): Promise<HandedStatement> {
      return new Promise((resolve) => waiting.push(resolve))
    },
    /** Fires the timeouts of the analyses running now, as if their time had passed. */
    fireTimeouts(): void {
      for (const onTimeout of [...timeouts]) onTimeout()
    },
  }
}

/** Runs `run` as one analysis; `work` settles when the analysis' own work has ended, whatever its answer. */
const analysis = <T>(ex: QueryExecutor, id: string | undefined, run: () => Promise<T>) => {
  const ended = deferred<void>()
  const answer = ex.run(1, id, () => run().finally(() => ended.resolve()))
  return { answer, work: ended.promise }
}

/** What an answer was, and whether the statement had been answered by the database by then. */
const answerBefore = (answer: Promise<unknown>, statement: HandedStatement) =>
  answer.then(
    () => ({ error: undefined as unknown, statementSettled: statement.settled }),
    (error: unknown) => ({ error, statementSettled: statement.settled }),
  )

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

    /**
     * Resolves once `statement`, handed to the database, runs there: on the
     * server, once Postgres lists it as active (a cancel before that would be
     * dropped, then sent again by runInterruptible). DuckDB has no such view;
     * an interrupt it drops before the statement starts is sent again until
     * the statement stops (see runInterruptible), so being handed over is enough.
     */
    const runningInTheDatabase = async (statement: Promise<HandedStatement>) => {
      const handed = await statement
      if (isServer) await expect.poll(activeOnServer, { timeout: 10_000, interval: 50 }).toBe(1)
      return handed
    }

    /** The database stopped the statement: it failed with the database's own error instead of returning its rows. */
    const expectStoppedByTheDatabase = async (statement: HandedStatement) => {
      const outcome = await statement.outcome
      expect(outcome).toHaveProperty('stopped')
      expect(String((outcome as { stopped: unknown }).stopped)).toMatch(STOPPED_BY_THE_DATABASE)
    }

    it.runIf(isInterruptible(target))('a long statement cancelled mid-flight stops in the database; its connection works afterwards', LONG_TEST, async () => {
      const { ex, next } = observedExecutor()
      await x.db.connection().execute(async (connection) => {
        const long = next()
        const { answer, work } = analysis(ex, 'long', () => x.long().execute(connection))
        const statement = await runningInTheDatabase(long)
        expect(await ex.cancel(1, 'long')).toBe(true)
        // It answers at once: before the database has even let go of the statement.
        const answered = await answerBefore(answer, statement)
        expect(answered.error).toBeInstanceOf(QueryCancelledError)
        expect(answered.statementSettled).toBe(false)
        await expectStoppedByTheDatabase(statement)
        await work
        // The very connection that ran the cancelled statement.
        expect(countOf((await x.short().execute(connection)).rows)).toBe(x.shortCount)
        // pg answers an error before Postgres reports the backend idle, a success only after: none of ours runs now.
        if (isServer) expect(await activeOnServer()).toBe(0)
      })
    })

    it.runIf(isInterruptible(target))('a long statement times out: QueryTimeoutError, and the database stops it', LONG_TEST, async () => {
      const { ex, next, fireTimeouts } = observedExecutor()
      await x.db.connection().execute(async (connection) => {
        const long = next()
        const { answer, work } = analysis(ex, undefined, () => x.long().execute(connection))
        const statement = await runningInTheDatabase(long)
        // Its time runs out while the statement runs.
        fireTimeouts()
        const answered = await answerBefore(answer, statement)
        expect(answered.error).toBeInstanceOf(QueryTimeoutError)
        expect(answered.statementSettled).toBe(false)
        await expectStoppedByTheDatabase(statement)
        await work
        // A statement that succeeds on that connection: Postgres has reported it idle (see above).
        expect(countOf((await sql<{ n: number }>`select 1 as n`.execute(connection)).rows)).toBe(1)
        if (isServer) expect(await activeOnServer()).toBe(0)
      })
    })

    it.runIf(isInterruptible(target))('cancelled inside a transaction: it still rolls back, and its connection is out of any transaction', LONG_TEST, async () => {
      const { ex, next } = observedExecutor()
      await x.db.connection().execute(async (connection) => {
        const long = deferred<HandedStatement>()
        const { answer, work } = analysis(ex, 'in-tx', () =>
          connection.transaction().execute((trx) => {
            // The statement after BEGIN.
            long.resolve(next())
            return x.long().execute(trx)
          }),
        )
        const statement = await runningInTheDatabase(long.promise)
        await ex.cancel(1, 'in-tx')
        await expect(answer).rejects.toBeInstanceOf(QueryCancelledError)
        await expectStoppedByTheDatabase(statement)
        await work
        const rows = await connection.transaction().execute((trx) => x.short().execute(trx))
        expect(countOf(rows.rows)).toBe(x.shortCount)
      })
    })

    it.runIf(isInterruptible(target))('a statement outside any analysis is untouched by a cancel running beside it', LONG_TEST, async () => {
      const { ex, next, statements } = observedExecutor()
      const long = next()
      const { answer, work } = analysis(ex, 'beside', () => x.long().execute(x.db))
      const statement = await runningInTheDatabase(long)
      const plain = x.short().execute(x.db)
      await ex.cancel(1, 'beside')
      await expect(answer).rejects.toBeInstanceOf(QueryCancelledError)
      expect(countOf((await plain).rows)).toBe(x.shortCount)
      await expectStoppedByTheDatabase(statement)
      await work
      // The plain statement was no statement of the analysis.
      expect(statements).toHaveLength(1)
    })

    /**
     * PGlite runs Postgres on the JavaScript thread: a cancel request or a
     * timer that falls due while a statement runs gets its turn only when the
     * statement ends. Here it is a timer set as the first statement is handed
     * to the database, so it falls due while that statement runs, however fast
     * or slow the machine is; the next statement yields to the event loop
     * before it starts (PGliteConnection), and timers of equal delay run in
     * the order they were set, so this one runs first and stops it.
     */
    const dueWhileTheFirstStatementRuns = (act: () => void) => (_: HandedStatement, index: number) => {
      if (index === 0) setTimeout(act, 0)
    }

    it.runIf(!isInterruptible(target))('cannot stop a statement: a cancel takes effect when it ends, and no later statement runs', LONG_TEST, async () => {
      let cancelled: Promise<boolean> | undefined
      const observed = observedExecutor({ onStart: dueWhileTheFirstStatementRuns(() => (cancelled = observed.ex.cancel(1, 'steps'))) })
      const { answer, work } = analysis(observed.ex, 'steps', async () => {
        for (let i = 0; i < 5; i++) await x.short().execute(x.db)
      })
      await expect(answer).rejects.toBeInstanceOf(QueryCancelledError)
      expect(await cancelled).toBe(true)
      await work
      // The database ran the first statement to its end; no later one was handed to it.
      expect(observed.statements).toHaveLength(1)
      expect(await observed.statements[0]!.outcome).toEqual({ ranToItsEnd: true })
      expect(countOf((await x.short().execute(x.db)).rows)).toBe(x.shortCount)
    })

    it.runIf(!isInterruptible(target))('cannot stop a statement: a timeout takes effect when it ends, and no later statement runs', LONG_TEST, async () => {
      const observed = observedExecutor({ onStart: dueWhileTheFirstStatementRuns(() => observed.fireTimeouts()) })
      const { answer, work } = analysis(observed.ex, undefined, async () => {
        for (let i = 0; i < 5; i++) await x.short().execute(x.db)
      })
      await expect(answer).rejects.toBeInstanceOf(QueryTimeoutError)
      await work
      expect(observed.statements).toHaveLength(1)
      expect(await observed.statements[0]!.outcome).toEqual({ ranToItsEnd: true })
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
      // A connection kysely never released would keep the pool, and this close, waiting forever
      // (a hang guard: a correct close ends long before).
      const closed = await Promise.race([other.close().then(() => true), new Promise((r) => setTimeout(() => r(false), 30_000))])
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
