import { expect, test } from 'vitest'
import { STAMP } from './harness.js'
import type { Walk } from './walk.cases.js'

/** What a PostHog dashboard has that Sightline does not keep, as it answers it. */
const FIXED = {
  last_accessed_at: null,
  is_shared: false,
  creation_mode: 'default',
  restriction_level: 21,
  effective_restriction_level: 21,
  effective_privilege_level: 37,
  user_access_level: 'editor',
  access_control_version: 'v2',
  last_refresh: null,
}

/**
 * Dashboards over the walk's events (walk_signup: one on the 13th, three on
 * the 14th): every operation, tiles added through the insights' `dashboards`
 * field, restyled and removed, `from_dashboard`, the soft delete, the
 * undelete and a text tile.
 */
export function dashboardWalks(w: Walk): void {
  test('dashboards: all five operations, pinned and tags, tiles through insights, from_dashboard, the soft delete, the undelete and a text tile', async () => {
    const { a } = w.live
    const base = `/api/projects/${a.project.id}/dashboards`
    const insightsBase = `/api/projects/${a.project.id}/insights`
    const before = (await w.call('GET', `${base}/`, 200)).body.count as number

    // pinned and tags are kept (tags as an insight's: trimmed, lower-cased); use_template and created_at are not: the answer says what is.
    const filters = { date_from: '2026-01-14' }
    const created = (await w.call('POST', `${base}/`, 201, { body: { name: 'Walk KPIs', description: 'Signups', filters, pinned: true, tags: [' Walk '], use_template: 'x', created_at: '2020-01-01T00:00:00Z' } })).body
    const basic = { id: created.id, name: 'Walk KPIs', description: 'Signups', pinned: true, created_at: STAMP, created_by: w.userBasic(), deleted: false, tags: ['walk'], team_id: a.project.id, ...FIXED }
    const full = { ...basic, filters, variables: {}, breakdown_colors: [], data_color_theme_id: null, persisted_filters: filters, persisted_variables: null }
    expect(created).toEqual({ ...full, tiles: [] })
    const [row] = await w.live.db.raw<Record<string, unknown>>(`select name, description, deleted, created_by, pinned from dashboards where id = ${created.id}`)
    expect(row).toEqual({ name: 'Walk KPIs', description: 'Signups', deleted: false, created_by: a.user.id, pinned: true })
    // Pinned: first in the list (PostHog's `-pinned, name`).
    expect((await w.call('GET', `${base}/?limit=1000`, 200)).body.results[0].id).toBe(created.id)

    // Two insights join it through their deprecated `dashboards` field.
    const trend = (name: string) => ({ name, filters: { insight: 'TRENDS', events: [{ id: 'walk_signup' }], interval: 'day', date_from: '2026-01-13', date_to: '2026-01-14' } })
    const i1 = (await w.call('POST', `${insightsBase}/`, 201, { body: trend('Walk signups') })).body
    const i2 = (await w.call('POST', `${insightsBase}/`, 201, { body: { ...trend('Walk signups again'), dashboards: [created.id] } })).body
    expect(i2.dashboards).toEqual([created.id])
    expect((await w.call('PATCH', `${insightsBase}/${i1.id}/`, 200, { body: { dashboards: [created.id] } })).body.dashboards).toEqual([created.id])
    const shown = (await w.call('GET', `${base}/${created.id}/`, 200)).body
    // Without layouts, tiles keep core's order: insight order (none here), then tile id (i2's tile came first).
    expect(shown.tiles.map((t: any) => [t.insight.id, t.layouts, t.color, t.order])).toEqual([
      [i2.id, {}, null, 0],
      [i1.id, {}, null, 1],
    ])
    const [t2, t1] = shown.tiles.map((t: any) => t.id) as [number, number]

    // Layouts and colours through the dashboard's tiles; tiles are ordered by their sm layout's y, then x.
    const l1 = { sm: { x: 0, y: 5, w: 6, h: 5 } }
    const l2 = { sm: { x: 6, y: 0, w: 6, h: 5 } }
    const patched = (await w.call('PATCH', `${base}/${created.id}/`, 200, { body: { tiles: [{ id: t1, layouts: l1, color: 'blue' }, { id: t2, layouts: l2, color: 'green' }] } })).body
    const rows = await w.live.db.raw<Record<string, unknown>>(`select id, color from dashboard_tiles where dashboard_id = ${created.id} order by id`)
    expect(rows).toEqual([{ id: t2, color: 'green' }, { id: t1, color: 'blue' }])

    // Each tile's insight is what GET /insights/:id/?from_dashboard= answers from the cache: nothing computed yet.
    const onDashboard = async (id: number, extra = '') => (await w.call('GET', `${insightsBase}/${id}/?from_dashboard=${created.id}${extra}`, 200)).body
    const cachedOnly = async (id: number) => onDashboard(id, '&refresh=force_cache')
    const tile = async (id: number, insightId: number, layouts: object, color: string, order: number) => {
      const insight = await cachedOnly(insightId)
      return { id, insight, text: null, layouts, color, order, last_refresh: insight.last_refresh, is_cached: insight.is_cached }
    }
    const expected = async () => ({ ...full, tiles: [await tile(t2, i2.id, l2, 'green', 0), await tile(t1, i1.id, l1, 'blue', 1)] })
    expect(patched).toEqual(await expected())
    expect(patched.tiles[0].insight).toMatchObject({ id: i2.id, result: null, is_cached: false, layouts: l2, color: 'green', filters: { events: [{ id: 'walk_signup' }], date_from: '2026-01-14' } })
    expect(patched.tiles[0].insight.filters.date_to ?? null).toBeNull()
    expect((await w.call('GET', `${base}/${created.id}/`, 200)).body).toEqual(patched)

    // from_dashboard: the dashboard's date_from replaces both dates (14th and 15th); without it, the insight's own (13th and 14th).
    const seen = await onDashboard(i1.id)
    expect(seen.result.map((s: any) => s.data)).toEqual([[3, 0]])
    expect(seen.result[0].days).toEqual(['2026-01-14', '2026-01-15'])
    expect(seen).toMatchObject({ layouts: l1, color: 'blue', filters: { date_from: '2026-01-14' } })
    expect(seen.filters.date_to ?? null).toBeNull()
    const own = (await w.call('GET', `${insightsBase}/${i1.id}/`, 200)).body
    expect(own.result.map((s: any) => s.data)).toEqual([[1, 3]])
    expect(own).not.toHaveProperty('layouts')
    // The dashboard now shows that cached result on the tile.
    const reread = (await w.call('GET', `${base}/${created.id}/`, 200)).body
    expect(reread).toEqual(await expected())
    expect(reread.tiles[1].insight).toMatchObject({ id: i1.id, is_cached: true })
    expect(reread.tiles[1].insight.result.map((s: any) => s.data)).toEqual([[3, 0]])

    // Name, description and filters; a tile not on the dashboard refuses the whole PATCH.
    const refused = (await w.call('PATCH', `${base}/${created.id}/`, 400, { body: { name: 'Never', tiles: [{ id: 999999, color: 'red' }] } })).body
    expect(refused).toEqual({ type: 'validation_error', code: 'invalid_input', detail: 'Tile 999999 is not on this dashboard.', attr: 'tiles__0__id' })
    const renamed = (await w.call('PATCH', `${base}/${created.id}/`, 200, { body: { name: 'Walk KPIs v2', filters: {}, pinned: false, tags: [] } })).body
    expect(renamed).toMatchObject({ name: 'Walk KPIs v2', filters: {}, persisted_filters: null, pinned: false, tags: [] })
    const v2 = { ...basic, name: 'Walk KPIs v2', pinned: false, tags: [] }

    // Removing insights: through the insight's `dashboards`, or a tile's `deleted: true`.
    expect((await w.call('PATCH', `${insightsBase}/${i2.id}/`, 200, { body: { dashboards: [] } })).body).toMatchObject({ dashboards: [], dashboard_tiles: [] })
    expect((await w.call('GET', `${base}/${created.id}/`, 200)).body.tiles.map((t: any) => t.id)).toEqual([t1])
    const removed = (await w.call('PATCH', `${base}/${created.id}/`, 200, { body: { tiles: [{ id: t1, deleted: true }] } })).body
    expect(removed.tiles).toEqual([])
    expect((await w.call('GET', `${insightsBase}/${i1.id}/`, 200)).body.dashboards).toEqual([])
    // Adding it again restores the same tile, with its look.
    await w.call('PATCH', `${insightsBase}/${i1.id}/`, 200, { body: { dashboards: [created.id] } })
    expect((await w.call('GET', `${base}/${created.id}/`, 200)).body.tiles.map((t: any) => [t.id, t.color])).toEqual([[t1, 'blue']])

    // Lists: PostHog's basic fields, by name, paged.
    const other = (await w.call('POST', `${base}/`, 201, { body: { name: 'Walk A' } })).body
    expect(other).toMatchObject({ name: 'Walk A', description: '', filters: {}, persisted_filters: null, tiles: [] })
    const page = (await w.call('GET', `${base}/?limit=1&offset=${before}`, 200)).body
    expect(page).toEqual({
      count: before + 2,
      next: `${w.live.origin}${base}/?limit=1&offset=${before + 1}`,
      previous: before === 0 ? null : expect.stringContaining(`${base}/?limit=1`),
      results: [{ ...basic, id: other.id, name: 'Walk A', description: '', pinned: false, tags: [] }],
    })
    const all = (await w.call('GET', `${base}/?limit=1000`, 200)).body.results
    expect(all.find((d: any) => d.id === created.id)).toEqual(v2)

    // DELETE is refused; PATCH deleted: true soft-deletes and removes the tiles, the insights stay.
    const refusedDelete = await w.call('DELETE', `${base}/${created.id}/`, 405)
    expect([refusedDelete.text, refusedDelete.headers.get('allow')]).toEqual(['', 'GET, PATCH, HEAD, OPTIONS'])
    const gone = (await w.call('PATCH', `${base}/${created.id}/`, 200, { body: { deleted: true } })).body
    const fullV2 = { ...full, ...v2, filters: {}, persisted_filters: null }
    expect(gone).toEqual({ ...fullV2, deleted: true, tiles: [] })
    const NOT_FOUND = { type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null }
    expect((await w.call('GET', `${base}/${created.id}/`, 404)).body).toEqual(NOT_FOUND)
    expect((await w.call('PATCH', `${base}/${created.id}/`, 404, { body: { name: 'x' } })).body).toEqual(NOT_FOUND)
    const after = (await w.call('GET', `${base}/?limit=1000`, 200)).body
    expect([after.count, after.results.map((d: any) => d.id)]).toEqual([before + 1, expect.not.arrayContaining([created.id])])
    expect(await w.live.db.raw(`select deleted from dashboards where id = ${created.id}`)).toEqual([{ deleted: true }])
    expect(await w.live.db.raw(`select count(*) as n from dashboard_tiles where dashboard_id = ${created.id} and not deleted`)).toEqual([{ n: 0 }])
    expect((await w.call('GET', `${insightsBase}/${i1.id}/`, 200)).body).toMatchObject({ deleted: false, dashboards: [] })
    // An insight asked for on the deleted dashboard is answered as if none was named.
    expect(await onDashboard(i1.id, '&refresh=force_cache')).not.toHaveProperty('layouts')

    // PATCH deleted: false restores it with every tile it had (PostHog's undelete): t1, and t2, removed before the
    // deletion; by their sm layouts, t2 (y 0) before t1 (y 5). i2 is on it again.
    const back = (await w.call('PATCH', `${base}/${created.id}/`, 200, { body: { deleted: false } })).body
    expect(back).toMatchObject({ ...fullV2, deleted: false })
    expect(back.tiles.map((t: any) => [t.id, t.insight.id, t.layouts, t.color, t.order])).toEqual([
      [t2, i2.id, l2, 'green', 0],
      [t1, i1.id, l1, 'blue', 1],
    ])
    expect((await w.call('GET', `${base}/${created.id}/`, 200)).body).toEqual(back)
    expect((await w.call('GET', `${insightsBase}/${i2.id}/`, 200)).body.dashboards).toEqual([created.id])

    // A text tile (PostHog's Text): `text` without ids adds one; it has no insight, no refresh, and comes by its layout (y 10) last.
    const l3 = { sm: { x: 0, y: 10, w: 12, h: 2 } }
    const withText = (await w.call('PATCH', `${base}/${created.id}/`, 200, { body: { tiles: [{ text: { body: 'Signups **grew**' }, layouts: l3 }] } })).body
    const textTile = withText.tiles[2]
    expect(withText.tiles.map((t: any) => t.order)).toEqual([0, 1, 2])
    expect(textTile).toEqual({
      id: expect.any(Number),
      insight: null,
      text: { id: textTile.id, body: 'Signups **grew**', created_by: w.userBasic(), last_modified_at: STAMP, last_modified_by: null, team: a.project.id },
      layouts: l3,
      color: null,
      order: 2,
      last_refresh: null,
      is_cached: false,
    })
    // PostHog's app sends tiles back as it read them: the text tile with a new body, an insight tile with `text: null`.
    const edited = (await w.call('PATCH', `${base}/${created.id}/`, 200, {
      body: { tiles: [{ ...textTile, text: { ...textTile.text, body: 'Signups grew' } }, { ...back.tiles[0], text: null, color: 'purple' }] },
    })).body
    expect(edited.tiles.map((t: any) => [t.id, t.color, t.text?.body ?? null])).toEqual([[t2, 'purple', null], [t1, 'blue', null], [textTile.id, null, 'Signups grew']])
    expect(edited.tiles[2].text.last_modified_by).toEqual(w.userBasic())
    expect((await w.call('PATCH', `${base}/${created.id}/`, 400, { body: { tiles: [{ id: t1, text: { body: 'x' } }] } })).body).toMatchObject({ attr: 'tiles__0__text' })
    const untexted = (await w.call('PATCH', `${base}/${created.id}/`, 200, { body: { tiles: [{ id: textTile.id, deleted: true }] } })).body
    expect(untexted.tiles.map((t: any) => t.id)).toEqual([t2, t1])
  })
}
