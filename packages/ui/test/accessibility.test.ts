// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest'
import { renderInsight } from '../src/browser/index.js'
import { PALETTE } from '../src/browser/charts/draw-chart.js'
import { contrastRatio, retentionCellColors } from '../src/browser/contrast.js'
import { PAGE_STYLES } from '../src/page-styles.js'
import answers from './answers.json' with { type: 'json' }

afterEach(() => document.body.replaceChildren())

describe('contrast', () => {
  test('each series colour stands out from the white background at 3:1 or more (WCAG 1.4.11)', () => {
    for (const colour of PALETTE) expect(contrastRatio(colour, '#ffffff'), colour).toBeGreaterThanOrEqual(3)
  })

  test('the page’s text colours read at 4.5:1 or more on their backgrounds (WCAG 1.4.3)', () => {
    const pairs: Array<[string, string]> = [
      ['#111827', '#ffffff'], // text
      ['#4b5563', '#ffffff'], // muted text, labels
      ['#1d4aff', '#ffffff'], // links, secondary buttons
      ['#ffffff', '#1d4aff'], // primary buttons
      ['#991b1b', '#fef2f2'], // errors
    ]
    for (const [fg, bg] of pairs) {
      expect(PAGE_STYLES).toContain(fg)
      expect(contrastRatio(fg, bg), `${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5)
    }
    expect(contrastRatio('#b45309', '#ffffff')).toBeGreaterThanOrEqual(3) // the focus outline
  })

  test('a retention cell’s text reads at 4.5:1 or more whatever its share', () => {
    for (let share = 0; share <= 1; share += 0.01) {
      const { background, color } = retentionCellColors(share)
      expect(contrastRatio(color, background), `share ${share.toFixed(2)}`).toBeGreaterThanOrEqual(4.5)
    }
  })
})

describe('labels and keyboard', () => {
  const views: Array<[string, object, object]> = [
    ['trend', answers.trend, {}],
    ['pie', answers.trendPie, { filters: { display: 'ActionsPie' } }],
    ['funnel', answers.funnel, {}],
    ['retention', answers.retention, {}],
    ['paths', answers.paths, { projectId: 1 }],
  ]

  test.each(views)('%s: the chart is an image with a label, every button has a name, every table cell a header', (_, answer, options) => {
    const root = document.body.appendChild(document.createElement('div'))
    renderInsight(root, answer as never, { ...options, onSelect: () => {} })
    for (const chart of root.querySelectorAll('.sightline-chart')) {
      expect(chart.getAttribute('role')).toBe('img')
      expect(chart.getAttribute('aria-label')).toMatch(/\w/)
    }
    const buttons = [...root.querySelectorAll('button')]
    expect(buttons.length).toBeGreaterThan(0)
    for (const b of buttons) {
      expect(b.getAttribute('type')).toBe('button')
      expect(b.getAttribute('aria-label') ?? b.textContent).toMatch(/\w/)
    }
    for (const table of root.querySelectorAll('table')) {
      expect(table.querySelectorAll('thead th[scope="col"]').length).toBe(table.querySelector('thead tr')!.children.length)
      for (const row of table.querySelectorAll('tbody tr')) expect(row.querySelector('th[scope="row"]') ?? row.querySelector('td')).not.toBeNull()
    }
    // Scrolling tables are reachable by keyboard, and named.
    for (const region of root.querySelectorAll('.sightline-table-scroll')) {
      expect(region.getAttribute('tabindex')).toBe('0')
      expect(region.getAttribute('aria-label')).toMatch(/\w/)
    }
  })
})
