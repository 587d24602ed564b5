/**
 * Funnel paths, composed from the two references: the funnel reference's
 * runs give the step's persons and their step times, the paths reference
 * keeps only those persons' events within their bounds and splits sessions
 * at the funnel's window. Written from PostHog's ClickHouse paths
 * (`get_path_query_funnel_cte`, path_event_query's funnel filter,
 * `get_session_threshold_clause`) and its funnel persons (`steps IN ...`,
 * `_get_timestamp_selects`), never from Sightline's SQL.
 */
import type { FunnelRefDataset } from './funnel-dataset.js'
import { referenceFunnelRuns } from './funnel-reference.js'
import { readFunnelParams } from './funnel-params.js'
import { referencePathActors, referencePaths, type RefEdge } from '../paths/path-reference.js'
import type { RefPathOptions, RefPathsParams } from '../paths/path-sessions.js'

export interface RefFunnelPathsParams extends RefPathsParams {
  funnel_paths: 'funnel_path_after_step' | 'funnel_path_before_step' | 'funnel_path_between_steps'
  /** The funnel's request with `funnel_step`; breakdowns and custom steps are not modelled. */
  funnel_filter: Record<string, unknown> & { funnel_step: number }
}

/** The person a funnel target stands for, as the paths reference names persons. */
const personOf = (target: string): string | null =>
  target.startsWith('person:') ? target.slice('person:'.length) : target.startsWith('distinct:') ? target.slice('distinct:'.length) : null

/**
 * Which events count: those of the persons the funnel lists for
 * `funnel_step` (n > 0: furthest 0-based step >= n - 1; -n: exactly n - 2),
 * at or after their step's time (after), at or before it (before; a
 * drop-off up to one window past it), or from the step before to it
 * (between). The step is n for n > 0 and n - 1 for -n, 1-based.
 */
async function funnelPathOptions(p: RefFunnelPathsParams, data: FunnelRefDataset): Promise<RefPathOptions> {
  const funnel = p.funnel_filter
  if (funnel.breakdown !== undefined || funnel.funnel_custom_steps !== undefined) throw new Error('funnel path reference: breakdowns and custom steps are not modelled')
  const spec = readFunnelParams({ ...funnel, funnel_viz_type: 'steps' }, data)
  const window = spec.windowMicros
  const stepNumber = funnel.funnel_step
  const step = stepNumber > 0 ? stepNumber : -stepNumber - 1
  const bounds = new Map<string, { lo: number; hi: number }>()
  for (const { target, result } of await referenceFunnelRuns(funnel, data)) {
    const listed = stepNumber > 0 ? result.reached >= stepNumber - 1 : result.reached === -stepNumber - 2
    const person = personOf(target)
    if (!listed || person === null) continue
    const at = result.times[step - 1]!
    const span =
      p.funnel_paths === 'funnel_path_after_step'
        ? { lo: at, hi: Number.POSITIVE_INFINITY }
        : p.funnel_paths === 'funnel_path_before_step'
          ? { lo: Number.NEGATIVE_INFINITY, hi: stepNumber < 0 ? at + window : at }
          : { lo: result.times[step - 2]!, hi: at }
    const seen = bounds.get(person)
    bounds.set(person, seen ? { lo: Math.min(seen.lo, span.lo), hi: Math.max(seen.hi, span.hi) } : span)
  }
  return {
    keep: (person, micros) => {
      const b = bounds.get(person)
      return b !== undefined && micros >= b.lo && micros <= b.hi
    },
    sessionGapMicros: window,
  }
}

/** `{result}` of a funnel paths request. */
export async function referenceFunnelPaths(p: RefFunnelPathsParams, data: FunnelRefDataset): Promise<RefEdge[]> {
  return referencePaths(p, data, await funnelPathOptions(p, data))
}

/** The persons behind a funnel path node or edge (`path_start_key`, `path_end_key`, `path_dropoff_key`), with their rows. */
export async function referenceFunnelPathActors(p: RefFunnelPathsParams, data: FunnelRefDataset): Promise<Map<string, number>> {
  return referencePathActors(p, data, await funnelPathOptions(p, data))
}
