// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest'
import { renderInsight, type PersonsSelection } from '../src/browser/index.js'
import { PALETTE } from '../src/browser/charts/draw-chart.js'
import answers from './answers.json' with { type: 'json' }
import { chartSeries, countMarks } from './marks.js'

// Known answers (test/answers.json): 6 persons viewed a page, 3 of them signed up (median 1 h).
const host = () => document.body.appendChild(document.createElement('div'))
afterEach(() => document.body.replaceChildren())
const rows = (root: Element) => [...root.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent))

describe('funnels', () => {
  test('steps: a bar per step, the drop-off faded above it; conversion and drop-off in the table', () => {
    const root = host()
    expect(renderInsight(root, answers.funnel)).toBe('funnel-steps')
    const marks = countMarks(root, PALETTE)
    // ECharts draws a zero as a bar of no height: the first step's drop-off is there too.
    expect(marks.filled[0]).toBe(2)
    expect(marks.faded[0]).toBe(2)
    expect(chartSeries(root).map((s) => s.data)).toEqual([[6, 3], [0, 3]])
    expect(rows(root)).toEqual([
      ['1. $pageview', '6', '100.0%', '–', '–', '–', '–'],
      ['2. signup', '3', '50.0%', '50.0%', '3', '1h 0m', '1h 20m'],
    ])
  })

  test('steps: the counts list the converted and dropped persons; a click on a bar does too', () => {
    const root = host()
    const picked: PersonsSelection[] = []
    renderInsight(root, answers.funnel, { onSelect: (s) => picked.push(s) })
    const buttons = [...root.querySelectorAll<HTMLButtonElement>('tbody button')]
    expect(buttons.map((b) => b.textContent)).toEqual(['6', '3', '3'])
    buttons[2]!.click()
    expect(picked[0]).toEqual({ title: 'persons who dropped off before 2. signup', url: answers.funnel.result[1]!.dropped_people_url })
  })

  test('steps with a breakdown: a pair of bar series per value, a table row per value and step', () => {
    const root = host()
    renderInsight(root, answers.funnelBreakdown)
    const series = chartSeries(root)
    expect(series.map((s) => s.name)).toEqual(['Firefox', 'Firefox dropped off', 'Chrome', 'Chrome dropped off'])
    expect(rows(root).map((r) => r.slice(0, 3))).toEqual([
      ['1. $pageview', 'Firefox', '3'],
      ['2. signup', 'Firefox', '2'],
      ['1. $pageview', 'Chrome', '3'],
      ['2. signup', 'Chrome', '1'],
    ])
  })

  test('trends: the conversion rate per period as a line', () => {
    const root = host()
    expect(renderInsight(root, answers.funnelTrends, { filters: { insight: 'FUNNELS', funnel_viz_type: 'trends' } })).toBe('funnel-trends')
    expect(countMarks(root, PALETTE).lines[0]).toBe(1)
    expect(chartSeries(root)[0]?.data).toEqual(answers.funnelTrends.result[0]!.data)
    expect(chartSeries(root)[0]?.name).toBe('Conversion rate (%)')
  })

  test('time to convert: a bar per bin with persons, the average in words', () => {
    const root = host()
    expect(renderInsight(root, answers.ttc)).toBe('funnel-time-to-convert')
    expect(root.querySelector('.sightline-summary')?.textContent).toBe('Average time to convert: 1h 20m')
    expect(chartSeries(root)[0]?.data).toEqual([2, 0, 1])
    expect(countMarks(root, PALETTE).filled[0]).toBe(3)
    expect(rows(root)).toEqual([
      ['1h 0m', '2'],
      ['1h 30m', '0'],
      ['2h 0m', '1'],
    ])
  })
})
