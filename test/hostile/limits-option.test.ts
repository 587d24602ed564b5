/**
 * The budgets are options of `createSightline` (`queries.limits`): a host
 * can tighten or widen each one, and a value that is no positive integer is
 * refused when the engine is created. Storage-independent plumbing: DuckDB in memory.
 */
import { createSightline, ValidationError, type FunnelCorrelationParams, type FunnelParams, type RetentionParams } from '@sightline/core'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { describe, expect, it } from 'vitest'

const NOW = new Date('2026-01-15T12:00:00Z')

async function engineWith(limits: Record<string, number>) {
  const sightline = await createSightline({ storage: duckdbStorage(), clock: () => NOW, queries: { limits } })
  const org = await sightline.organizations.create({ name: 'Acme' })
  const project = await sightline.projects.create({ organizationId: org.id, name: 'Web' })
  return { sightline, projectId: project.id }
}

describe('queries.limits', () => {
  it('a tighter cell budget refuses what the default answers, naming the parameter', async () => {
    const { sightline, projectId } = await engineWith({ maxCells: 10 })
    try {
      // -7d by day: 8 buckets, within 10 cells; -30d: 31 buckets, over them.
      const week = await sightline.query.trend(projectId, { events: [{ id: '$pageview' }], date_from: '-7d' })
      expect((week.result[0] as { data: number[] }).data).toHaveLength(8)
      const error = await sightline.query.trend(projectId, { events: [{ id: '$pageview' }], date_from: '-30d' }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ValidationError)
      expect((error as ValidationError).attr).toBe('interval')
      expect((error as ValidationError).message).toContain('at most 10 are allowed')
    } finally {
      await sightline.close()
    }
  })

  it('wider budgets answer what the defaults refuse: 60 series', async () => {
    const events = Array.from({ length: 60 }, (_, i) => ({ id: '$pageview', order: i }))
    const tight = await engineWith({})
    const wide = await engineWith({ maxSeries: 60 })
    try {
      expect(await tight.sightline.query.trend(tight.projectId, { events }).catch((e: unknown) => (e as ValidationError).attr)).toBe('events')
      expect((await wide.sightline.query.trend(wide.projectId, { events })).result).toHaveLength(60)
    } finally {
      await tight.sightline.close()
      await wide.sightline.close()
    }
  })

  it('a breakdown reads at most maxBreakdownCells rows before ranking: five values on one day need five, in trends, funnel trends, correlation and retention', async () => {
    const events = ['Chrome', 'Firefox', 'Safari', 'Edge', 'Opera'].map((browser, i) => ({
      event: '$pageview',
      distinctId: `u${i}`,
      timestamp: '2026-01-15T10:00:00Z',
      properties: { $browser: browser },
    }))
    const params = { events: [{ id: '$pageview' }], breakdown: '$browser', date_from: '2026-01-15', date_to: '2026-01-15' }
    const four = await engineWith({ maxBreakdownCells: 4 })
    const five = await engineWith({ maxBreakdownCells: 5 })
    try {
      await four.sightline.capture(four.projectId, events)
      await five.sightline.capture(five.projectId, events)
      const error = await four.sightline.query.trend(four.projectId, params).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ValidationError)
      expect((error as ValidationError).attr).toBe('breakdown')
      const answer = await five.sightline.query.trend(five.projectId, params)
      expect(answer.result.map((r) => (r as { breakdown_value: string }).breakdown_value).sort()).toEqual(['Chrome', 'Edge', 'Firefox', 'Opera', 'Safari'])
      // Retention ranks its values from (value, period, interval) counts: here five, one per browser, all on day 0 of the 15th.
      const retention: RetentionParams = { target_entity: { id: '$pageview', type: 'events' }, period: 'Day', total_intervals: 2, date_to: '2026-01-15', breakdown: '$browser' }
      const refused = await four.sightline.query.retention(four.projectId, retention).catch((e: unknown) => e)
      expect(refused).toBeInstanceOf(ValidationError)
      expect((refused as ValidationError).attr).toBe('breakdown')
      // Funnel trends read one row per (value, period): five browsers on one day.
      const funnel = { events: [{ id: '$pageview', order: 0 }, { id: '$pageview', order: 1 }], funnel_viz_type: 'trends' as const, breakdown: '$browser', date_from: '2026-01-15', date_to: '2026-01-15' }
      const refusedFunnel = await four.sightline.query.funnel(four.projectId, funnel).catch((e: unknown) => e)
      expect(refusedFunnel).toBeInstanceOf(ValidationError)
      expect((refusedFunnel as ValidationError).attr).toBe('breakdown')
      expect((refusedFunnel as ValidationError).message).toContain('more than 4 (breakdown value, period) rows')
      expect((await five.sightline.query.funnel(five.projectId, funnel)).result).toHaveLength(5)
      // Correlation reads one row per property value and one of totals: six here, over five.
      const correlation: FunnelCorrelationParams = { ...funnel, funnel_viz_type: 'steps', breakdown: undefined, funnel_correlation_type: 'properties', funnel_correlation_names: ['$browser'] }
      const refusedCorrelation = await five.sightline.query.funnelCorrelation(five.projectId, correlation).catch((e: unknown) => e)
      expect(refusedCorrelation).toBeInstanceOf(ValidationError)
      expect((refusedCorrelation as ValidationError).attr).toBe('funnel_correlation_type')
      expect((refusedCorrelation as ValidationError).message).toContain('more than 5 correlation rows')
      const kept = await five.sightline.query.retention(five.projectId, retention)
      expect(new Set(kept.result.map((r) => (r as { breakdown_value: string }).breakdown_value))).toEqual(new Set(['Chrome', 'Edge', 'Firefox', 'Opera', 'Safari']))
    } finally {
      await four.sightline.close()
      await five.sightline.close()
    }
  })

  it('a limit that is no positive integer is refused at creation', async () => {
    await expect(createSightline({ storage: duckdbStorage(), queries: { limits: { maxCells: 0 } } })).rejects.toBeInstanceOf(ValidationError)
  })
})
