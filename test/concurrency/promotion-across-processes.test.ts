/**
 * A promotion while another process captures into the project (Postgres:
 * two engines on one schema, each with its own pool, as two processes).
 * Engine A's capture is stopped inside its transaction after it read the
 * project's slots (none yet) and before it inserts; engine B promotes the
 * property meanwhile. The promotion must wait for A's commit (the project
 * row, shared by captures and taken for update by a promotion), so its
 * backfill reaches A's event; without the lock B commits first, A's event,
 * later than every event B saw, is never filled, and the sum read from the
 * ready slot misses it. The wait is observed in pg_locks, never timed.
 */
import { describe, expect, it } from 'vitest'
import { createSightline } from '@sightline/core'
import { NOW } from '../conformance/harness.js'
import { pgServerTarget } from '../targets/postgres.js'
import { gatedStorage } from './gated-storage.js'

const url = process.env.SIGHTLINE_PG_URL
const buy = (day: number, amount: number) => ({ event: 'buy', distinctId: `u${day}`, timestamp: `2026-02-${20 + day}T12:00:00Z`, properties: { amount } })

describe('promotion while another process captures: postgres (server)', () => {
  it.skipIf(!url)('waits for the capture, and its backfill reaches the captured event', async () => {
    const fresh = await pgServerTarget(url!).fresh()
    const gates = gatedStorage(fresh.storage())
    const a = await createSightline({ storage: gates.storage, clock: () => NOW })
    const b = await createSightline({ storage: fresh.storage(), clock: () => NOW })
    let releaseHeld = () => {}
    try {
      const org = await a.organizations.create({ name: 'Acme' })
      const p = (await a.projects.create({ organizationId: org.id, name: 'Web', timezone: 'UTC' })).id
      await a.capture(p, [buy(0, 1), buy(1, 2)])

      const held = gates.holdInsert(p)
      releaseHeld = held.release
      const capturing = a.capture(p, [buy(5, 100)])
      await held.reached
      let promoted = false
      const promoting = b.properties.promote(p, 'amount', { type: 'Numeric', background: false }).then((r) => ((promoted = true), r))
      // Until B waits on the project row (a tuple lock held while waiting for A), or finished without waiting.
      for (let i = 0; !promoted; i++) {
        const [row] = await fresh.raw<{ n: number }>(`select count(*) as n from pg_locks where locktype = 'tuple' and relation = 'projects'::regclass`)
        if (Number(row!.n) > 0) break
        if (i > 3000) throw new Error('the promotion neither waited nor finished')
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      expect(promoted).toBe(false)
      held.release()
      await capturing
      expect(await promoting).toMatchObject({ state: 'backfilling' })
      expect(await b.properties.backfill(p)).toEqual([{ key: 'amount', type: 'Numeric', slot: 1, state: 'ready' }])
      const result = (await b.query.trend(p, { events: [{ id: 'buy', math: 'sum', math_property: 'amount' }], date_from: '2026-02-20', date_to: '2026-02-27' })).result as Array<{ data: number[] }>
      expect(result[0]!.data.reduce((x, y) => x + y, 0)).toBe(103)
    } finally {
      // A failed expectation above must not leave A's capture stopped: closing A waits for it.
      releaseHeld()
      await b.close()
      await a.close()
      await fresh.dispose()
    }
  })
})
