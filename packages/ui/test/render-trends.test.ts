// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest'
import { renderInsight, type InsightAnswer, type PersonsSelection } from '../src/browser/index.js'
import { PALETTE } from '../src/browser/charts/draw-chart.js'
import answers from './answers.json' with { type: 'json' }
import { chartSeries, countMarks } from './marks.js'

// Known answers, as the engine gave them (test/answers.json): two series over seven days, 42 and 14 events.
const host = () => document.body.appendChild(document.createElement('div'))
afterEach(() => document.body.replaceChildren())
const cells = (root: Element) => [...root.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent))

describe('trends', () => {
  test('line: a path per series, the table below holds every point and total', () => {
    const root = host()
    expect(renderInsight(root, answers.trend)).toBe('trends-line')
    const marks = countMarks(root, PALETTE)
    expect(marks.lines.slice(0, 3)).toEqual([1, 1, 0])
    expect(chartSeries(root).map((s) => s.data)).toEqual(answers.trend.result.map((s) => s.data))
    expect(root.querySelector('[role="img"]')?.getAttribute('aria-label')).toBe('Line chart: 2 series over 7 points')
    const rows = cells(root)
    expect(rows.map((r) => r[0])).toEqual(['$pageview', 'signup'])
    expect(rows[0]?.at(-1)).toBe('42')
    expect(rows[1]?.slice(1, -1)).toEqual(answers.trend.result[1]!.data.map(String))
  })

  test('cumulative: running totals ending at each series count', () => {
    const root = host()
    renderInsight(root, answers.trend, { filters: { insight: 'TRENDS', display: 'ActionsLineGraphCumulative' } })
    const data = chartSeries(root).map((s) => s.data as number[])
    expect(data.map((d) => d.at(-1))).toEqual([42, 14])
    expect(data[0]).toEqual(answers.trend.result[0]!.data.map((_, i, all) => all.slice(0, i + 1).reduce((a, b) => a + b, 0)))
  })

  test('bar: a bar per point and series (and a legend icon per series)', () => {
    const root = host()
    expect(renderInsight(root, answers.trend, { filters: { insight: 'TRENDS', display: 'ActionsBar' } })).toBe('trends-bar')
    const points = answers.trend.result[0]!.data.length
    expect(countMarks(root, PALETTE).filled.slice(0, 2)).toEqual([points + 1, points + 1])
  })

  test('compare: the previous period is a second, dashed series on the current labels', () => {
    const root = host()
    renderInsight(root, answers.trendCompare, { filters: { insight: 'TRENDS', compare: true } })
    const series = chartSeries(root)
    expect(series.map((s) => s.name)).toEqual(['$pageview', '$pageview (previous)'])
    expect(countMarks(root, PALETTE).lines.slice(0, 2)).toEqual([1, 1])
    expect(root.querySelectorAll('path[stroke-dasharray]').length).toBeGreaterThan(0)
  })

  test('formula: one series named after the formula, fractional values kept', () => {
    const root = host()
    renderInsight(root, answers.trendFormula, { filters: { insight: 'TRENDS', formula: 'B / A' } })
    expect(chartSeries(root).map((s) => s.name)).toEqual(['Formula (B / A)'])
    expect(cells(root)[0]?.[1]).toBe('0.33')
  })

  test('breakdown: a series per value, PostHog null marker shown as (none)', () => {
    const root = host()
    renderInsight(root, answers.trendBreakdown)
    expect(chartSeries(root).map((s) => s.name)).toEqual(['Chrome', 'Firefox', '(none)'])
    expect(countMarks(root, PALETTE).lines.slice(0, 3)).toEqual([1, 1, 1])
  })

  test('a breakdown of two events: each series named by event and value, so each keeps its own colour', () => {
    const root = host()
    const signup = answers.trendBreakdown.result.map((s) => ({ ...s, label: s.label, action: { name: 'signup', custom_name: null } }))
    renderInsight(root, { ...answers.trendBreakdown, result: [...answers.trendBreakdown.result, ...signup] })
    expect(chartSeries(root).map((s) => s.name)).toEqual(['$pageview - Chrome', '$pageview - Firefox', '$pageview - (none)', 'signup - Chrome', 'signup - Firefox', 'signup - (none)'])
    expect(countMarks(root, PALETTE).lines.slice(0, 6)).toEqual([1, 1, 1, 1, 1, 1])
  })

  test('pie: a slice per breakdown value; a slice click lists its persons', () => {
    const root = host()
    const picked: PersonsSelection[] = []
    expect(renderInsight(root, answers.trendPie, { filters: { insight: 'TRENDS', display: 'ActionsPie' }, onSelect: (s) => picked.push(s) })).toBe('trends-pie')
    expect(chartSeries(root)[0]?.data).toEqual([
      { name: 'Chrome', value: 14 },
      { name: 'Firefox', value: 14 },
      { name: '(none)', value: 14 },
    ])
    const buttons = root.querySelectorAll<HTMLButtonElement>('button.sightline-persons')
    expect(buttons).toHaveLength(3)
    buttons[1]!.click()
    expect(picked).toEqual([{ title: 'Firefox', url: answers.trendPie.result[1]!.persons.url }])
  })

  test('bar value: one horizontal bar per value, largest first', () => {
    const root = host()
    const answer = { ...answers.trendPie, result: answers.trendPie.result.map((s, i) => ({ ...s, aggregated_value: [5, 20, 9][i] })) }
    expect(renderInsight(root, answer, { filters: { display: 'ActionsBarValue' } })).toBe('trends-bar-value')
    expect(chartSeries(root)[0]?.data).toEqual([20, 9, 5])
  })

  test('bold number: the total in large type, a button listing its persons', () => {
    const root = host()
    const picked: PersonsSelection[] = []
    renderInsight(root, { ...answers.trendPie, result: answers.trendPie.result.slice(0, 1) }, { filters: { display: 'BoldNumber' }, onSelect: (s) => picked.push(s) })
    expect(root.querySelector('.sightline-bold-number')?.textContent).toBe('14')
    expect(root.querySelector('figcaption')?.textContent).toBe('Chrome')
    root.querySelector<HTMLButtonElement>('.sightline-bold-number button')!.click()
    expect(picked).toHaveLength(1)
  })

  test('table: a row per series, no chart (the world map, drawn, in render-world-map.test.ts)', () => {
    const root = host()
    renderInsight(root, answers.trendBreakdown, { filters: { insight: 'TRENDS', display: 'ActionsTable' } })
    expect(root.querySelector('svg')).toBeNull()
    expect(cells(root).map((r) => r[0])).toEqual(['Chrome', 'Firefox', '(none)'])
  })

  test('a click on a point (or Enter on its table button) lists that point’s persons', () => {
    const root = host()
    const picked: PersonsSelection[] = []
    renderInsight(root, answers.trend, { onSelect: (s) => picked.push(s) })
    const buttons = root.querySelectorAll<HTMLButtonElement>('tbody button.sightline-persons')
    expect(buttons).toHaveLength(14)
    buttons[8]!.click()
    expect(picked).toEqual([{ title: 'signup on 9-Jan-2026', url: answers.trend.result[1]!.persons_urls[1]!.url }])
    expect(buttons[8]!.getAttribute('aria-label')).toBe(`${answers.trend.result[1]!.data[1]}: list the persons of signup on 9-Jan-2026`)
  })

  test('without onSelect nothing is a button; an empty result says so in words', () => {
    const root = host()
    renderInsight(root, answers.trend)
    expect(root.querySelector('button')).toBeNull()
    renderInsight(root, { result: [] } as InsightAnswer)
    expect(root.textContent).toBe('No data for this range and these filters.')
  })
})

describe('stickiness and lifecycle', () => {
  test('stickiness: bars per number of days', () => {
    const root = host()
    expect(renderInsight(root, answers.stickiness, { filters: { insight: 'STICKINESS' } })).toBe('stickiness')
    const [series] = chartSeries(root)
    expect(series?.type).toBe('bar')
    expect(series?.data).toEqual(answers.stickiness.result[0]!.data)
    expect(cells(root)[0]).toHaveLength(answers.stickiness.result[0]!.data.length + 2)
  })

  test('lifecycle: four stacked bar series, dormant below zero', () => {
    const root = host()
    expect(renderInsight(root, answers.lifecycle)).toBe('lifecycle')
    const series = chartSeries(root) as Array<{ type: string; name: string; data: number[]; stack?: string }>
    expect(series.map((s) => s.name)).toEqual(answers.lifecycle.result.map((s) => s.label))
    expect(series.every((s) => s.type === 'bar' && s.stack === 'total')).toBe(true)
    expect(series.find((s) => s.name.endsWith('dormant'))!.data.every((v) => v <= 0)).toBe(true)
  })
})
