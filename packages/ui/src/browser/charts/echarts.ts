/**
 * ECharts, tree-shaken to what the views draw (lines, bars, pies, Sankey
 * flows, the world map; grid, tooltip, legend) with the SVG renderer: SVG keeps the
 * drawing in the DOM, where screen readers, tests and the page's own CSS
 * reach it, and at insight sizes (a few thousand points at most, core's
 * bucket budget) it draws as fast as canvas.
 */
import { BarChart, LineChart, MapChart, PieChart, SankeyChart } from 'echarts/charts'
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components'
import { init, registerMap, use } from 'echarts/core'
import { SVGRenderer } from 'echarts/renderers'

use([LineChart, BarChart, PieChart, SankeyChart, MapChart, GridComponent, TooltipComponent, LegendComponent, SVGRenderer])

export { init, registerMap }
export type { EChartsType } from 'echarts/core'
