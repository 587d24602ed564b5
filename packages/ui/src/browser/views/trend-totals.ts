import { drawChart } from '../charts/draw-chart.js'
import { el } from '../dom.js'
import { formatNumber } from '../format.js'
import type { ViewContext } from '../view-context.js'
import { personsButton } from './persons-button.js'
import { seriesName, seriesNames, seriesOf, seriesTotal } from './series-name.js'
import { trendTable } from './trend-table.js'

/** One value per series (`ActionsBarValue`): horizontal bars, largest first. */
export function trendBarValue(element: HTMLElement, result: unknown, ctx: ViewContext): void {
  const all = seriesOf(result)
  const names = seriesNames(all)
  const series = all.map((s, i) => ({ s, name: names[i]! })).sort((a, b) => seriesTotal(b.s) - seriesTotal(a.s))
  drawChart(
    element,
    `Bar chart of ${series.length} values`,
    {
      tooltip: { trigger: 'item' },
      grid: { left: 16, right: 32, top: 16, bottom: 16 },
      xAxis: { type: 'value' },
      yAxis: { type: 'category', inverse: true, data: series.map((x) => x.name) },
      series: [{ type: 'bar', colorBy: 'data', data: series.map((x) => seriesTotal(x.s)), label: { show: true, position: 'right' } }],
    },
    ctx,
    ctx.onSelect ? (click) => select(ctx, series[click.dataIndex]) : undefined,
  )
  element.append(trendTable(element.ownerDocument, series.map((x) => x.s), ctx, false))
}

/** One value per series (`ActionsPie`): a pie, each slice listing its persons. */
export function trendPie(element: HTMLElement, result: unknown, ctx: ViewContext): void {
  const all = seriesOf(result)
  const names = seriesNames(all)
  const series = all.map((s, i) => ({ s, name: names[i]! }))
  drawChart(
    element,
    `Pie chart of ${series.length} values`,
    {
      tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
      legend: { type: 'scroll', bottom: 0 },
      series: [{ type: 'pie', radius: ['35%', '70%'], top: 0, bottom: 32, data: series.map((x) => ({ name: x.name, value: seriesTotal(x.s) })) }],
    },
    ctx,
    ctx.onSelect ? (click) => select(ctx, series[click.dataIndex]) : undefined,
  )
  element.append(trendTable(element.ownerDocument, series.map((x) => x.s), ctx, false))
}

/** `BoldNumber`: the first series' total, large, with its name. */
export function trendNumber(element: HTMLElement, result: unknown, ctx: ViewContext): void {
  const doc = element.ownerDocument
  const [first] = seriesOf(result)
  const value = first ? formatNumber(seriesTotal(first)) : '–'
  const name = first ? seriesName(first, 0) : 'No data'
  const number = el(doc, 'div', { class: 'sightline-bold-number' }, personsButton(doc, value, ctx, first?.persons?.url, name))
  element.append(el(doc, 'figure', { class: 'sightline-number' }, number, el(doc, 'figcaption', { text: name })))
}

/** `ActionsTable`: the totals, or every point, as a table. */
export function trendTableView(element: HTMLElement, result: unknown, ctx: ViewContext): void {
  element.append(trendTable(element.ownerDocument, seriesOf(result), ctx, true))
}

function select(ctx: ViewContext, picked: { s: { persons?: { url: string } }; name: string } | undefined): void {
  if (picked?.s.persons?.url) ctx.onSelect?.({ title: picked.name, url: picked.s.persons.url })
}
