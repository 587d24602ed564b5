import { drawChart } from '../charts/draw-chart.js'
import type { ViewContext } from '../view-context.js'
import type { TrendSeries } from '../wire.js'
import { seriesNames, seriesOf } from './series-name.js'
import { trendTable } from './trend-table.js'

/** How the x/y views differ: line or bar, running totals, lifecycle's stacking. */
export interface TrendChartStyle {
  readonly type: 'line' | 'bar'
  readonly cumulative?: boolean
  readonly stacked?: boolean
  /** The name of a series the answer leaves unnamed (a funnel trend's). Default `Series N`. */
  readonly unnamed?: string
}

/**
 * Series over time (trends as line, cumulative or bar, compare, formulas;
 * stickiness; lifecycle; funnel trends): one chart series per answer series,
 * the x axis the labels of the first (a compared previous period shares the
 * current one's positions, as PostHog draws it). A click on a point lists
 * its persons. Below the chart, the same numbers as a table.
 */
export function trendChart(element: HTMLElement, result: unknown, ctx: ViewContext, style: TrendChartStyle, title: string): void {
  const series = seriesOf(result).map((s) => (style.unnamed !== undefined && s.label === undefined && s.breakdown_value === undefined ? { ...s, label: style.unnamed } : s))
  const labels = series[0]?.labels ?? (series[0]?.days ?? []).map(String)
  const names = seriesNames(series)
  drawChart(
    element,
    `${title}: ${series.length} series over ${labels.length} points`,
    {
      tooltip: { trigger: 'axis' },
      legend: { type: 'scroll', bottom: 0, data: names },
      grid: { left: 48, right: 16, top: 16, bottom: 56 },
      xAxis: { type: 'category', data: labels, boundaryGap: style.type === 'bar' },
      yAxis: { type: 'value' },
      series: series.map((s, i) => ({
        name: names[i],
        type: style.type,
        data: style.cumulative ? runningSum(s.data ?? []) : [...(s.data ?? [])],
        ...(style.stacked ? { stack: 'total' } : {}),
        ...(s.compare_label === 'previous' ? { lineStyle: { type: 'dashed' } } : {}),
        showSymbol: (s.data ?? []).length <= 60,
      })),
    },
    ctx,
    ctx.onSelect
      ? (click) => {
          const s: TrendSeries | undefined = series[click.seriesIndex ?? 0]
          const url = s?.persons_urls?.[click.dataIndex]?.url
          if (s && url) ctx.onSelect?.({ title: `${names[click.seriesIndex ?? 0]} on ${s.labels?.[click.dataIndex] ?? labels[click.dataIndex]}`, url })
        }
      : undefined,
  )
  element.append(trendTable(element.ownerDocument, series, ctx, false))
}

function runningSum(data: ReadonlyArray<number>): number[] {
  let sum = 0
  return data.map((v) => (sum += v))
}
