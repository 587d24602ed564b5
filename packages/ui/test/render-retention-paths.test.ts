// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest'
import { renderInsight, type PersonsSelection } from '../src/browser/index.js'
import { PALETTE } from '../src/browser/charts/draw-chart.js'
import answers from './answers.json' with { type: 'json' }
import { countMarks } from './marks.js'

const host = () => document.body.appendChild(document.createElement('div'))
afterEach(() => document.body.replaceChildren())

describe('retention', () => {
  test('the cohort table: a row per cohort, a shaded cell per period it has reached', () => {
    const root = host()
    expect(renderInsight(root, answers.retention)).toBe('retention')
    const result = answers.retention.result
    const body = [...root.querySelectorAll('tbody tr')]
    expect(body).toHaveLength(result.length)
    expect(root.querySelectorAll('td.sightline-cell')).toHaveLength(result.reduce((n, r) => n + r.values.length, 0))
    expect([...root.querySelectorAll('thead th')].map((th) => th.textContent)).toEqual(['Cohort', 'Persons', 'Day 0', 'Day 1', 'Day 2', 'Day 3'])
    const first = body[0]!
    expect(first.querySelector('th')?.textContent).toBe(result[0]!.date.slice(0, 10))
    const size = result[0]!.values[0]!.count
    const shares = result[0]!.values.map((v) => `${((v.count / size) * 100).toFixed(1)}%`)
    expect([...first.querySelectorAll('td.sightline-cell')].map((td) => td.textContent)).toEqual(shares)
  })

  test('a cell lists the persons who came back then; the size lists the cohort', () => {
    const root = host()
    const picked: PersonsSelection[] = []
    renderInsight(root, answers.retention, { onSelect: (s) => picked.push(s) })
    const row = root.querySelectorAll('tbody tr')[0]!
    const [size, day0, day1] = [...row.querySelectorAll<HTMLButtonElement>('button')]
    day1!.click()
    size!.click()
    expect(day0).toBeDefined()
    expect(picked.map((p) => p.url)).toEqual([answers.retention.result[0]!.values[1]!.people_url, answers.retention.result[0]!.people_url])
  })
})

describe('paths', () => {
  const edges = answers.paths.result

  test('a Sankey flow: a node per step and page, a link per edge', () => {
    const root = host()
    expect(renderInsight(root, answers.paths)).toBe('paths')
    const nodes = new Set(edges.flatMap((e) => [e.source, e.target])).size
    const marks = countMarks(root, PALETTE)
    expect(marks.links).toBe(edges.length)
    expect(marks.filled.reduce((a, b) => a + b, 0)).toBe(nodes)
    expect(root.querySelectorAll('details tbody tr')).toHaveLength(edges.length)
  })

  test('with the project known, a link lists the persons who took it (persons/path/ with the request’s filters)', () => {
    const root = host()
    const picked: PersonsSelection[] = []
    renderInsight(root, answers.paths, { projectId: 7, filters: { insight: 'PATHS', date_from: '-7d', include_event_types: ['$pageview'] }, onSelect: (s) => picked.push(s) })
    root.querySelector<HTMLButtonElement>('details tbody button')!.click()
    const url = new URL(picked[0]!.url, 'http://x/')
    expect(url.pathname).toBe('/api/projects/7/persons/path/')
    expect(Object.fromEntries(url.searchParams)).toEqual({ date_from: '-7d', include_event_types: '["$pageview"]', path_start_key: '1_/', path_end_key: '2_/pricing' })
    expect(picked[0]!.title).toBe('/ → /pricing')
  })

  test('without the project, nothing in the flow is a button', () => {
    const root = host()
    renderInsight(root, answers.paths, { onSelect: () => {} })
    expect(root.querySelector('button')).toBeNull()
  })
})
