/**
 * Loads a funnel worked example's plain data into an engine (a new project),
 * and translates between the example's action and cohort ids and the ones
 * the database gave: the example names action 7, the database may call it 3.
 */
import type { FunnelExampleData } from '../../reference/funnels/funnel-dataset.js'
import { loadDataset } from '../../reference/shared/load-dataset.js'
import type { FunnelEngine } from './engine.js'

export interface LoadedExample {
  readonly projectId: number
  /** The request with the example's action and cohort ids replaced by the stored ones. */
  params(params: Record<string, unknown>): Record<string, unknown>
  /** A result with the stored action and cohort ids replaced by the example's. */
  result(result: unknown): unknown
}

export async function loadExample(engine: FunnelEngine, data: FunnelExampleData): Promise<LoadedExample> {
  // Capture moves timestamps more than a day ahead of its clock to "now" (as PostHog does): load with a clock past every event.
  const latest = Math.max(Date.parse(data.now), ...data.events.map((e) => Date.parse(e.timestamp)))
  engine.setNow(new Date(latest + 2 * 86_400_000))
  const projectId = await loadDataset(engine.sightline, engine.organizationId, { ...data, now: new Date(data.now) })
  const actions = new Map<number, number>()
  for (const [exampleId, action] of Object.entries(data.actions ?? {})) {
    const created = await engine.sightline.actions.create(projectId, { name: action.name, steps: action.eventNames.map((event) => ({ event })) } as never)
    actions.set(Number(exampleId), created.id)
  }
  const cohorts = new Map<number, number>()
  for (const [exampleId, cohort] of Object.entries(data.cohorts ?? {})) {
    const distinctIds = Object.entries(data.persons).filter(([, p]) => cohort.personIds.includes(p.id)).map(([d]) => d)
    const created = await engine.sightline.cohorts.create(projectId, { name: cohort.name, isStatic: true, distinctIds } as never)
    cohorts.set(Number(exampleId), created.id)
  }
  engine.setNow(new Date(data.now))
  const back = (m: Map<number, number>) => new Map([...m].map(([a, b]) => [b, a]))
  const actionsBack = back(actions)
  const cohortsBack = back(cohorts)
  return {
    projectId,
    params(params) {
      const out: Record<string, unknown> = { ...params }
      const mapAction = (e: Record<string, unknown>) => (typeof e.id === 'number' && actions.has(e.id) ? { ...e, id: actions.get(e.id) } : e)
      if (Array.isArray(params.actions)) out.actions = params.actions.map((a) => mapAction(a as Record<string, unknown>))
      if (Array.isArray(params.exclusions)) {
        out.exclusions = params.exclusions.map((x) => ((x as Record<string, unknown>).type === 'actions' ? mapAction(x as Record<string, unknown>) : x))
      }
      if (params.breakdown_type === 'cohort') {
        const ids = Array.isArray(params.breakdown) ? params.breakdown : [params.breakdown]
        const mapped = ids.map((c) => (typeof c === 'number' ? (cohorts.get(c) ?? c) : c))
        out.breakdown = Array.isArray(params.breakdown) ? mapped : mapped[0]
      }
      return out
    },
    result(result) {
      const fix = (step: unknown): unknown => {
        if (typeof step !== 'object' || step === null || Array.isArray(step)) return step
        const s = { ...(step as Record<string, unknown>) }
        if (s.type === 'actions' && typeof s.action_id === 'number') s.action_id = actionsBack.get(s.action_id) ?? s.action_id
        if (typeof s.breakdown_value === 'number') s.breakdown_value = cohortsBack.get(s.breakdown_value) ?? s.breakdown_value
        return s
      }
      if (!Array.isArray(result)) return result
      return result.map((r) => (Array.isArray(r) ? r.map(fix) : fix(r)))
    },
  }
}

/** A result without the people URLs (the worked examples leave them out). */
export function withoutUrls(result: unknown): unknown {
  if (Array.isArray(result)) return result.map(withoutUrls)
  if (typeof result !== 'object' || result === null) return result
  const { converted_people_url: _c, dropped_people_url: _d, ...rest } = result as Record<string, unknown>
  return rest
}
