/**
 * Breakdown limit, Other and order (reference §7.2, §7.4). The values kept
 * are the first `limit` in PostHog's ranking, the rest fold into Other, whose
 * value is recomputed over the folded rows; the rows are then shown real
 * values first, then null, then Other, each by total, then value.
 *
 * The ranking that decides the cut differs by display in PostHog's
 * trends_query_builder.py:
 * - time series (`_outer_select_query`): `row_number() OVER (ORDER BY
 *   ordering ASC, total_count_for_breakdown DESC, breakdown_value ASC)` with
 *   `ordering` = 2 for Other, 1 for null (any null part), 0 otherwise, and
 *   `breakdown_rank <= breakdown_limit` kept: null never takes a slot from a
 *   real value;
 * - total value (`_total_value_by_breakdown_query`): `row_number() OVER
 *   (ORDER BY total DESC)`, `row_number >= breakdown_limit + 1` folded: null
 *   competes on its total (PostHog leaves ties unordered; here value ascending).
 */
import { compareParts, otherGroup, type BreakdownGroup } from './trend-breakdown.js'

export interface Scored {
  /** Never null here: only breakdown rows are ranked. */
  readonly group: BreakdownGroup | null
  /** The value breakdown rows are ranked by: the sum of `data`, or `aggregated_value`. */
  readonly total: number
}

const byTotalThenValue = (a: Scored, b: Scored) => b.total - a.total || compareParts(a.group!.parts, b.group!.parts)

export function limitAndOrder<T extends Scored>(
  items: ReadonlyArray<T>,
  options: { limit: number; hideOther: boolean; width: number; multi: boolean; foldable: boolean; nullCompetes: boolean },
  score: (group: BreakdownGroup, folded: ReadonlyArray<T>) => T,
): T[] {
  let kept = [...items]
  if (options.foldable && items.length > options.limit) {
    const ranked = [...items].sort(options.nullCompetes ? byTotalThenValue : (a, b) => a.group!.bucket - b.group!.bucket || byTotalThenValue(a, b))
    kept = ranked.slice(0, options.limit)
    if (!options.hideOther) kept.push(score(otherGroup(ranked.slice(options.limit).map((s) => s.group!), options.width, options.multi), ranked.slice(options.limit)))
  }
  return kept.sort((a, b) => a.group!.bucket - b.group!.bucket || byTotalThenValue(a, b))
}
