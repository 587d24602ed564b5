import { drawChart } from '../charts/draw-chart.js'
import { worldCountries, WORLD_MAP } from '../charts/world-geometry.js'
import { retentionCellColors } from '../contrast.js'
import { el } from '../dom.js'
import { breakdownLabel, formatNumber } from '../format.js'
import type { ViewContext } from '../view-context.js'
import type { TrendSeries } from '../wire.js'
import { seriesNames, seriesOf, seriesTotal } from './series-name.js'
import { trendTable } from './trend-table.js'

/** Countries with no value: a light grey the shaded ones stand out from, edged so coasts show. */
const NO_DATA = '#f3f4f6'
const EDGE = '#9ca3af'

/**
 * `WorldMap`: each country shaded by its total (the page's blue, deeper for
 * more), from a breakdown by country code (`$geoip_country_code`) of the
 * first event (a compared previous period is left out, as PostHog's map does).
 * The table stays under it, open: it is the map's accessible view, and holds
 * the values that are no country on the map (`(none)`, small islands the
 * 1:110m map leaves out), which a line names.
 */
export function trendWorldMap(element: HTMLElement, result: unknown, ctx: ViewContext): void {
  const doc = element.ownerDocument
  const all = seriesOf(result)
  const countries = worldCountries()
  const event = eventOf(all[0])
  const shown = all.filter((s) => eventOf(s) === event && s.compare_label !== 'previous')
  const byCountry = new Map<string, TrendSeries>()
  const elsewhere: string[] = []
  for (const s of shown) {
    const code = typeof s.breakdown_value === 'string' ? s.breakdown_value.toUpperCase() : ''
    if (countries.has(code) && !byCountry.has(code)) byCountry.set(code, s)
    else elsewhere.push(breakdownLabel(s.breakdown_value))
  }
  const max = Math.max(0, ...[...byCountry.values()].map(seriesTotal))
  const data = [...byCountry].map(([code, s]) => {
    const value = seriesTotal(s)
    return { name: code, value, itemStyle: { areaColor: retentionCellColors(max > 0 ? value / max : 0).background } }
  })
  const top = [...byCountry].sort((a, b) => seriesTotal(b[1]) - seriesTotal(a[1]))[0]
  const label = `World map of ${byCountry.size} ${byCountry.size === 1 ? 'country' : 'countries'}${top ? `, most in ${countries.get(top[0])} (${formatNumber(seriesTotal(top[1]))})` : ''}`
  drawChart(
    element,
    label,
    {
      tooltip: {
        trigger: 'item',
        formatter: (p: { name: string; value?: number }) => `${escapeText(countries.get(p.name) ?? '')}: ${Number.isFinite(p.value) ? formatNumber(p.value) : 'no data'}`,
      },
      series: [
        {
          type: 'map',
          map: WORLD_MAP,
          nameProperty: 'iso',
          roam: false,
          selectedMode: false,
          top: 8,
          bottom: 8,
          itemStyle: { areaColor: NO_DATA, borderColor: EDGE, borderWidth: 0.5 },
          emphasis: { label: { show: false }, itemStyle: { areaColor: '#b45309' } },
          data,
        },
      ],
    },
    ctx,
    ctx.onSelect
      ? (click) => {
          const s = byCountry.get(click.name ?? '')
          if (s?.persons?.url) ctx.onSelect?.({ title: countries.get(click.name ?? '') ?? click.name ?? '', url: s.persons.url })
        }
      : undefined,
  )
  if (elsewhere.length > 0) element.append(el(doc, 'p', { class: 'sightline-status', text: `Not on the map: ${elsewhere.join(', ')} (in the table).` }))
  element.append(trendTable(doc, all, ctx, true, 'Total (by country)'))
}

/** The event (or action) a series counts: a breakdown gives one series per value of each. */
function eventOf(s: TrendSeries | undefined): string {
  return s?.action?.custom_name ?? s?.action?.name ?? seriesNames(s ? [s] : [])[0] ?? ''
}

/** ECharts' tooltip formatter returns HTML: a country name is ours, but escape it anyway. */
function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
