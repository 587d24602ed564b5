import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FairSlots } from '../src/query/execution/fair-slots.js'

/** A signal that never aborts, one per waiter, as each analysis has its own. */
const never = () => new AbortController().signal

describe('FairSlots', () => {
  it('grants at once while slots are free, then makes the next wait for a release', async () => {
    const slots = new FairSlots(2)
    const a = await slots.acquire(1, never())
    await slots.acquire(1, never())
    let granted = false
    const third = slots.acquire(2, never()).then((release) => ((granted = true), release))
    await Promise.resolve()
    expect(granted).toBe(false)
    a()
    await third
    expect(granted).toBe(true)
  })

  it('serves keys in turn: a key with many waiters does not starve a key with one', async () => {
    const slots = new FairSlots(1)
    const first = await slots.acquire(1, never())
    const order: string[] = []
    // Each waiter, once granted, notes its turn and frees the slot for the next.
    const wait = (key: number, name: string) => slots.acquire(key, never()).then((release) => (order.push(name), release()))
    // Project 1 holds the slot and queues three, then project 2 one: project 2, never served, goes first.
    const waits = [wait(1, '1a'), wait(1, '1b'), wait(1, '1c'), wait(2, '2a')]
    first()
    await Promise.all(waits)
    expect(order).toEqual(['2a', '1a', '1b', '1c'])
  })

  it('an aborted waiter is refused with the reason and gives up its turn', async () => {
    const slots = new FairSlots(1)
    const held = await slots.acquire(1, never())
    const stop = new AbortController()
    const reason = new Error('timed out')
    const aborted = slots.acquire(2, stop.signal)
    const next = slots.acquire(3, never())
    stop.abort(reason)
    await expect(aborted).rejects.toBe(reason)
    held()
    const release = await next
    release()
    // Released twice counts once: one slot, so a second holder must still wait for the first.
    release()
    const x = await slots.acquire(4, never())
    let y = false
    void slots.acquire(5, never()).then(() => (y = true))
    await Promise.resolve()
    expect(y).toBe(false)
    x()
  })

  it('forgets a key once it holds no slot and waits for none', async () => {
    const slots = new FairSlots(1)
    const a = await slots.acquire(7, never())
    const stop = new AbortController()
    const b = slots.acquire(8, stop.signal)
    expect(slots.activeKeys).toBe(2)
    stop.abort(new Error('gone'))
    await b.catch(() => {})
    expect(slots.activeKeys).toBe(1)
    a()
    expect(slots.activeKeys).toBe(0)
  })

  it('property: never more holders than slots, every waiter served, within a key in arrival order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 3 }), fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 30 }), async (n, keys) => {
        const slots = new FairSlots(n)
        let holding = 0
        let most = 0
        const served: Array<[number, number]> = []
        await Promise.all(
          keys.map(async (key, i) => {
            const release = await slots.acquire(key, never())
            holding++
            most = Math.max(most, holding)
            served.push([key, i])
            await Promise.resolve()
            holding--
            release()
          }),
        )
        expect(most).toBeLessThanOrEqual(n)
        expect(served).toHaveLength(keys.length)
        for (const key of new Set(keys)) {
          const mine = served.filter(([k]) => k === key).map(([, i]) => i)
          expect(mine).toEqual([...mine].sort((a, b) => a - b))
        }
      }),
      { numRuns: 200 },
    )
  })
})
