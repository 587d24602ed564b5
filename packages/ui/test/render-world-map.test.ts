// @vitest-environment happy-dom
import { afterEach, describe, expect, test } from 'vitest'
import { renderInsight } from '../src/browser/index.js'
import { getMap } from 'echarts/core'
import { WORLD_MAP, worldCountries } from '../src/browser/charts/world-geometry.js'
import { retentionCellColors } from '../src/browser/contrast.js'
import answers from './answers.json' with { type: 'json' }
import { countryAnswer } from './country-answer.js'
import { chartSeries } from './marks.js'

afterEach(() => document.body.replaceChildren())
const host = () => document.body.appendChild(document.createElement('div'))
const cells = (root: Element) => [...root.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent))

describe('world map', () => {
  test('the countries of a $geoip_country_code breakdown shaded by their totals; the table stays, open', () => {
    const root = host()
    const answer = countryAnswer([
      ['US', 40],
      ['de', 10],
      ['FR', 20],
      ['$$_posthog_breakdown_null_$$', 5],
      ['SG', 3], // too small for the 1:110m map
    ])
    expect(renderInsight(root, answer, { filters: { insight: 'TRENDS', display: 'WorldMap' } })).toBe('trends-world-map')
    const [series] = chartSeries(root) as Array<{ type: string; data: Array<{ name: string; value?: number; itemStyle?: { areaColor: string } }> }>
    expect(series!.type).toBe('map')
    // ECharts adds every other region of the map, without a value.
    const valued = series!.data.filter((d) => d.value !== undefined)
    expect(valued.map((d) => [d.name, d.value])).toEqual([
      ['US', 40],
      ['DE', 10],
      ['FR', 20],
    ])
    // The most is the page's full blue; the others paler by their share of it.
    expect(valued.map((d) => d.itemStyle!.areaColor)).toEqual([1, 0.25, 0.5].map((share) => retentionCellColors(share).background))
    expect(root.querySelector('[role="img"]')!.getAttribute('aria-label')).toBe('World map of 3 countries, most in United States of America (40)')
    expect(root.querySelector('.sightline-view > .sightline-status')!.textContent).toBe('Not on the map: (none), SG (in the table).')
    // Drawn: a shape for every country of the map, the three with values in their shade.
    const fills = [...root.querySelectorAll('svg path')].map((p) => p.getAttribute('fill'))
    expect(fills.filter((f) => f === '#f3f4f6').length).toBeGreaterThan(150)
    for (const d of valued) expect(fills, d.name).toContain(d.itemStyle!.areaColor)
    // The table: a row per value, open (no <details>), with the total heading of a map.
    expect(root.querySelector('details')).toBeNull()
    expect(cells(root).map((r) => [r[0], r.at(-1)])).toEqual([
      ['US', '40'],
      ['de', '10'],
      ['FR', '20'],
      ['(none)', '5'],
      ['SG', '3'],
    ])
    expect(root.querySelector('thead th:last-child')!.textContent).toBe('Total (by country)')
  })

  test('values that are no country (a breakdown by browser) draw an empty map and say so', () => {
    const root = host()
    renderInsight(root, answers.trendPie, { filters: { insight: 'TRENDS', display: 'WorldMap' } })
    expect(chartSeries(root)[0]!.data.filter((d) => (d as { value?: number }).value !== undefined)).toEqual([])
    expect(root.querySelector('[role="img"]')!.getAttribute('aria-label')).toBe('World map of 0 countries')
    expect(root.querySelector('.sightline-view > .sightline-status')!.textContent).toBe('Not on the map: Chrome, Firefox, (none) (in the table).')
    expect(cells(root)).toHaveLength(3)
  })

  test('the bundled geometry: every country keyed by its alpha-2 code, Kosovo by XK, Antarctica left out', () => {
    const countries = worldCountries()
    expect(countries.size).toBeGreaterThan(170)
    expect([countries.get('US'), countries.get('DE'), countries.get('BR'), countries.get('XK'), countries.get('AQ')]).toEqual(['United States of America', 'Germany', 'Brazil', 'Kosovo', undefined])
    for (const code of countries.keys()) expect(code).toMatch(/^[A-Z]{2}$/)
  })

  test('no shape crosses the 180th meridian: ECharts draws longitude flat, so such a ring would be a line across the map', () => {
    worldCountries()
    const { features } = (getMap(WORLD_MAP) as unknown as { geoJSON: { features: Array<{ properties: { iso: string }; geometry: { type: string; coordinates: number[][][][] } }> } }).geoJSON
    let widest = 0
    for (const f of features) {
      expect(f.geometry.type).toBe('MultiPolygon')
      for (const ring of f.geometry.coordinates.flat()) {
        for (const [i, [lon]] of ring.entries()) {
          expect(Math.abs(lon!), f.properties.iso).toBeLessThanOrEqual(180)
          if (i > 0) widest = Math.max(widest, Math.abs(lon! - ring[i - 1]![0]!))
        }
      }
    }
    expect(widest).toBeLessThan(180)
    // Russia and Fiji cross it: each is drawn on both edges of the map.
    for (const code of ['RU', 'FJ']) {
      const lons = features.find((f) => f.properties.iso === code)!.geometry.coordinates.flat(2).map(([lon]) => lon!)
      expect([Math.min(...lons), Math.max(...lons)], code).toEqual([-180, 180])
    }
  })
})
