import { sql } from 'kysely'
import type { EngineContext } from '../../context.js'
import { ValidationError } from '../../errors.js'
import { id, int, join, type Cte, type Sql } from '../funnels/compile/sql-kit.js'
import { actorConditions } from '../funnels/funnel-actors.js'
import { funnelEnv } from '../funnels/funnel-env.js'
import { planFunnel } from '../funnels/funnel-plan.js'
import type { FunnelActorsRequest } from '../funnels/funnel-request.js'
import { decodeFunnelActorsRequest } from '../funnels/params/decode-funnel-params.js'
import { stepsCtes } from '../funnels/funnel-sql.js'

export const FUNNEL_PATH_TYPES = ['funnel_path_after_step', 'funnel_path_before_step', 'funnel_path_between_steps'] as const
export type FunnelPathType = (typeof FUNNEL_PATH_TYPES)[number]

/** Paths around a funnel step (`funnel_paths` with `funnel_filter`): whose paths, and between which of their times. */
export interface FunnelPaths {
  readonly type: FunnelPathType
  /** The funnel's people request: its steps view's actors of `funnel_step` (or `funnel_custom_steps`) and `funnel_step_breakdown`. */
  readonly funnel: FunnelActorsRequest
  /** `funnel_step` as sent: n > 0 reached step n, -n dropped off before it. */
  readonly funnelStep: number
  /** The 1-based step whose time bounds the paths: n for `funnel_step` n, n - 1 for -n (the last step reached). */
  readonly step: number
}

/** The funnel's actors and their time bounds, as CTEs ending in `fpa(tgt, lo, hi)` (epoch µs, null: open). */
export interface FunnelPathBounds {
  readonly ctes: ReadonlyArray<Cte>
  /** The funnel's conversion window: paths split into sessions at gaps this long or longer. */
  readonly sessionGapMicros: number
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u)
const present = (v: unknown): boolean => v !== undefined && v !== null && v !== ''
const invalid = (path: ReadonlyArray<string | number>, message: string) => new ValidationError([{ path, message }], { context: 'invalid paths parameters' })

/**
 * Reads `funnel_paths` and `funnel_filter` as PostHog's paths read them
 * (`should_query_funnel`, `handle_funnel`): `funnel_filter` is a funnel
 * request (an object, or its JSON text) with `funnel_step`, checked whenever
 * it is sent; `funnel_paths` is one of FUNNEL_PATH_TYPES and needs it. The
 * funnel's actors are persons, so a funnel aggregated by groups or an
 * expression is refused, and so is `funnel_path_between_steps` at the first
 * step (PostHog: "Cannot request preceding step timestamp if target funnel
 * step is the first step"). Errors inside the funnel name
 * `funnel_filter__<its field>`. Null without `funnel_paths`.
 */
export function decodeFunnelPaths(p: Readonly<Record<string, unknown>>): FunnelPaths | null {
  let filter: Record<string, unknown> | null = null
  if (present(p.funnel_filter)) {
    let raw = p.funnel_filter
    if (typeof raw === 'string') {
      try {
        raw = JSON.parse(raw)
      } catch {
        throw invalid(['funnel_filter'], 'is not valid JSON')
      }
    }
    if (!isObject(raw)) throw invalid(['funnel_filter'], 'is a funnel request: an object with its events or actions and funnel_step')
    filter = raw
  }
  if (!present(p.funnel_paths)) return null
  const type = p.funnel_paths
  if (typeof type !== 'string' || !(FUNNEL_PATH_TYPES as ReadonlyArray<string>).includes(type)) {
    throw invalid(['funnel_paths'], `unknown funnel path type ${JSON.stringify(type)}; use one of ${FUNNEL_PATH_TYPES.join(', ')}`)
  }
  if (filter === null) throw invalid(['funnel_filter'], 'funnel_paths reads the paths of a funnel step: send the funnel as funnel_filter, with funnel_step')
  if (!present(filter.funnel_step)) throw invalid(['funnel_filter', 'funnel_step'], 'funnel paths need the funnel step: n for those who reached step n, -n for those who dropped off before it')
  let funnel: FunnelActorsRequest
  try {
    // The steps view's people: PostHog's funnel paths ask the funnel's actors of a step, whatever view the funnel was saved with.
    funnel = decodeFunnelActorsRequest({ ...filter, funnel_viz_type: 'steps' })
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error
    throw new ValidationError(
      error.issues.map((i) => ({ ...i, path: ['funnel_filter', ...i.path] })),
      { context: 'invalid funnel_filter', cause: error },
    )
  }
  if (funnel.aggregationGroup !== null) throw invalid(['funnel_filter', 'aggregation_group_type_index'], 'funnel paths follow persons; a funnel of groups has none')
  if (funnel.aggregateByHogql !== null) throw invalid(['funnel_filter', 'funnel_aggregate_by_hogql'], 'funnel paths follow persons; aggregate the funnel by persons')
  const funnelStep = Number(filter.funnel_step)
  const step = funnelStep > 0 ? funnelStep : -funnelStep - 1
  if (type === 'funnel_path_between_steps' && step < 2) {
    throw invalid(['funnel_filter', 'funnel_step'], 'Cannot request preceding step timestamp if target funnel step is the first step')
  }
  return { type: type as FunnelPathType, funnel: { ...funnel, viz: 'steps' }, funnelStep, step }
}

/**
 * The funnel's actors with the times that bound their paths (PostHog's
 * `handle_funnel` over the funnel actors with `includeTimestamp` or
 * `includePrecedingTimestamp`): for each person of the funnel's people
 * request, the time of `step` in the attempt the funnel reports. After the
 * step: events at or after it; before: at or before it (a drop-off,
 * `funnel_step` < 0: up to one conversion window past it, when the person
 * counts as dropped); between: from the step before it to it. The window
 * goes where PostHog's ClickHouse paths put it and its tests expect it
 * (`funnel_window if ... FUNNEL_PATH_BEFORE_STEP and funnel_step < 0`;
 * test_path_by_funneL_before_dropoff); the HogQL runner's translation adds
 * it to after-step drop-offs instead, with no test of it. A person counted
 * under several breakdown values takes the widest bounds.
 */
export async function funnelPathBounds(ctx: EngineContext, projectId: number, paths: FunnelPaths): Promise<FunnelPathBounds> {
  const request = paths.funnel
  const env = await funnelEnv(ctx, projectId, request)
  const plan = planFunnel(request, request.steps.length)
  const at = id(`fin.t${paths.step}`)
  const none = sql`cast(null as bigint)`
  const [lo, hi] =
    paths.type === 'funnel_path_after_step'
      ? [at, none]
      : paths.type === 'funnel_path_before_step'
        ? [none, paths.funnelStep < 0 ? sql`${at} + ${int(request.windowMicros)}` : at]
        : [id(`fin.t${paths.step - 1}`), at]
  const bounds = sql`select tgt, min(lo) as lo, max(hi) as hi from (
      select fin.tgt, ${lo} as lo, ${hi} as hi from fin where ${join(actorConditions(request), ' and ')}
    ) as b group by tgt`
  return { ctes: [...stepsCtes(ctx.adapter.sql, request, env, plan), ['fpa', bounds]], sessionGapMicros: request.windowMicros }
}
