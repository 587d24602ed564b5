import { expect } from 'vitest'
import { envelope, EVENT_DEFINITION } from './interface-rows.shapes.js'
import { call, get, pages, type Row, withFormat } from './row.js'

const DEFINITION_PATCH = { name: 'row_patched_renamed', created_at: '2026-01-01T00:00:00Z', last_seen_at: '2026-01-14T12:00:00Z', tags: ['rows'], post_to_slack: true }

/** 4.5: the event definition rows. */
export const DEFINITION_ROWS: Row[] = [
  {
    method: 'GET', path: '/', status: 200,
    send: get((s) => `${s.definitions}/?limit=1&offset=1`),
    shape: () => envelope(EVENT_DEFINITION),
    values: async (body, s) => {
      await pages(`${s.definitions}/`, body)
      // 2.4: post_to_slack false in the sample (never set here).
      expect((await call('GET', `${s.definitions}/?limit=1000`)).body.results.filter((d: any) => d.name === 'row_signup').map((d: any) => d.post_to_slack)).toEqual([false])
    },
  },
  {
    method: 'GET', path: '/:id/', status: 200,
    send: async (s, format) => call('GET', withFormat(`${s.definitions}/${(await s.definition('row_signup')).id}/`, format)),
    shape: () => EVENT_DEFINITION,
    values: async (body, s) => expect(body).toEqual(await s.definition('row_signup')),
  },
  {
    method: 'PATCH', path: '/:id/', status: 200,
    send: async (s) => call('PATCH', `${s.definitions}/${(await s.definition('row_patched')).id}/`, DEFINITION_PATCH),
    shape: () => EVENT_DEFINITION,
    values: (body) => {
      expect([body.name, body.tags, body.post_to_slack]).toEqual([DEFINITION_PATCH.name, DEFINITION_PATCH.tags, true])
      expect([Date.parse(body.created_at), Date.parse(body.last_seen_at)]).toEqual([Date.parse(DEFINITION_PATCH.created_at), Date.parse(DEFINITION_PATCH.last_seen_at)])
    },
  },
  {
    // README: 204, no body (the document does not show it).
    method: 'DELETE', path: '/:id/', status: 204,
    send: async (s) => call('DELETE', `${s.definitions}/${(await s.definition('row_deleted')).id}/`),
    values: async (_body, s, answer) => {
      expect(answer.text).toBe('')
      expect(await s.definition('row_deleted')).toBeUndefined()
    },
  },
]
