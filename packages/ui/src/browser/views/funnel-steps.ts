import { drawChart, PALETTE } from '../charts/draw-chart.js'
import { el } from '../dom.js'
import { breakdownLabel, formatDuration, formatNumber, formatPercent } from '../format.js'
import type { ViewContext } from '../view-context.js'
import type { FunnelStep } from '../wire.js'
import { personsButton } from './persons-button.js'

/**
 * Funnel steps: a bar per step (and breakdown value) of the persons who
 * reached it, the drop-off from the step before stacked above it; then a
 * table of conversion from the first and the previous step, drop-off and
 * conversion times, whose counts list the converted and dropped persons.
 */
export function funnelSteps(element: HTMLElement, result: unknown, ctx: ViewContext): void {
  const groups = funnelGroups(result)
  const stepNames = (groups[0]?.steps ?? []).map(stepName)
  const color = (i: number) => PALETTE[i % PALETTE.length]
  const converted = groups.map((g, i) => ({
    name: g.label,
    type: 'bar',
    stack: g.label,
    itemStyle: { color: color(i) },
    data: g.steps.map((s) => s.count),
    label: { show: true, position: 'inside', formatter: (p: { dataIndex: number }) => formatPercent(share(g.steps, p.dataIndex, 0)) },
  }))
  const dropped = groups.map((g, i) => ({
    name: `${g.label} dropped off`,
    type: 'bar',
    stack: g.label,
    itemStyle: { color: color(i), opacity: 0.25 },
    data: g.steps.map((s, i) => (i === 0 ? 0 : Math.max(0, (g.steps[i - 1]?.count ?? 0) - s.count))),
  }))
  drawChart(
    element,
    `Funnel of ${stepNames.length} steps${groups.length > 1 ? ` for ${groups.length} breakdown values` : ''}`,
    {
      tooltip: { trigger: 'axis' },
      grid: { left: 48, right: 16, top: 16, bottom: 40 },
      legend: groups.length > 1 ? { type: 'scroll', bottom: 0, data: groups.map((g) => g.label) } : { show: false },
      // Every step named, however narrow the chart (ECharts would skip labels that might overlap).
      xAxis: { type: 'category', data: stepNames.map((n, i) => `${i + 1}. ${n}`), axisLabel: { interval: 0, overflow: 'truncate', width: 120 } },
      yAxis: { type: 'value' },
      series: groups.flatMap((_, i) => [converted[i], dropped[i]]),
    },
    ctx,
    ctx.onSelect
      ? (click) => {
          const group = groups[Math.floor((click.seriesIndex ?? 0) / 2)]
          const step = group?.steps[click.dataIndex]
          const droppedBar = (click.seriesIndex ?? 0) % 2 === 1
          const url = droppedBar ? step?.dropped_people_url : step?.converted_people_url
          if (group && step && url) ctx.onSelect?.({ title: `${droppedBar ? 'Dropped off before' : 'Reached'} ${stepName(step)}${groups.length > 1 ? ` (${group.label})` : ''}`, url })
        }
      : undefined,
  )
  element.append(funnelTable(element.ownerDocument, groups, ctx))
}

interface FunnelGroup {
  readonly label: string
  readonly steps: ReadonlyArray<FunnelStep>
}

/** The answer's steps, one group per breakdown value (a broken-down funnel answers a list of step lists). */
function funnelGroups(result: unknown): FunnelGroup[] {
  if (!Array.isArray(result) || result.length === 0) return []
  if (!Array.isArray(result[0])) return [{ label: 'Persons', steps: result as FunnelStep[] }]
  return (result as FunnelStep[][]).map((steps) => ({ label: breakdownLabel(steps[0]?.breakdown_value), steps }))
}

const stepName = (s: FunnelStep): string => s.custom_name ?? s.name ?? `Step ${(s.order ?? 0) + 1}`

/** The share of step `i` in step `of` (0 when nobody was there). */
function share(steps: ReadonlyArray<FunnelStep>, i: number, of: number): number {
  const base = steps[of]?.count ?? 0
  return base === 0 ? 0 : (steps[i]?.count ?? 0) / base
}

function funnelTable(doc: Document, groups: ReadonlyArray<FunnelGroup>, ctx: ViewContext): HTMLElement {
  const headings = ['Step', ...(groups.length > 1 ? ['Breakdown'] : []), 'Persons', 'Conversion', 'From previous', 'Dropped off', 'Median time', 'Average time']
  const rows = groups.flatMap((g) =>
    g.steps.map((s, i) => {
      const name = `${i + 1}. ${stepName(s)}`
      const droppedCount = i === 0 ? 0 : Math.max(0, (g.steps[i - 1]?.count ?? 0) - s.count)
      return el(
        doc,
        'tr',
        {},
        el(doc, 'th', { scope: 'row', text: name }),
        groups.length > 1 ? el(doc, 'td', { text: g.label }) : null,
        el(doc, 'td', {}, personsButton(doc, formatNumber(s.count), ctx, s.converted_people_url, `persons who reached ${name}`)),
        el(doc, 'td', { text: formatPercent(share(g.steps, i, 0)) }),
        el(doc, 'td', { text: i === 0 ? '–' : formatPercent(share(g.steps, i, i - 1)) }),
        el(doc, 'td', {}, i === 0 ? '–' : personsButton(doc, formatNumber(droppedCount), ctx, s.dropped_people_url, `persons who dropped off before ${name}`)),
        el(doc, 'td', { text: i === 0 ? '–' : formatDuration(s.median_conversion_time) }),
        el(doc, 'td', { text: i === 0 ? '–' : formatDuration(s.average_conversion_time) }),
      )
    }),
  )
  const head = el(doc, 'tr', {}, ...headings.map((h) => el(doc, 'th', { scope: 'col', text: h })))
  return el(doc, 'div', { class: 'sightline-table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Funnel steps' }, el(doc, 'table', { class: 'sightline-table' }, el(doc, 'thead', {}, head), el(doc, 'tbody', {}, ...rows)))
}
