import { drawChart } from '../charts/draw-chart.js'
import { el } from '../dom.js'
import { formatDuration } from '../format.js'
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
}
