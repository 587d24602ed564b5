import { el } from '../dom.js'
import type { InsightFilters } from '../wire.js'

const DATE_RANGES: ReadonlyArray<readonly [string, string]> = [
  ['-24h', 'Last 24 hours'],
  ['-7d', 'Last 7 days'],
  ['-14d', 'Last 14 days'],
  ['-30d', 'Last 30 days'],
  ['-90d', 'Last 90 days'],
  ['-180d', 'Last 180 days'],
  ['mStart', 'This month'],
  ['yStart', 'Year to date'],
  ['all', 'All time'],
]
const INTERVALS = ['hour', 'day', 'week', 'month']
const PERIODS = ['Hour', 'Day', 'Week', 'Month']
const DISPLAYS: ReadonlyArray<readonly [string, string]> = [
  ['ActionsLineGraph', 'Line'],
  ['ActionsLineGraphCumulative', 'Cumulative line'],
  ['ActionsBar', 'Bar'],
  ['ActionsBarValue', 'Bar (total value)'],
  ['ActionsTable', 'Table'],
  ['ActionsPie', 'Pie'],
  ['BoldNumber', 'Number'],
  ['WorldMap', 'World map'],
]

/**
 * The settings a viewer may change on an insight: date range, interval (a
 * retention's period), breakdown, and for trends the display and compare.
 * Each change calls `changed` with the insight's filters and the overrides.
 */
export function insightControls(doc: Document, saved: InsightFilters, changed: (filters: InsightFilters) => void): HTMLElement {
  const kind = String(saved.insight ?? 'TRENDS').toUpperCase()
  const form = el(doc, 'form', { class: 'sightline-controls', 'aria-label': 'Insight settings' })
  form.addEventListener('submit', (e) => e.preventDefault())
  const fields: Array<() => Partial<InsightFilters>> = []
  const emit = () => changed(Object.assign({}, saved, ...fields.map((f) => f())) as InsightFilters)

  // Date range: the presets, the saved value if it is none of them, and two dates.
  const savedFrom = saved.date_from ?? '-7d'
  const presets = DATE_RANGES.some(([v]) => v === savedFrom) ? DATE_RANGES : [...DATE_RANGES, [savedFrom, `Saved: from ${savedFrom}`] as const]
  const range = select(doc, 'sightline-date-range', [...presets, ['custom', 'Between two dates…']], savedFrom)
  const from = el(doc, 'input', { id: 'sightline-date-from', type: 'date' })
  const to = el(doc, 'input', { id: 'sightline-date-to', type: 'date' })
  const custom = el(doc, 'span', { class: 'sightline-controls', hidden: true }, el(doc, 'label', { for: 'sightline-date-from' }, 'From', from), el(doc, 'label', { for: 'sightline-date-to' }, 'To', to))
  if (kind !== 'RETENTION') {
    form.append(el(doc, 'label', { for: 'sightline-date-range' }, 'Date range', range), custom)
    range.addEventListener('change', () => {
      custom.hidden = range.value !== 'custom'
      if (range.value !== 'custom') emit()
    })
    for (const input of [from, to]) input.addEventListener('change', () => from.value && to.value && emit())
    fields.push(() => (range.value === 'custom' ? { date_from: from.value, date_to: to.value } : { date_from: range.value, date_to: range.value === savedFrom ? (saved.date_to ?? null) : null }))
  }

  const funnelViz = String(saved.funnel_viz_type ?? 'steps')
  if (kind === 'RETENTION') {
    const period = select(doc, 'sightline-period', PERIODS.map((p) => [p, p]), String(saved.period ?? 'Day'))
    form.append(el(doc, 'label', { for: 'sightline-period' }, 'Period', period))
    period.addEventListener('change', emit)
    fields.push(() => ({ period: period.value }))
  } else if (kind !== 'PATHS' && kind !== 'STICKINESS' && !(kind === 'FUNNELS' && funnelViz !== 'trends')) {
    const interval = select(doc, 'sightline-interval', INTERVALS.map((i) => [i, i[0]!.toUpperCase() + i.slice(1)]), String(saved.interval ?? 'day'))
    form.append(el(doc, 'label', { for: 'sightline-interval' }, 'Interval', interval))
    interval.addEventListener('change', emit)
    fields.push(() => ({ interval: interval.value }))
  }

  if (kind === 'TRENDS' || kind === 'FUNNELS' || kind === 'RETENTION') {
    const savedBreakdown = typeof saved.breakdown === 'string' ? saved.breakdown : ''
    const breakdown = el(doc, 'input', { id: 'sightline-breakdown', type: 'text', value: savedBreakdown, placeholder: 'e.g. $browser', spellcheck: 'false' })
    const type = select(doc, 'sightline-breakdown-type', [['event', 'Event property'], ['person', 'Person property']], String(saved.breakdown_type ?? 'event'))
    form.append(el(doc, 'label', { for: 'sightline-breakdown' }, 'Breakdown by', breakdown), el(doc, 'label', { for: 'sightline-breakdown-type' }, 'Of', type))
    breakdown.addEventListener('change', emit)
    type.addEventListener('change', () => breakdown.value && emit())
    fields.push(() => (breakdown.value.trim() === '' ? { breakdown: undefined, breakdown_type: undefined } : { breakdown: breakdown.value.trim(), breakdown_type: type.value }))
  }

  if (kind === 'TRENDS') {
    const display = select(doc, 'sightline-display', DISPLAYS, String(saved.display ?? 'ActionsLineGraph'))
    const compare = el(doc, 'input', { id: 'sightline-compare', type: 'checkbox', checked: saved.compare === true })
    form.append(el(doc, 'label', { for: 'sightline-display' }, 'Display', display), el(doc, 'label', { for: 'sightline-compare' }, 'Compare to previous period', compare))
    display.addEventListener('change', emit)
    compare.addEventListener('change', emit)
    fields.push(() => ({ display: display.value, compare: compare.checked }))
  }
  return form
}

function select(doc: Document, id: string, options: ReadonlyArray<readonly [string, string]>, value: string): HTMLSelectElement {
  const s = el(doc, 'select', { id })
  for (const [v, label] of options) s.append(el(doc, 'option', { value: v, text: label }))
  s.value = value
  return s
}
