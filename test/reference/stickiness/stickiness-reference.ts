/**
 * STICKINESS (reference §11): for each series and period, how many actors
 * were active in exactly k of the N buckets of the range, k = 1..N.
 */
import type { RefDataset } from '../shared/ref-dataset.js'
import { seriesRows } from '../trends/trend-filters.js'
import { actorOf } from '../trends/trend-math.js'
import { bucketIndex, periodsOf, type PeriodContext } from '../trends/trend-period.js'
import type { TrendQuery } from '../trends/trend-query.js'
import type { Row } from '../trends/trend-rows.js'
import { filterOf } from '../trends/trend-series.js'

export async function stickinessResult(query: TrendQuery, params: Record<string, unknown>, rows: ReadonlyArray<Row>, data: RefDataset, ctx: PeriodContext): Promise<object[]> {
  const periods = await periodsOf(query, ctx, false)
  const perSeries = query.series.map((s) => seriesRows(rows, s, query, data))
  const out: object[] = []
  for (const p of periods) {
    // Events from the start of date_from's bucket (a week's start, not its day) to date_to.
    const lower = (p.starts[0] ?? Infinity) * 1000
    const n = p.starts.length
    query.series.forEach((s, i) => {
      const buckets = new Map<string, Set<number>>()
      for (const r of perSeries[i]!) {
        if (r.micros < lower || r.micros > p.toMicros) continue
        const actor = actorOf(s, r)
        if (actor === null) continue
        let set = buckets.get(actor)
        if (!set) buckets.set(actor, (set = new Set()))
        set.add(bucketIndex(p.starts, r.ms))
      }
      const data = Array.from({ length: n }, () => 0)
      for (const set of buckets.values()) data[set.size - 1]!++
      const obj: Record<string, unknown> = {
        data,
        days: data.map((_, k) => k + 1),
        labels: data.map((_, k) => `${k + 1} ${query.interval}${k === 0 ? '' : 's'}`),
        count: buckets.size,
        label: s.name,
        action: { order: s.index, type: 'events', name: s.name, id: s.type === 'actions' ? s.name : s.id, custom_name: s.customName },
        filter: filterOf(query, params, p),
      }
      if (p.compareLabel !== null) {
        obj.compare = true
        obj.compare_label = p.compareLabel
      }
      out.push(obj)
    })
  }
  return out
}
