/**
 * The executor and the scope contract, with no database: statements are
 * plain promises, and "interrupting" one settles it, as a database would.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ConcurrencyLimitError, ConflictError, QueryCancelledError, QueryTimeoutError } from '@sightline/core'
import { activeQueryScope, outsideQueryScope, runInterruptible } from '@sightline/core/storage'
import { checkpoint } from '../../packages/core/src/query/execution/checkpoint.js'
import { QueryExecutor } from '../../packages/core/src/query/execution/query-executor.js'

const executor = (options: Partial<{ timeoutMs: number; maxConcurrentPerProject: number; maxConcurrent: number }> = {}) =>
  new QueryExecutor({ timeoutMs: 30_000, maxConcurrentPerProject: 3, ...options })

/** A promise settled from outside. */
function deferred<T = void>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)))
  return { promise, resolve, reject }
}

/**
 * A statement that runs until interrupted (or `finish`ed), counting the
 * interrupts it receives; `started` resolves once it runs.
 */
function fakeStatement() {
  const running = deferred<string>()
  const started = deferred()
  let interrupts = 0
  return {
    get interrupts() {
      return interrupts
    },
    started: started.promise,
    finish: (value: string) => running.resolve(value),
    run: () =>
      runInterruptible(
        () => {
          interrupts++
          running.reject(new Error('interrupted by the database'))
        },
        () => (started.resolve(), running.promise),
      ),
  }
}

/** Whether `promise` has settled, read without waiting for it. */
function settledFlag(promise: Promise<unknown>) {
  const flag = { settled: false }
  void promise.then(
    () => (flag.settled = true),
    () => (flag.settled = true),
  )
  return flag
}

/**
 * Timeouts and runInterruptible's retries on a fake clock, moved by the test
 * (`vi.advanceTimersByTimeAsync`): what happens at 50 ms happens there, on a
 * loaded machine too, and nothing happens before.
 */
const useFakeClock = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
afterEach(() => {
  vi.useRealTimers()
})

