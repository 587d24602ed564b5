import type { SeriesEntity } from '../../series/series.js'
import type { FunnelRequest } from '../funnel-request.js'
import { compareValues, rowValue, type FunnelBreakdownValue } from './breakdown-values.js'
import { funnelUrlQuery, peopleUrl } from './people-urls.js'

/** What the step objects need beyond the aggregate rows. */
export interface StepsContext {
  readonly request: FunnelRequest
  readonly projectId: number
  /** Action id -> name, for action steps. */
  readonly actionNames: ReadonlyMap<number, string | null>
  /** Cohort id -> name, for cohort breakdowns. */
  readonly cohortNames: ReadonlyMap<number, string | null>
}

/** One step of a funnel's steps view, PostHog's shape. */
export interface FunnelStep {
  /** The event name, the action's id, null for "All events" (and for every step of an unordered funnel). */
  action_id: string | number | null
  /** The event or action name; unordered funnels: `Completed n steps`. */
  name: string | null
  custom_name: string | null
  /** 0-based. */
  order: number
  /** Always empty: the persons are behind `converted_people_url`. */
  people: never[]
  /** Actors who reached this step (or further). */
  count: number
  type: 'events' | 'actions'
  /** Seconds from the previous step, over those who converted; null for the first step or nobody. */
  average_conversion_time: number | null
  median_conversion_time: number | null
  /** `sightline.query.funnelPersons` with `funnel_step` n (as a URL relative to the API root). */
  converted_people_url: string
  /** `funnel_step` -n; null for the first step. */
  dropped_people_url: string | null
}

/** One step of one breakdown value's funnel. */
export interface FunnelBreakdownStep extends FunnelStep {
  /**
   * The value (a cohort's name). PostHog's old clients (`insight: FUNNELS`
   * with an `event` or `person` `breakdown_type`) get a string `breakdown`'s
   * first element, and `breakdowns` instead of `breakdown` when they sent the list.
   */
  breakdown?: FunnelBreakdownValue
  breakdowns?: FunnelBreakdownValue
  /** The value (a cohort's id); unboxed like `breakdown` for old clients. */
  breakdown_value: FunnelBreakdownValue
}

type Row = Readonly<Record<string, unknown>>
const num = (v: unknown): number => Number(v ?? 0)
const time = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v))

/**
 * The steps view's `result` (funnels.md §7-9, §12) from the aggregate rows:
 * a list of step objects, or with a breakdown one list per value, ranked by
 * the count at the last step, then the one before, ... then by value, with
 * "Other" last (a kept value that is itself "Other" keeps its place, merged).
 * Each step carries its people URLs (DECISIONS.md). Nobody in the funnel:
 * steps with count 0 (DECISIONS.md), or [] with a breakdown. The legacy
 * unboxing of PostHog's old clients is applied last.
 */
export function stepsResult(rows: ReadonlyArray<Row>, ctx: StepsContext): FunnelStep[] | FunnelBreakdownStep[][] {
  const b = ctx.request.breakdown
  const query = funnelUrlQuery(ctx.request.params)
  if (b === null) return stepObjects(rows[0] ?? {}, ctx, query, undefined)
  const n = ctx.request.steps.length
  const counts = (r: Row) => Array.from({ length: n }, (_, i) => num(r[`c${i}`]))
  const groups = rows.map((r) => ({ row: r, value: rowValue(b, r), counts: counts(r), rank: r.rn === undefined || r.rn === null ? null : num(r.rn) }))
  groups.sort((x, y) => {
    if (x.rank !== null && y.rank !== null) return x.rank - y.rank
    for (let i = n - 1; i >= 0; i--) if (x.counts[i] !== y.counts[i]) return y.counts[i]! - x.counts[i]!
    return compareValues(x.value, y.value)
  })
  // With a value, every step object has its breakdown keys.
  return unboxLegacy(ctx.request.params, groups.map((g) => stepObjects(g.row, ctx, query, g.value) as FunnelBreakdownStep[]))
}

function stepObjects(row: Row, ctx: StepsContext, query: string, value: FunnelBreakdownValue | undefined): FunnelStep[] {
  const { request } = ctx
  const unordered = request.order === 'unordered'
  return request.steps.map((step, i) => {
    const out: FunnelStep & Partial<FunnelBreakdownStep> = {
      action_id: unordered ? null : actionId(step),
      name: unordered ? `Completed ${i + 1} step${i === 0 ? '' : 's'}` : stepName(step, ctx),
      custom_name: unordered ? null : step.customName,
      order: i,
      people: [],
      count: num(row[`c${i}`]),
      type: step.kind,
      average_conversion_time: i === 0 ? null : time(row[`a${i}`]),
      median_conversion_time: i === 0 ? null : time(row[`m${i}`]),
      converted_people_url: peopleUrl(ctx.projectId, query, i + 1, value),
      dropped_people_url: i === 0 ? null : peopleUrl(ctx.projectId, query, -(i + 1), value),
    }
    if (value !== undefined) {
      out.breakdown = request.breakdown!.dims[0]!.type === 'cohort' ? cohortName(value, ctx) : value
      out.breakdown_value = value
    }
    return out
  })
}

/** PostHog's step `action_id`: the event name, the action's integer id, null for "All events". */
const actionId = (step: SeriesEntity): string | number | null => (step.kind === 'actions' ? step.actionId : step.event)

const stepName = (step: SeriesEntity, ctx: StepsContext): string | null => (step.kind === 'actions' ? (ctx.actionNames.get(step.actionId!) ?? null) : step.event)

const cohortName = (value: FunnelBreakdownValue, ctx: StepsContext): string =>
  value === 'all' ? 'all users' : (ctx.cohortNames.get(value as number) ?? String(value))

/**
 * posthog/helpers/multi_property_breakdown.py
 * `protect_old_clients_from_multi_property_default`: with `insight: "FUNNELS"`
 * and an explicit event or person `breakdown_type`, a string `breakdown`
 * request gets `breakdown` and `breakdown_value` unboxed to their first
 * element, and a `breakdowns` request gets `breakdown` renamed `breakdowns`.
 */
function unboxLegacy(request: Readonly<Record<string, unknown>>, result: FunnelBreakdownStep[][]): FunnelBreakdownStep[][] {
  const legacy = request.insight === 'FUNNELS' && (request.breakdown_type === 'person' || request.breakdown_type === 'event')
  const single = legacy && typeof request.breakdown === 'string'
  const multi = legacy && Object.hasOwn(request, 'breakdowns')
  if (!single && !multi) return result
  return result.map((series) =>
    series.map((item) => {
      const out: FunnelBreakdownStep = { ...item }
      if (single) {
        if (Array.isArray(out.breakdown)) out.breakdown = out.breakdown[0]
        if (Array.isArray(out.breakdown_value)) out.breakdown_value = out.breakdown_value[0]
      }
      if (multi) {
        out.breakdowns = out.breakdown
        delete out.breakdown
      }
      return out
    }),
  )
}
