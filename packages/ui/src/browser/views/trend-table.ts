import { el } from '../dom.js'
import { formatNumber } from '../format.js'
import type { ViewContext } from '../view-context.js'
import type { TrendSeries } from '../wire.js'
import { personsButton } from './persons-button.js'
import { seriesNames, seriesTotal } from './series-name.js'

/**
 * A trend answer as a table: a row per series, a column per point and the
 * total (a total-value answer: the total alone). `visible` false puts it in
 * a closed `<details>` under a chart: the keyboard's and screen reader's way
 * to every point.
 */
export function trendTable(doc: Document, series: ReadonlyArray<TrendSeries>, ctx: ViewContext, visible: boolean, totalHeading = 'Total'): HTMLElement {
  const labels = series[0]?.labels ?? []
  const perPoint = series.some((s) => (s.data ?? []).length > 0)
  const head = el(doc, 'tr', {}, el(doc, 'th', { scope: 'col', text: 'Series' }), ...(perPoint ? labels.map((l) => el(doc, 'th', { scope: 'col', text: l })) : []), el(doc, 'th', { scope: 'col', text: totalHeading }))
  const names = seriesNames(series)
  const rows = series.map((s, i) => {
    const name = names[i]!
    const cells = perPoint
      ? (s.data ?? []).map((v, j) => el(doc, 'td', {}, personsButton(doc, formatNumber(v), ctx, s.persons_urls?.[j]?.url, `${name} on ${s.labels?.[j] ?? labels[j] ?? ''}`)))
      : []
    const total = personsButton(doc, formatNumber(seriesTotal(s)), ctx, perPoint ? undefined : s.persons?.url, name)
    return el(doc, 'tr', {}, el(doc, 'th', { scope: 'row', text: name }), ...cells, el(doc, 'td', {}, total))
  })
  const table = el(doc, 'table', { class: 'sightline-table' }, el(doc, 'thead', {}, head), el(doc, 'tbody', {}, ...rows))
  const scroller = el(doc, 'div', { class: 'sightline-table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Data table' }, table)
  if (visible) return scroller
  return el(doc, 'details', { class: 'sightline-data' }, el(doc, 'summary', { text: 'Show the data as a table' }), scroller)
}
