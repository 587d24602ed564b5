import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ConformanceTarget } from '../conformance/target.js'
import { type Live, serve } from './harness.js'

/**
 * Capture tells the truth (issue 13): a payload with a nameless event or a
 * blank distinct id is refused whole with a 400 naming the event's index and
 * field, and nothing of it reaches the database (checked by raw reads).
 */
export function captureTruthCases(target: ConformanceTarget): void {
  describe('capture refuses what it cannot store, naming the event', () => {
    let live: Live
    beforeAll(async () => {
      live = await serve(target)
    })
    afterAll(() => live.close())

    const stored = async () => (await live.db.raw<{ event: string }>(`select event from events where project_id = ${live.a.project.id} order by event`)).map((r) => r.event)
    const persons = async () => (await live.db.raw<{ n: number }>(`select count(*) as n from persons where project_id = ${live.a.project.id}`))[0]!.n
    const batch = (events: unknown[]) => JSON.stringify({ api_key: live.a.project.apiToken, batch: events })
    const good = (event: string) => ({ event, distinct_id: `user-${event}` })

    test('an event named null, "", false or missing: 400 naming batch__<index>__event, and nothing stored', async () => {
      for (const [index, bad] of [
        [0, { event: null, distinct_id: 'u' }],
        [1, { event: '', distinct_id: 'u' }],
        [2, { event: false, distinct_id: 'u' }],
        [1, { distinct_id: 'u' }],
      ] as const) {
        const events: unknown[] = [good('first'), good('second'), good('third')]
        events.splice(index, 0, bad)
        const r = await live.call('POST', '/batch/', { key: null, body: batch(events) })
        expect(r.status, r.text).toBe(400)
        expect(r.body).toEqual({
          type: 'validation_error',
          code: 'invalid_payload',
          detail: `Invalid payload: All events must have the event name field "event"! (the event at index ${index} of the batch)`,
          attr: `batch__${index}__event`,
        })
      }
      expect(await stored()).toEqual([])
      expect(await persons()).toBe(0)
      expect(live.serverErrors).toEqual([])
    })

    test('a blank distinct id, whitespace only included: 400 naming the field the id was read from, and nothing stored', async () => {
      for (const [bad, attr] of [
        [{ event: 'e', distinct_id: '  ' }, 'batch__1__distinct_id'],
        [{ event: 'e', distinct_id: '' }, 'batch__1__distinct_id'],
        [{ event: 'e', $distinct_id: '\t' }, 'batch__1__$distinct_id'],
        [{ event: 'e', properties: { distinct_id: '\u00a0' } }, 'batch__1__properties__distinct_id'],
      ] as const) {
        const r = await live.call('POST', '/batch/', { key: null, body: batch([good('first'), bad, good('third')]) })
        expect(r.status, r.text).toBe(400)
        expect(r.body).toEqual({
          type: 'validation_error',
          code: 'invalid_payload',
          detail: 'Invalid payload: Event field "distinct_id" should not be blank! (the event at index 1 of the batch)',
          attr,
        })
      }
      // A lone event: PostHog's exact detail.
      const single = await live.call('POST', '/e/', { key: null, body: JSON.stringify({ api_key: live.a.project.apiToken, event: 'e', distinct_id: ' \n ' }) })
      expect(single.body).toEqual({ type: 'validation_error', code: 'invalid_payload', detail: 'Invalid payload: Event field "distinct_id" should not be blank!', attr: 'distinct_id' })
      expect(await stored()).toEqual([])
      expect(await persons()).toBe(0)
    })

    test('the same batch without its bad event is stored whole', async () => {
      const r = await live.call('POST', '/batch/', { key: null, body: batch([good('first'), good('second'), good('third')]) })
      expect(r.body).toEqual({ status: 1 })
      expect(await stored()).toEqual(['first', 'second', 'third'])
      expect(await persons()).toBe(3)
    })
  })
}
