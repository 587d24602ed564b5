/**
 * Breakdown limit, Other and order (reference §7.2, §7.4). The top values
 * are chosen by total (descending, then value ascending), the rest fold into
 * Other, whose value is recomputed over the folded rows; the rows are then
 * shown real values first, then null, then Other, each by total.
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
  options: { limit: number; hideOther: boolean; width: number; multi: boolean; foldable: boolean },
  score: (group: BreakdownGroup) => T,
): T[] {
  let kept = [...items]
  if (options.foldable && items.length > options.limit) {
    const ranked = [...items].sort(byTotalThenValue)
    kept = ranked.slice(0, options.limit)
    if (!options.hideOther) kept.push(score(otherGroup(ranked.slice(options.limit).map((s) => s.group!), options.width, options.multi)))
  }
  return kept.sort((a, b) => a.group!.bucket - b.group!.bucket || byTotalThenValue(a, b))
}
