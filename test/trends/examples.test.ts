/**
 * Every hand-derived worked example of trends, stickiness and lifecycle
 * (test/reference/trends/trend-examples.ts) on every storage target.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'
import { TREND_EXAMPLES, toRefDataset, trendMismatches, type TrendExample } from '../reference/trends/trend-examples.js'
import { openTrendEngine, type TrendEngine } from './support/engine.js'
import { loadTrendData } from './support/load.js'

/**
 * Examples where Sightline departs from PostHog's code (test/trends/README.md),
 * each with the PostHog source that decides; the reference evaluator and the
 * example follow PostHog.
 */
const DISAGREEMENTS: Record<string, string> = {
}

/** Examples this suite cannot run, each with its reason. */
function skipReason(example: TrendExample): string | null {
  const disagreement = DISAGREEMENTS[example.name]
  if (disagreement) return `known disagreement: ${disagreement}`
  return null
}

/**
 * Creates the example's actions and static cohorts in the engine, which
 * gives them ids of its own, and rewrites the ids in the request and the
 * expected breakdown values and labels (an action series' `action.id` is the
 * action's name, so it needs no rewriting).
 */
async function materialise(engine: TrendEngine, projectId: number, example: TrendExample): Promise<{ params: Record<string, unknown>; expected: Array<Record<string, unknown>> }> {
  const actionIds = new Map<number, number>()
  for (const [id, action] of Object.entries(example.data.actions ?? {})) {
    const created = await engine.sightline.actions.create(projectId, { name: action.name, steps: action.eventNames.map((event) => ({ event })) })
    actionIds.set(Number(id), created.id)
  }
  const cohortIds = new Map<number, number>()
  for (const [id, members] of Object.entries(example.data.cohorts ?? {})) {
    const distinctIds = Object.entries(example.data.persons).filter(([, p]) => members.includes(p.id)).map(([d]) => d)
    const created = await engine.sightline.cohorts.create(projectId, { name: null, isStatic: true, distinctIds })
    cohortIds.set(Number(id), created.id)
  }
  if (actionIds.size === 0 && cohortIds.size === 0) return { params: example.params, expected: [...example.expected] }
  const cohort = (v: unknown) => (typeof v === 'number' && cohortIds.has(v) ? cohortIds.get(v)! : v)
  const filters = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(filters)
    if (typeof node !== 'object' || node === null) return node
    const n = node as Record<string, unknown>
    if (Array.isArray(n.values)) return { ...n, values: n.values.map(filters) }
    return n.type === 'cohort' ? { ...n, value: cohort(n.value) } : n
  }
  const p = structuredClone(example.params)
  if (Array.isArray(p.actions)) p.actions = p.actions.map((a: Record<string, unknown>) => ({ ...a, id: actionIds.get(a.id as number) ?? a.id, ...(a.properties ? { properties: filters(a.properties) } : {}) }))
  if (Array.isArray(p.events)) p.events = p.events.map((e: Record<string, unknown>) => (e.properties ? { ...e, properties: filters(e.properties) } : e))
  if (p.properties) p.properties = filters(p.properties)
  if (p.breakdown_type === 'cohort') p.breakdown = Array.isArray(p.breakdown) ? p.breakdown.map(cohort) : cohort(p.breakdown)
  const expected = example.expected.map((row) => {
    const r: Record<string, unknown> = { ...row }
    if (typeof r.breakdown_value === 'number') r.breakdown_value = cohort(r.breakdown_value)
    if (typeof r.label === 'string' && /^\d+$/.test(r.label) && cohortIds.has(Number(r.label))) r.label = String(cohortIds.get(Number(r.label)))
    return r
  })
  return { params: p, expected }
}

describePropertySkip()

for (const target of analysisTargets) {
  describe(target.name, () => {
    let engine: TrendEngine
    let now = new Date()
    beforeAll(async () => {
      engine = await openTrendEngine(target, () => now)
    })
    afterAll(async () => engine?.close())

    for (const example of TREND_EXAMPLES) {
      const reason = skipReason(example)
      test.skipIf(reason !== null)(`${example.name}${reason ? ` (skipped: ${reason})` : ''}`, async () => {
        now = new Date(example.data.now)
        const projectId = await loadTrendData(engine, toRefDataset(example.data))
        const { params, expected } = await materialise(engine, projectId, example)
        const response = await engine.sightline.query.trend(projectId, params)
        const problems = trendMismatches(response.result, expected)
        expect(problems, `${example.why}\n${JSON.stringify(response.result).slice(0, 3000)}`).toEqual([])
      })
    }
  })
}