describe('QueryExecutor', () => {
  it('answers with what the analysis answers, its own errors unchanged', async () => {
    const ex = executor()
    expect(await ex.run(1, undefined, async () => 42)).toBe(42)
    const own = new Error('boom')
    await expect(ex.run(1, 'q', async () => Promise.reject(own))).rejects.toBe(own)
  })

  it('runs the analysis inside a scope, and nothing outside has one', async () => {
    const ex = executor()
    expect(activeQueryScope()).toBeUndefined()
    const seen = await ex.run(1, 'q', async () => {
      await new Promise((r) => setTimeout(r, 1))
      return activeQueryScope()
    })
    expect(seen?.signal.aborted).toBe(false)
    expect(activeQueryScope()).toBeUndefined()
  })

  it('cancel interrupts the running statement and the run answers QueryCancelledError at once', async () => {
    const ex = executor()
    const statement = fakeStatement()
    const run = ex.run(7, 'abc', () => statement.run())
    await statement.started
    expect(await ex.cancel(7, 'abc')).toBe(true)
    const error = await run.then(() => null, (e: unknown) => e)
    expect(error).toBeInstanceOf(QueryCancelledError)
    expect((error as QueryCancelledError).clientQueryId).toBe('abc')
    expect(statement.interrupts).toBe(1)
  })

  it('a cancelled analysis runs no further statement: each fails at once without starting', async () => {
    const ex = executor()
    const gate = deferred()
    let started = 0
    const statement = deferred<unknown>()
    const run = ex.run(1, 'q', async () => {
      await gate.promise
      statement.resolve(await runInterruptible(undefined, async () => started++).catch((e: unknown) => e))
    })
    await ex.cancel(1, 'q')
    gate.resolve()
    await expect(run).rejects.toBeInstanceOf(QueryCancelledError)
    // The analysis went on to its statement (its answer came first), which failed without starting.
    expect(await statement.promise).toBeInstanceOf(QueryCancelledError)
    expect(started).toBe(0)
  })

  it('times out with QueryTimeoutError after timeoutMs, interrupting the statement', async () => {
    useFakeClock()
    const ex = executor({ timeoutMs: 50 })
    const statement = fakeStatement()
    const run = ex.run(1, undefined, () => statement.run())
    const answered = settledFlag(run)
    await vi.advanceTimersByTimeAsync(49)
    expect(answered.settled).toBe(false)
    expect(statement.interrupts).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(answered.settled).toBe(true)
    const error = await run.then(() => null, (e: unknown) => e)
    expect(error).toBeInstanceOf(QueryTimeoutError)
    expect((error as QueryTimeoutError).timeoutMs).toBe(50)
    expect(statement.interrupts).toBe(1)
  })

  it('a timeout answers at once even when the analysis ignores it', async () => {
    useFakeClock()
    const ex = executor({ timeoutMs: 30 })
    const never = new Promise<never>(() => {})
    const run = ex.run(1, undefined, () => never)
    const answered = settledFlag(run)
    await vi.advanceTimersByTimeAsync(30)
    expect(answered.settled).toBe(true)
    await expect(run).rejects.toBeInstanceOf(QueryTimeoutError)
  })

  it('refuses the N+1th concurrent analysis of a project, and frees a slot when one finishes', async () => {
    const ex = executor({ maxConcurrentPerProject: 2 })
    const a = deferred<string>()
    const b = deferred<string>()
    const runA = ex.run(1, undefined, () => a.promise)
    const runB = ex.run(1, undefined, () => b.promise)
    let called = false
    const refused = await ex.run(1, undefined, async () => (called = true)).then(() => null, (e: unknown) => e)
    expect(refused).toBeInstanceOf(ConcurrencyLimitError)
    expect(refused).toMatchObject({ projectId: 1, limit: 2 })
    expect(called).toBe(false)
    // Another project has its own slots.
    expect(await ex.run(2, undefined, async () => 'other')).toBe('other')

    a.resolve('a')
    expect(await runA).toBe('a')
    const c = deferred<string>()
    const runC = ex.run(1, undefined, () => c.promise)
    await expect(ex.run(1, undefined, async () => 'x')).rejects.toBeInstanceOf(ConcurrencyLimitError)
    b.resolve('b')
    c.resolve('c')
    expect([await runB, await runC]).toEqual(['b', 'c'])
    expect(await ex.run(1, undefined, async () => 'free again')).toBe('free again')
  })

  it('with maxConcurrent, another project waits for a slot, and gets it before the first project\'s next', async () => {
    const ex = executor({ maxConcurrent: 1 })
    const held = deferred<string>()
    const order: string[] = []
    const first = ex.run(1, undefined, async () => (order.push('1a'), held.promise))
    const again = ex.run(1, undefined, async () => (order.push('1b'), '1b'))
    const other = ex.run(2, undefined, async () => (order.push('2a'), '2a'))
    await Promise.resolve()
    expect(order).toEqual(['1a'])
    held.resolve('1a')
    expect(await Promise.all([first, again, other])).toEqual(['1a', '1b', '2a'])
    // Project 2 waited less: it was served before project 1's second analysis.
    expect(order).toEqual(['1a', '2a', '1b'])
  })

  it('an analysis cancelled or timed out while waiting for a slot answers so and never runs', async () => {
    useFakeClock()
    const ex = executor({ maxConcurrent: 1, timeoutMs: 50 })
    const held = deferred<string>()
    let ran = 0
    // The first holds the only slot until released below (it times out too: its answer is not read).
    const first = ex.run(1, undefined, async () => held.promise).catch(() => {})
    // The waiter's 50 ms timeout comes while the slot is still held.
    const waiting = ex.run(2, undefined, async () => (ran++, 'ran'))
    const waited = waiting.catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(50)
    expect(await waited).toBeInstanceOf(QueryTimeoutError)
    const cancelled = ex.run(3, 'c', async () => (ran++, 'ran'))
    await ex.cancel(3, 'c')
    await expect(cancelled).rejects.toBeInstanceOf(QueryCancelledError)
    held.resolve('done')
    await first
    expect(ran).toBe(0)
    // The slot is free again for the next one.
    const ex2 = executor({ maxConcurrent: 1 })
    expect(await ex2.run(4, undefined, async () => 'next')).toBe('next')
  })

  it('a cancelled analysis stops at its next checkpoint of JavaScript work, and its slot frees', async () => {
    const ex = executor({ maxConcurrentPerProject: 1 })
    let steps = 0
    const endless = ex.run(1, 'js', async () => {
      for (;;) {
        steps++
        await checkpoint()
      }
    })
    const outcome = endless.catch((e: unknown) => e)
    while (steps < 3) await new Promise((r) => setImmediate(r))
    await ex.cancel(1, 'js')
    expect(await outcome).toBeInstanceOf(QueryCancelledError)
    // The endless work ended at its checkpoint: the project's only slot is free again.
    await expect.poll(() => ex.run(1, undefined, async () => 'next').catch((e: { _tag?: string }) => e._tag), { timeout: 10_000 }).toBe('next')
    const stepsAtEnd = steps
    await new Promise((r) => setImmediate(r))
    expect(steps).toBe(stepsAtEnd)
  })

  it('a stopped analysis keeps its slot until its work has really ended', async () => {
    const ex = executor({ maxConcurrentPerProject: 1 })
    const work = deferred<string>()
    const run = ex.run(1, 'slow', () => work.promise)
    await ex.cancel(1, 'slow')
    await expect(run).rejects.toBeInstanceOf(QueryCancelledError)
    await expect(ex.run(1, undefined, async () => 'x')).rejects.toBeInstanceOf(ConcurrencyLimitError)
    work.resolve('late')
    // The slot is freed as the work settles, in promise callbacks: all run before the next turn of the event loop.
    await new Promise((r) => setImmediate(r))
    expect(await ex.run(1, undefined, async () => 'x')).toBe('x')
  })

  it('refuses a client_query_id already running in the project, and frees it once answered', async () => {
    const ex = executor()
    const first = deferred<string>()
    const run = ex.run(1, 'same', () => first.promise)
    const duplicate = await ex.run(1, 'same', async () => 'second').then(() => null, (e: unknown) => e)
    expect(duplicate).toBeInstanceOf(ConflictError)
    expect((duplicate as ConflictError).attr).toBe('client_query_id')
    // The same id in another project is another query.
    expect(await ex.run(2, 'same', async () => 'elsewhere')).toBe('elsewhere')
    first.resolve('first')
    expect(await run).toBe('first')
    expect(await ex.run(1, 'same', async () => 'again')).toBe('again')
  })

  it('cancel of an unknown, finished or other project id answers false and stops nothing', async () => {
    const ex = executor()
    expect(await ex.cancel(1, 'never-started')).toBe(false)
    await ex.run(1, 'done', async () => 'ok')
    expect(await ex.cancel(1, 'done')).toBe(false)
    const work = deferred<string>()
    const run = ex.run(1, 'mine', () => work.promise)
    expect(await ex.cancel(2, 'mine')).toBe(false)
    work.resolve('finished')
    expect(await run).toBe('finished')
  })

  it('validates its options', () => {
    expect(() => executor({ timeoutMs: 0 })).toThrow(RangeError)
    expect(() => executor({ timeoutMs: 2 ** 31 })).toThrow(RangeError)
    expect(() => executor({ maxConcurrentPerProject: 0 })).toThrow(RangeError)
    expect(() => executor({ maxConcurrentPerProject: 1.5 })).toThrow(RangeError)
    expect(() => executor({ maxConcurrent: 0 })).toThrow(/maxConcurrent must be a positive integer/)
    expect(() => executor({ maxConcurrent: 2.5 })).toThrow(RangeError)
  })
})

