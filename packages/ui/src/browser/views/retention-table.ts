import { retentionCellColors } from '../contrast.js'
import { el } from '../dom.js'
import { breakdownLabel, formatNumber, formatPercent } from '../format.js'
import type { ViewContext } from '../view-context.js'
import type { RetentionRow } from '../wire.js'
import { personsButton } from './persons-button.js'

/**
 * Retention as PostHog's cohort table: a row per cohort (its start and
 * size), a cell per period with the share of the cohort that returned,
 * shaded by that share. Each cell lists the persons who returned then; the
 * size lists the cohort.
 */
export function retentionTable(element: HTMLElement, result: unknown, ctx: ViewContext): void {
  const doc = element.ownerDocument
  const rows = (Array.isArray(result) ? result : []) as RetentionRow[]
  const periods = Math.max(0, ...rows.map((r) => r.values.length))
  const periodLabels = Array.from({ length: periods }, (_, i) => rows.find((r) => r.values[i]?.label)?.values[i]?.label ?? `Period ${i}`)
  const broken = rows.some((r) => r.breakdown_value !== undefined)
  const head = el(
    doc,
    'tr',
    {},
    broken ? el(doc, 'th', { scope: 'col', text: 'Breakdown' }) : null,
    el(doc, 'th', { scope: 'col', text: 'Cohort' }),
    el(doc, 'th', { scope: 'col', text: 'Persons' }),
    ...periodLabels.map((l) => el(doc, 'th', { scope: 'col', text: l })),
  )
  const body = rows.map((row) => {
    const size = row.values[0]?.count ?? 0
    const cohort = cohortLabel(row)
    return el(
      doc,
      'tr',
      {},
      broken ? el(doc, 'td', { text: breakdownLabel(row.breakdown_value) }) : null,
      el(doc, 'th', { scope: 'row', text: cohort }),
      el(doc, 'td', {}, personsButton(doc, formatNumber(size), ctx, row.people_url, `the cohort of ${cohort}`)),
      ...Array.from({ length: periods }, (_, i) => {
        const value = row.values[i]
        if (!value) return el(doc, 'td', { class: 'sightline-cell-empty' })
        const ratio = size === 0 ? 0 : value.count / size
        const text = formatPercent(ratio)
        return el(
          doc,
          'td',
          { class: 'sightline-cell', style: cellStyle(ratio), title: `${formatNumber(value.count)} of ${formatNumber(size)} persons` },
          personsButton(doc, text, ctx, value.people_url, `the cohort of ${cohort} in ${periodLabels[i] ?? ''}`),
        )
      }),
    )
  })
  const table = el(doc, 'table', { class: 'sightline-table sightline-retention' }, el(doc, 'caption', { text: 'Share of each cohort that came back in each period' }), el(doc, 'thead', {}, head), el(doc, 'tbody', {}, ...body))
  element.append(el(doc, 'div', { class: 'sightline-table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Retention cohorts' }, table))
}

/** The cohort's start date (the day, without the time), or its label. */
function cohortLabel(row: RetentionRow): string {
  return row.date ? row.date.slice(0, 10) : (row.label ?? '')
}

/** The cell's shade and text colour, as a style attribute. */
function cellStyle(ratio: number): string {
  const { background, color } = retentionCellColors(ratio)
  return `background-color: ${background}; color: ${color}`
}
