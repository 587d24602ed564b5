import type { CsvTable } from './csv-stream.js'
import { breakdownCell, isItem, trendTable } from './csv-trends.js'

/**
 * A funnel result as a table, by its view: the steps (one record per step,
 * per breakdown value), the trends view (a record per breakdown value, a
 * column per period) or time to convert (a record per bin).
 */
export function funnelTable(result: unknown): CsvTable {
  if (!Array.isArray(result)) return timeToConvertTable(result)
  // The trends view: conversion rates per period. A sum of rates means nothing, so no `total`.
  if (result.some((element) => isItem(element) && Array.isArray(element.data))) return trendTable(result, { unlabelled: () => 'conversion rate (%)', total: false })
  return stepsTable(result)
}

/** `round(part / whole * 100, 2)`, empty when nobody entered. */
const percent = (part: number, whole: number): number | null => (whole > 0 ? Math.round((part * 10000) / whole) / 100 : null)

/**
 * PostHog's exporter ("FUNNELS LIKE"): `name` (the step's custom name, else
 * its name; PostHog writes the action id of an action step here),
 * `breakdown_value` when broken down, `action_id`, `count`, then the
 * conversion a reader wants beside the counts (PostHog's exporter leaves it
 * to the reader): `conversion rate (%)` from the first step and
 * `conversion from previous step (%)`, then PostHog's
 * `median_conversion_time (seconds)` and `average_conversion_time (seconds)`.
 * With a breakdown the steps of each value follow each other, ranked as the
 * result ranks them.
 */
function stepsTable(result: ReadonlyArray<unknown>): CsvTable {
  const groups = (result.length > 0 && Array.isArray(result[0]) ? result : [result]).filter(Array.isArray).map((group) => group.filter(isItem))
  const brokenDown = groups.some((group) => group.some((step) => step.breakdown_value !== undefined))
  const header = [
    'name',
    ...(brokenDown ? ['breakdown_value'] : []),
    'action_id',
    'count',
    'conversion rate (%)',
    'conversion from previous step (%)',
    'median_conversion_time (seconds)',
    'average_conversion_time (seconds)',
  ]
  return {
    header,
    *rows() {
      for (const steps of groups) {
        const first = Number(steps[0]?.count ?? 0)
        for (const [i, step] of steps.entries()) {
          const count = Number(step.count ?? 0)
          const previous = i === 0 ? null : Number(steps[i - 1]!.count ?? 0)
          const row: unknown[] = [step.custom_name || step.name || step.action_id]
          // A cohort's name (`breakdown`) rather than its id, as the app shows it.
          if (brokenDown) row.push(breakdownCell(step.breakdown ?? step.breakdown_value))
          row.push(step.action_id, count, percent(count, first), previous === null ? null : percent(count, previous), step.median_conversion_time, step.average_conversion_time)
          yield row
        }
      }
    },
  }
}

/** PostHog's exporter ("bins"): `bin`, the bin's start in seconds, and `value`, the persons who converted within it. */
function timeToConvertTable(result: unknown): CsvTable {
  const bins = isItem(result) && Array.isArray(result.bins) ? result.bins.filter(Array.isArray) : []
  return {
    header: ['bin', 'value'],
    *rows() {
      for (const [start, persons] of bins) yield [start, persons]
    },
  }
}
