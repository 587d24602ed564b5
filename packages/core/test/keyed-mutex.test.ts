import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { KeyedMutex } from '../src/util/keyed-mutex.js'

/** A promise the test settles by hand. */
function gate<T = void>() {
  let open!: (value: T) => void
  let fail!: (error: unknown) => void
  const promise = new Promise<T>((resolve, reject) => {
    open = resolve
    fail = reject
  })
  return { promise, open, fail }
}

/** Lets every queued microtask and promise callback run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('KeyedMutex', () => {
  it('runs calls of one key one at a time, in call order', async () => {
    const locks = new KeyedMutex()
    const log: string[] = []
    const first = gate()
    const a = locks.run('p1', async () => {
      log.push('a start')
      await first.promise
      log.push('a end')
    })
    const b = locks.run('p1', async () => {
      log.push('b')
    })
    await settle()
    expect(log).toEqual(['a start'])
    first.open()
    await Promise.all([a, b])
    expect(log).toEqual(['a start', 'a end', 'b'])
  })

  it('runs calls of other keys while one key is held', async () => {
    const locks = new KeyedMutex()
    const held = gate()
    let heldDone = false
    const a = locks.run('p1', async () => {
      await held.promise
      heldDone = true
    })
    // p2 completes although p1's call has not finished: no timer, the order alone proves it.
    await expect(locks.run('p2', async () => 'b')).resolves.toBe('b')
    expect(heldDone).toBe(false)
    expect(locks.activeKeys).toBe(1)
    held.open()
    await a
  })

  it('a rejection reaches its caller and the next call of the key still runs', async () => {
    const locks = new KeyedMutex()
    const failing = locks.run('p1', async () => {
      throw new Error('boom')
    })
    const throwing = locks.run('p1', () => {
      throw new Error('sync boom')
    })
    const next = locks.run('p1', async () => 'ran')
    await expect(failing).rejects.toThrow('boom')
    await expect(throwing).rejects.toThrow('sync boom')
    await expect(next).resolves.toBe('ran')
  })

  it('forgets a key once its calls settle: no entry per key ever seen', async () => {
    const locks = new KeyedMutex()
    await Promise.all(Array.from({ length: 1000 }, (_, i) => locks.run(`project:${i}`, async () => i)))
    await Promise.allSettled([locks.run('p', async () => Promise.reject(new Error('x')))])
    await settle()
    expect(locks.activeKeys).toBe(0)
  })

  it('keeps a key while a later call is queued behind a finished one', async () => {
    const locks = new KeyedMutex()
    const second = gate()
    const a = locks.run('p1', async () => 'a')
    const b = locks.run('p1', () => second.promise)
    await a
    await settle()
    expect(locks.activeKeys).toBe(1)
    second.open()
    await b
    await settle()
    expect(locks.activeKeys).toBe(0)
  })

  it('idle waits for every key, calls queued meanwhile included', async () => {
    const locks = new KeyedMutex()
    const g1 = gate()
    const g2 = gate()
    const done: string[] = []
    void locks.run('p1', async () => {
      await g1.promise
      done.push('p1')
      // Queued while idle() waits: idle must wait for it too.
      void locks.run('p3', async () => {
        await g2.promise
        done.push('p3')
      })
    })
    void locks.run('p2', async () => {
      done.push('p2')
    })
    let idle = false
    const waiting = locks.idle().then(() => (idle = true))
    await settle()
    expect(idle).toBe(false)
    g1.open()
    await settle()
    expect(idle).toBe(false)
    g2.open()
    await waiting
    expect(done.sort()).toEqual(['p1', 'p2', 'p3'])
    await expect(new KeyedMutex().idle()).resolves.toBeUndefined()
  })

  it('property: per key, calls run alone and in call order, whatever the interleaving of keys and outcomes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ key: fc.constantFrom('a', 'b', 'c'), fails: fc.boolean(), yields: fc.nat(3) }), { maxLength: 30 }),
        fc.scheduler(),
        async (calls, s) => {
          const locks = new KeyedMutex()
          const running = new Map<string, number>()
          const order = new Map<string, number[]>()
          const results = calls.map((call, index) =>
            locks.run(call.key, async () => {
              running.set(call.key, (running.get(call.key) ?? 0) + 1)
              expect(running.get(call.key)).toBe(1)
              order.set(call.key, [...(order.get(call.key) ?? []), index])
              for (let i = 0; i < call.yields; i++) await s.schedule(Promise.resolve())
              running.set(call.key, running.get(call.key)! - 1)
              if (call.fails) throw new Error(`call ${index}`)
              return index
            }),
          )
          // Releases scheduled steps in a random order until every call settled.
          const settled = await s.waitFor(Promise.allSettled(results))
          settled.forEach((outcome, index) => {
            if (calls[index]!.fails) expect(outcome.status).toBe('rejected')
            else expect(outcome).toEqual({ status: 'fulfilled', value: index })
          })
          for (const [key, indexes] of order) {
            expect(indexes).toEqual(calls.flatMap((c, i) => (c.key === key ? [i] : [])))
          }
          await settle()
          expect(locks.activeKeys).toBe(0)
        },
      ),
      { numRuns: 50 },
    )
  })
})
