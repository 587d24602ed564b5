import { getInstanceByDom } from 'echarts/core'

/**
 * What a drawn chart holds, counted in its SVG: per series colour, the
 * unfilled paths (lines) and the filled ones (bars, slices, nodes and legend
 * icons), and the Sankey's links (filled with a gradient). Self-contained, so
 * the browser test can send it into the page as it is.
 */
export function countMarks(root: Element, palette: ReadonlyArray<string>): { lines: number[]; filled: number[]; faded: number[]; links: number; svgs: number } {
  const paths = [...root.querySelectorAll('svg path')]
  const lines = palette.map((c) => paths.filter((p) => p.getAttribute('fill') === 'none' && p.getAttribute('stroke') === c).length)
  const solid = (p: Element) => !p.hasAttribute('fill-opacity') && !p.hasAttribute('opacity')
  const filled = palette.map((c) => paths.filter((p) => p.getAttribute('fill') === c && solid(p)).length)
  const faded = palette.map((c) => paths.filter((p) => p.getAttribute('fill') === c && !solid(p)).length)
  const links = paths.filter((p) => (p.getAttribute('fill') ?? '').startsWith('url(')).length
  return { lines, filled, faded, links, svgs: root.querySelectorAll('svg').length }
}

/** The series ECharts was given for the chart drawn in `root` (the numbers a view computed from the answer). */
export function chartSeries(root: Element): Array<{ type: string; name?: string; data: unknown[] }> {
  const box = root.querySelector('.sightline-chart')
  if (!box) throw new Error('no chart drawn')
  const chart = getInstanceByDom(box as HTMLElement)
  if (!chart) throw new Error('no ECharts instance on the chart box')
  return (chart.getOption() as { series: Array<{ type: string; name?: string; data: unknown[] }> }).series
}
