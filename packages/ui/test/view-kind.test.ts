import { describe, expect, test } from 'vitest'
import { viewKindOf } from '../src/browser/view-kind.js'
import type { InsightFilters } from '../src/browser/wire.js'
import answers from './answers.json' with { type: 'json' }

describe('which view draws an answer', () => {
  test('from the filters: insight, display, funnel_viz_type', () => {
    const cases: Array<[InsightFilters, string]> = [
      [{ insight: 'TRENDS' }, 'trends-line'],
      [{ insight: 'TRENDS', display: 'ActionsLineGraphCumulative' }, 'trends-cumulative'],
      [{ insight: 'TRENDS', display: 'ActionsBar' }, 'trends-bar'],
      [{ insight: 'TRENDS', display: 'ActionsBarValue' }, 'trends-bar-value'],
      [{ insight: 'TRENDS', display: 'ActionsTable' }, 'trends-table'],
      [{ insight: 'TRENDS', display: 'ActionsPie' }, 'trends-pie'],
      [{ insight: 'TRENDS', display: 'BoldNumber' }, 'trends-number'],
      [{ insight: 'TRENDS', display: 'WorldMap' }, 'trends-world-map'],
      [{ insight: 'TRENDS', display: 'SomethingNew' }, 'trends-line'],
      [{ insight: 'STICKINESS' }, 'stickiness'],
      [{ insight: 'LIFECYCLE' }, 'lifecycle'],
      [{ insight: 'FUNNELS' }, 'funnel-steps'],
      [{ insight: 'FUNNELS', funnel_viz_type: 'trends' }, 'funnel-trends'],
      [{ insight: 'FUNNELS', funnel_viz_type: 'time_to_convert' }, 'funnel-time-to-convert'],
      [{ insight: 'RETENTION' }, 'retention'],
      [{ insight: 'PATHS' }, 'paths'],
    ]
    for (const [filters, kind] of cases) expect(viewKindOf([], filters), JSON.stringify(filters)).toBe(kind)
  })

  test('from the shape of a bare answer', () => {
    expect(viewKindOf(answers.trend.result)).toBe('trends-line')
    expect(viewKindOf(answers.trendPie.result)).toBe('trends-bar-value')
    expect(viewKindOf(answers.lifecycle.result)).toBe('lifecycle')
    expect(viewKindOf(answers.funnel.result)).toBe('funnel-steps')
    expect(viewKindOf(answers.funnelBreakdown.result)).toBe('funnel-steps')
    expect(viewKindOf(answers.funnelTrends.result)).toBe('funnel-trends')
    expect(viewKindOf(answers.ttc.result)).toBe('funnel-time-to-convert')
    expect(viewKindOf(answers.retention.result)).toBe('retention')
    expect(viewKindOf(answers.paths.result)).toBe('paths')
  })
})
