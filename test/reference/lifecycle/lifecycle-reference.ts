/**
 * LIFECYCLE (reference §12): each person's active buckets from one bucket
 * before date_from to the end of date_to's bucket, classified as new,
 * returning or resurrecting, and dormant (negative) the bucket after the
 * last of a run; reported for the buckets of the range.
 */
import type { RefDataset } from '../shared/ref-dataset.js'
import { seriesRows } from '../trends/trend-filters.js'
import { dayOf, labelOf } from '../trends/trend-labels.js'
import { bucketIndex, periodsOf, previousBucketStart, type PeriodContext } from '../trends/trend-period.js'
import type { TrendQuery } from '../trends/trend-query.js'
import { createdAtByPerson, type Row } from '../trends/trend-rows.js'
import { bucketOfMs } from '../shared/ref-time.js'

const STATUSES = ['new', 'returning', 'resurrecting', 'dormant'] as const

export async function lifecycleResult(query: TrendQuery, rows: ReadonlyArray<Row>, data: RefDataset, ctx: PeriodContext): Promise<object[]> {
  const series = query.series[0]
  if (!series) return []
  const [p] = await periodsOf(query, ctx, false)
  const n = p!.starts.length
  if (n === 0) return []
  // Bucket -1 is the extra one before the range; bucket n is the one after it, where dormancy can fall.
  const starts = [previousBucketStart(p!.starts[0]!, p!.interval, p!.timeZone, p!.weekStartDay), ...p!.starts]
  const lower = starts[0]! * 1000
  const upper = p!.ends[n - 1]! * 1000
  const created = createdAtByPerson(rows)
  const active = new Map<string, Set<number>>()
  for (const r of seriesRows(rows, series, query, data)) {
    if (r.micros < lower || r.micros >= upper) continue
    let set = active.get(r.personId)
    if (!set) active.set(r.personId, (set = new Set()))
    set.add(bucketIndex(starts, r.ms) - 1)
  }
  const counts = Object.fromEntries(STATUSES.map((s) => [s, Array.from({ length: n }, () => 0)])) as Record<(typeof STATUSES)[number], number[]>
  const report = (status: (typeof STATUSES)[number], i: number) => {
    if (i >= 0 && i < n) counts[status][i]! += status === 'dormant' ? -1 : 1
  }
  for (const [person, set] of active) {
    const periods = [...set].sort((a, b) => a - b)
    const createdBucket = bucketOfMs(Math.floor(created.get(person)! / 1000), p!.interval, p!.timeZone, p!.weekStartDay)
    periods.forEach((i, k) => {
      if (k === 0 && starts[i + 1] === createdBucket) report('new', i)
      else if (k > 0 && set.has(i - 1)) report('returning', i)
      else report('resurrecting', i)
      if (!set.has(i + 1)) report('dormant', i + 1)
    })
  }
  const days = p!.starts.map((s) => dayOf(p!, s))
  const labels = p!.starts.map((s) => labelOf(p!, s))
  return STATUSES.map((status) => ({
    status,
    label: `${series.name} - ${status}`,
    action: { id: series.id, name: series.name, type: 'events', order: 0, math: 'total' },
    data: counts[status],
    count: counts[status].reduce((a, b) => a + b, 0),
    days,
    labels,
  }))
}
