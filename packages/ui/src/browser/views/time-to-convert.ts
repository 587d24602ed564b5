import { drawChart } from '../charts/draw-chart.js'
import { el } from '../dom.js'
import { formatDuration, formatNumber } from '../format.js'
import type { ViewContext } from '../view-context.js'
import type { TimeToConvert } from '../wire.js'

/** A funnel's time to convert: a histogram of persons per bin of conversion time, with the average in words. */
export function timeToConvert(element: HTMLElement, result: unknown, ctx: ViewContext): void {
  const answer = (result ?? { bins: [] }) as TimeToConvert
  const bins = answer.bins ?? []
  const doc = element.ownerDocument
  element.append(el(doc, 'p', { class: 'sightline-summary', text: `Average time to convert: ${formatDuration(answer.average_conversion_time)}` }))
  drawChart(element, `Time to convert: ${bins.length} bins`, {
    tooltip: { trigger: 'axis' },
    grid: { left: 48, right: 16, top: 16, bottom: 24 },
    xAxis: { type: 'category', name: 'time to convert', data: bins.map(([seconds]) => formatDuration(seconds)) },
    yAxis: { type: 'value', name: 'persons' },
    series: [{ name: 'Persons', type: 'bar', data: bins.map(([, persons]) => persons) }],
  }, ctx)
  const rows = bins.map(([seconds, persons]) => el(doc, 'tr', {}, el(doc, 'th', { scope: 'row', text: formatDuration(seconds) }), el(doc, 'td', { text: formatNumber(persons) })))
  const head = el(doc, 'tr', {}, el(doc, 'th', { scope: 'col', text: 'From' }), el(doc, 'th', { scope: 'col', text: 'Persons' }))
  const table = el(doc, 'table', { class: 'sightline-table' }, el(doc, 'thead', {}, head), el(doc, 'tbody', {}, ...rows))
  element.append(el(doc, 'details', { class: 'sightline-data' }, el(doc, 'summary', { text: 'Show the data as a table' }), el(doc, 'div', { class: 'sightline-table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Time to convert' }, table)))
}
