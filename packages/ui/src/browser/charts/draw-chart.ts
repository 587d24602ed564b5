import type { ViewContext } from '../view-context.js'
import { init, type EChartsType } from './echarts.js'

/** Charts drawn into a host element, so a redraw disposes of the last one (its listeners and resize observer). */
const charts = new WeakMap<Element, { chart: EChartsType; observer: ResizeObserver | undefined }>()

/** Colours of the series: PostHog's palette order, each at 3:1 contrast or more against white. */
export const PALETTE = ['#1d4aff', '#cd0f74', '#43827e', '#621da6', '#c4540d', '#0e7490', '#7c2d12', '#4d7c0f', '#be185d', '#374151']

/** A data point's index and series, as ECharts reports a click. */
export interface ChartClick {
  readonly seriesIndex?: number
  readonly dataIndex: number
  readonly dataType?: string
  readonly data?: unknown
  readonly name?: string
}

/**
 * Draws an ECharts option in a new `<div role="img">` of `parent`, labelled
 * with `label`; the views put the numbers in a table beside it for screen
 * readers and the keyboard (ECharts' own aria text reads each point as
 * "index, value", so it stays off). Animation is off: a chart drawn at once
 * is one a test and a screenshot can read without waiting.
 */
export function drawChart(parent: HTMLElement, label: string, option: Record<string, unknown>, ctx: ViewContext, onClick?: (click: ChartClick) => void): EChartsType {
  const doc = parent.ownerDocument
  const box = doc.createElement('div')
  box.className = 'sightline-chart'
  box.setAttribute('role', 'img')
  box.setAttribute('aria-label', label)
  box.style.width = `${ctx.width}px`
  box.style.maxWidth = '100%'
  box.style.height = `${ctx.height}px`
  parent.append(box)
  const chart = init(box, null, { renderer: 'svg', width: ctx.width, height: ctx.height })
  chart.setOption({ animation: false, color: PALETTE, ...option })
  if (onClick) {
    box.style.cursor = 'pointer'
    chart.on('click', (params) => onClick(params as unknown as ChartClick))
  }
  // A chart as wide as its element follows it (a resized window, a dashboard's column); a fixed width stays.
  let observer: ResizeObserver | undefined
  if (ctx.followWidth && typeof ResizeObserver === 'function') {
    box.style.width = '100%'
    observer = new ResizeObserver(() => {
      if (box.clientWidth > 0 && box.clientWidth !== chart.getWidth()) chart.resize({ width: box.clientWidth, height: ctx.height })
    })
    observer.observe(box)
  }
  charts.set(box, { chart, observer })
  return chart
}

/** Disposes of every chart drawn inside `element` (before it is emptied for a new drawing). */
export function disposeCharts(element: Element): void {
  for (const box of element.querySelectorAll('.sightline-chart')) {
    const drawn = charts.get(box)
    drawn?.observer?.disconnect()
    drawn?.chart.dispose()
    charts.delete(box)
  }
}
