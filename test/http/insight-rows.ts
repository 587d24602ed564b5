import { expect } from 'vitest'
import { ACKNOWLEDGED, ACTIVITY, ACTIVITY_COLUMNS, arrayOf, bool, envelope, exactly, fields, insight, problems } from './interface-rows.shapes.js'
import { call, echoes, get, pages, type Row, send, withFormat } from './row.js'
import { insightBody } from './rows-world.js'

export const INSIGHT_COLUMNS = insight('uncomputed').keys

/** 4.2: the insight records' rows (and cancel/, timing/); the analyses are in analysis-rows.ts. */
export const INSIGHT_ROWS: Row[] = [
  {
    method: 'GET', path: '/', status: 200,
    send: get((s) => `${s.insights}/?limit=1&offset=1`),
    shape: () => envelope(insight('uncomputed')),
    csv: { kind: 'records', columns: INSIGHT_COLUMNS },
    values: async (body, s) => {
      await pages(`${s.insights}/`, body)
      const byShortId = (await call('GET', `${s.insights}/?short_id=${s.insight.short_id}`)).body
      expect([byShortId.count, byShortId.results.map((i: { id: number }) => i.id)]).toEqual([1, [s.insight.id]])
      const byCreator = (await call('GET', `${s.insights}/?created_by=${s.w.user.id}&limit=1000`)).body
      expect(byCreator.count).toBeGreaterThanOrEqual(3)
      expect(byCreator.results.every((i: any) => i.created_by.id === s.w.user.id)).toBe(true)
    },
  },
  {
    method: 'POST', path: '/', status: 201,
    send: send('POST', (s) => `${s.insights}/`, (s) => insightBody(s.dashboardId, 'Rows created')),
    shape: () => insight('uncomputed'),
    csv: { kind: 'records', columns: INSIGHT_COLUMNS },
    values: (body, s) => {
      const { query, ...sent } = insightBody(s.dashboardId, 'Rows created')
      echoes(body, sent)
      expect(body.query).toEqual(JSON.parse(query))
      expect(body.dashboard_tiles).toEqual([{ id: expect.any(Number), dashboard_id: s.dashboardId, deleted: false }])
      expect([body.created_by.id, body.created_by.email, body.last_modified_by.id]).toEqual([s.w.user.id, s.w.user.email, s.w.user.id])
    },
  },
  {
    method: 'GET', path: '/:id/', status: 200,
    send: get((s) => `${s.insights}/${s.insight.id}/?from_dashboard=${s.dashboardId}&refresh=true`),
    shape: () => insight('retrieve'),
    csv: { kind: 'records', columns: INSIGHT_COLUMNS },
    values: async (body, s) => {
      expect(body.id).toBe(s.insight.id)
      const plain = await call('GET', `${s.insights}/${s.insight.id}/`)
      expect(plain.status).toBe(200)
      expect(problems(plain.body, insight('retrieve'))).toEqual([])
    },
  },
  {
    method: 'PATCH', path: '/:id/', status: 200,
    send: send('PATCH', (s) => `${s.insights}/${s.others[0].id}/`, (s) => ({ ...insightBody(s.dashboardId, 'Rows patched'), favorited: false, order: 8 })),
    shape: () => insight('uncomputed'),
    csv: { kind: 'records', columns: INSIGHT_COLUMNS },
    values: async (body, s) => {
      const { query: _query, ...sent } = { ...insightBody(s.dashboardId, 'Rows patched'), favorited: false, order: 8 }
      echoes(body, sent)
      // Section 3: PATCH with `deleted` true is the only way to remove an insight.
      const removed = await call('PATCH', `${s.insights}/${s.others[1].id}/`, { deleted: true })
      expect([removed.status, removed.body.deleted]).toEqual([200, true])
    },
  },
  {
    method: 'DELETE', path: '/:id/', status: 405,
    send: send('DELETE', (s) => `${s.insights}/${s.insight.id}/`),
    csv: { kind: 'bodiless' },
    values: async (_body, s, answer) => {
      // 4.2 rule 1, 7.1: no body, and the insight stays.
      expect(answer.text).toBe('')
      const still = await call('GET', `${s.insights}/${s.insight.id}/`)
      expect([still.status, still.body.deleted]).toEqual([200, false])
    },
  },
  {
    method: 'GET', path: '/:id/activity/', status: 200,
    send: get((s) => `${s.insights}/${s.insight.id}/activity/`),
    shape: () => ACTIVITY,
    csv: { kind: 'records', columns: ACTIVITY_COLUMNS },
    values: (body, s) => expect(body.results.every((e: any) => e.scope === 'Insight' && e.item_id === String(s.insight.id))).toBe(true),
  },
  {
    method: 'POST', path: '/:id/viewed/', status: 200,
    // README: the Insight (computed, as retrieve answers it); the body (the writeable fields) validated, then ignored.
    send: send('POST', (s) => `${s.insights}/${s.insight.id}/viewed/`, (s) => insightBody(s.dashboardId, 'Ignored')),
    shape: () => insight('retrieve'),
    csv: { kind: 'records', columns: INSIGHT_COLUMNS },
    values: (body, s) => expect([body.id, body.name]).toEqual([s.insight.id, s.insight.name]),
  },
  {
    method: 'GET', path: '/activity/', status: 200,
    send: get((s) => `${s.insights}/activity/`),
    shape: () => ACTIVITY,
    csv: { kind: 'records', columns: ACTIVITY_COLUMNS },
  },
  {
    method: 'POST', path: '/cancel/', status: 200,
    send: send('POST', (s) => `${s.insights}/cancel/`, (s) => insightBody(s.dashboardId, 'Rows cancel')),
    shape: () => fields({ ...ACKNOWLEDGED, client_query_id: exactly(null), cancelled: bool }),
    csv: { kind: 'refused' },
  },
  {
    method: 'GET', path: '/my_last_viewed/', status: 200,
    send: async (s, format) => {
      // 4.2 rule 4: the last 5 viewed, most recent first. View six, the oldest first.
      for (const x of [s.insight, ...s.others.slice(2)]) {
        s.w.tick()
        expect((await call('POST', `${s.insights}/${x.id}/viewed/`, {})).status).toBe(200)
      }
      const answer = await call('GET', withFormat(`${s.insights}/my_last_viewed/`, format))
      s.w.tick()
      return answer
    },
    // README: an array of at most 5 full Insights.
    shape: () => arrayOf(insight('uncomputed')),
    csv: { kind: 'records', columns: INSIGHT_COLUMNS },
    values: (body, s) => expect(body.map((x: { id: number }) => x.id)).toEqual([s.insight, ...s.others.slice(2)].slice(-5).reverse().map((x) => x.id)),
  },
  {
    method: 'POST', path: '/timing/', status: 200,
    send: send('POST', (s) => `${s.insights}/timing/`, (s) => insightBody(s.dashboardId, 'Rows timing')),
    shape: () => fields({ ...ACKNOWLEDGED, success: exactly(true) }),
    csv: { kind: 'refused' },
  },
]