describe('runInterruptible: the adapters’ side of the contract', () => {
  it('outside any scope, runs the statement and never interrupts it', async () => {
    let interrupted = false
    expect(await runInterruptible(() => void (interrupted = true), async () => 'plain')).toBe('plain')
    expect(interrupted).toBe(false)
  })

  it('interrupts again until the statement stops (a database may drop an early interrupt): after 50 ms, then twice as long', async () => {
    useFakeClock()
    const ex = executor()
    const running = deferred<string>()
    let calls = 0
    const run = ex.run(1, 'q', () =>
      runInterruptible(
        () => {
          // The first two interrupts arrive "before the statement started" and are lost.
          if (++calls === 3) running.reject(new Error('interrupted'))
        },
        () => running.promise,
      ),
    )
    await ex.cancel(1, 'q')
    await expect(run).rejects.toBeInstanceOf(QueryCancelledError)
    expect(calls).toBe(1)
    await vi.advanceTimersByTimeAsync(49)
    expect(calls).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(calls).toBe(2)
    await vi.advanceTimersByTimeAsync(99)
    expect(calls).toBe(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(calls).toBe(3)
    // Stopped: no more interrupts, however long.
    await vi.advanceTimersByTimeAsync(10_000)
    expect(calls).toBe(3)
  })

  it('settles only after the interrupt in flight has returned, so the connection is never handed on mid-cancel', async () => {
    const ex = executor()
    const running = deferred<string>()
    const cancelSent = deferred()
    const order: string[] = []
    let inner!: Promise<unknown>
    const statement = ex.run(1, 'q', () => {
      inner = runInterruptible(
        async () => {
          order.push('interrupt sent')
          running.reject(new Error('stopped'))
          await cancelSent.promise
          order.push('interrupt returned')
        },
        () => running.promise,
      ).finally(() => order.push('statement settled'))
      return inner
    })
    await ex.cancel(1, 'q')
    await expect(statement).rejects.toBeInstanceOf(QueryCancelledError)
    // The statement has stopped, and everything that follows from that alone has run: promise callbacks, before the next turn.
    await new Promise((r) => setImmediate(r))
    expect(order).toEqual(['interrupt sent'])
    cancelSent.resolve()
    await expect(inner).rejects.toBeInstanceOf(QueryCancelledError)
    expect(order).toEqual(['interrupt sent', 'interrupt returned', 'statement settled'])
  })

  it('discards the result of a statement that could not be interrupted', async () => {
    const ex = executor()
    const running = deferred<string>()
    const result = deferred<unknown>()
    const run = ex.run(1, 'q', async () => {
      result.resolve(await runInterruptible(undefined, () => running.promise).catch((e: unknown) => e))
    })
    await ex.cancel(1, 'q')
    await expect(run).rejects.toBeInstanceOf(QueryCancelledError)
    running.resolve('rows')
    expect(await result.promise).toBeInstanceOf(QueryCancelledError)
  })

  it('outsideQueryScope runs even in a cancelled analysis (the rollback that cleans a connection)', async () => {
    const ex = executor()
    const gate = deferred()
    const rolledBack = deferred<boolean>()
    const run = ex.run(1, 'q', async () => {
      await gate.promise
      rolledBack.resolve(await outsideQueryScope(() => runInterruptible(undefined, async () => true)))
    })
    await ex.cancel(1, 'q')
    gate.resolve()
    await expect(run).rejects.toBeInstanceOf(QueryCancelledError)
    expect(await rolledBack.promise).toBe(true)
  })

  it('an analysis run inside another is cancelled with it', async () => {
    const outer = executor()
    const inner = executor()
    const statement = fakeStatement()
    const run = outer.run(1, 'outer', () => inner.run(1, 'inner', () => statement.run()))
    await statement.started
    await outer.cancel(1, 'outer')
    await expect(run).rejects.toBeInstanceOf(QueryCancelledError)
    expect(statement.interrupts).toBe(1)
  })
})
