/**
 * What the reference properties' generators reach: for a fixed-seed sample
 * of each property's own runs (dataset and requests, as the property draws
 * them), the reference evaluators' answers are read for non-empty results and
 * for the features each property names. No database: the references alone.
 * generator-shares.test.ts asserts the shares; `npx tsx test/properties/generator-shares.ts`
 * prints them.
 */
import fc from 'fast-check'
import { referenceCorrelation } from '../reference/correlation/correlation-reference.js'
import { toRefDataset, type FunnelExampleData } from '../reference/funnels/funnel-dataset.js'
import { funnelData, funnelShape, requestOf, vizParams } from '../reference/funnels/funnel-oracle-arbitraries.js'
import { toFunnelDataset } from '../reference/funnels/funnel-oracle-dataset.js'
import { referenceFunnel as oracleFunnel } from '../reference/funnels/funnel-oracle-reference.js'
import { referenceFunnel } from '../reference/funnels/funnel-reference.js'
import { referencePaths } from '../reference/paths/path-reference.js'
import type { RefDataset, RefEvent } from '../reference/shared/ref-dataset.js'
import { referenceRetention } from '../reference/retention/retention-reference.js'
import { dataset as trendDataset } from '../reference/trends/trend-arbitraries.js'
import { referenceTrend } from '../reference/trends/trend-reference.js'
import { datasetArb as correlationData, requestArb as correlationRequest } from '../correlation/support/arbitraries.js'
import { datasetOf, dstDatasetArb, dstRequestArb, requestArb as funnelRequest } from '../funnels/support/arbitraries.js'
import { pathsDataset, pathsParams } from '../paths/arbitraries.js'
import { retentionParams } from '../retention/params-arbitrary.js'
import { trendParams } from '../trends/support/trend-params-arbitrary.js'

/** Of the `total` runs (or requests) sampled, the share (0 to 1) that shows each feature. */
export interface Shares {
  readonly total: number
  readonly shares: Record<string, number>
}

const OTHER = '$$_posthog_breakdown_other_$$'
const NEW_YORK_CHANGE = Date.parse('2024-03-10T07:00:00Z')

function tally(total: number, seen: ReadonlyArray<ReadonlyArray<string>>): Shares {
  const counts: Record<string, number> = {}
  for (const features of seen) for (const f of new Set(features)) counts[f] = (counts[f] ?? 0) + 1
  return { total, shares: Object.fromEntries(Object.entries(counts).map(([f, n]) => [f, n / total])) }
}

/** Data features: two events of one distinct id at one instant; a person whose two distinct ids both send events. */
function dataFeatures(events: ReadonlyArray<RefEvent>, personOf: (distinctId: string) => string | undefined): string[] {
  const out: string[] = []
  const instants = new Set<string>()
  const idsOfPerson = new Map<string, Set<string>>()
  for (const e of events) {
    const key = `${e.distinct_id} ${Date.parse(e.timestamp)}`
    if (instants.has(key)) out.push('same-timestamp')
    instants.add(key)
    const person = personOf(e.distinct_id)
    if (person !== undefined) idsOfPerson.set(person, (idsOfPerson.get(person) ?? new Set()).add(e.distinct_id))
  }
  if ([...idsOfPerson.values()].some((ids) => ids.size > 1)) out.push('merge')
  return out
}

/** Events on both sides of New York's 2024-03-10 change, in New York. */
const dstFeature = (events: ReadonlyArray<RefEvent>, timezone: string): string[] =>
  timezone === 'America/New_York' && events.some((e) => Date.parse(e.timestamp) < NEW_YORK_CHANGE) && events.some((e) => Date.parse(e.timestamp) >= NEW_YORK_CHANGE)
    ? ['dst']
    : []

const personOfDataset = (d: RefDataset) => (id: string) => d.persons[id]?.id

const sample = <T>(arb: fc.Arbitrary<T>, runs: number, seed: number) => fc.sample(arb, { numRuns: runs, seed })

interface Row {
  data?: number[]
  aggregated_value?: number
  count?: number
  breakdown_value?: unknown
}

/** Trend reference property: one request per dataset. */
export async function trendShares(runs = 100, seed = 1): Promise<Shares> {
  const seen: string[][] = []
  for (const [data, params] of sample(fc.tuple(trendDataset, trendParams), runs, seed)) {
    const rows = (await referenceTrend(params, data).catch(() => null)) as Row[] | null
    const f = [...dataFeatures(data.events, personOfDataset(data)), ...dstFeature(data.events, data.project.timezone)]
    if (rows === null) f.push('error')
    else {
      if (rows.some((r) => (r.data ?? []).some((v) => v !== 0) || (r.aggregated_value ?? 0) !== 0)) f.push('non-empty')
      if (rows.some((r) => ([] as unknown[]).concat(r.breakdown_value).includes(OTHER))) f.push('other-row')
    }
    seen.push(f)
  }
  return tally(runs, seen)
}

/** Retention reference property: one request per dataset (the trend datasets). */
export async function retentionShares(runs = 100, seed = 1): Promise<Shares> {
  const seen: string[][] = []
  for (const [data, params] of sample(fc.tuple(trendDataset, retentionParams), runs, seed)) {
    const rows = await referenceRetention(params, data).catch(() => null)
    const f = [...dataFeatures(data.events, personOfDataset(data)), ...dstFeature(data.events, data.project.timezone)]
    if (rows === null) f.push('error')
    else {
      if (rows.some((r) => r.values.some((v) => v.count > 0))) f.push('non-empty')
      if (rows.some((r) => r.values.slice(1).some((v) => v.count > 0))) f.push('return-later')
    }
    seen.push(f)
  }
  return tally(runs, seen)
}

interface Step {
  count: number
}
/** Features of one funnel answer (steps, trends or time to convert). */
function funnelAnswerFeatures(result: unknown, params: Record<string, unknown>): string[] {
  if (params.funnel_viz_type === 'trends') {
    const rows = result as Array<{ data: number[] }>
    return rows.some((r) => r.data.some((v) => v > 0)) ? ['non-empty', 'last-step'] : []
  }
  if (params.funnel_viz_type === 'time_to_convert') {
    return (result as { average_conversion_time: number | null }).average_conversion_time !== null ? ['non-empty', 'last-step'] : []
  }
  const groups = (Array.isArray((result as unknown[])[0]) ? result : [result]) as Step[][]
  const out: string[] = []
  if (groups.some((g) => (g[0]?.count ?? 0) > 0)) out.push('non-empty')
  if (groups.some((g) => g.length > 0 && g[g.length - 1]!.count > 0)) out.push('last-step')
  return out
}

/** Funnel reference property: datasets of eight requests; shares per request. */
export async function funnelShares(runs = 24, seed = 1, data = datasetOf(3), request: fc.Arbitrary<Record<string, unknown>> = funnelRequest): Promise<Shares> {
  const seen: string[][] = []
  let total = 0
  for (const [d, requests] of sample(fc.tuple(data, fc.array(request, { minLength: 8, maxLength: 8 })), runs, seed)) {
    const features = [...dataFeatures(d.events, (id) => d.persons[id]?.id), ...dstFeature(d.events, d.project.timezone), ...dstSteps(d.events, d.project.timezone)]
    for (const params of requests) {
      total++
      const result = await referenceFunnel(params, toRefDataset(d)).catch(() => null)
      seen.push([...features, ...(result === null ? ['error'] : funnelAnswerFeatures(result, params))])
    }
  }
  return tally(total, seen)
}

/** The funnel property across New York's change (day and week windows). */
export const funnelDstShares = (runs = 12, seed = 1) => funnelShares(runs, seed, dstDatasetArb, dstRequestArb)

/** A person's two events 23 to 25 hours apart with New York's change between them: a day window's edge across the change. */
function dstSteps(events: ReadonlyArray<RefEvent>, timezone: string): string[] {
  if (timezone !== 'America/New_York') return []
  const byId = new Map<string, number[]>()
  for (const e of events) byId.set(e.distinct_id, [...(byId.get(e.distinct_id) ?? []), Date.parse(e.timestamp)])
  for (const times of byId.values())
    for (const a of times)
      for (const b of times) if (a < NEW_YORK_CHANGE && b >= NEW_YORK_CHANGE && b - a >= 23 * 3_600_000 && b - a <= 25 * 3_600_000) return ['day-across-dst']
  return []
}

/** The funnel oracle's invariants and cross-checks: a dataset, a shape and a view. */
export async function oracleShares(runs = 200, seed = 1): Promise<Shares> {
  const seen: string[][] = []
  for (const [data, shape, viz] of sample(fc.tuple(funnelData, funnelShape, vizParams), runs, seed)) {
    const params = requestOf(shape, viz)
    const result = await oracleFunnel(params, toFunnelDataset(data)).catch(() => null)
    seen.push([
      ...dataFeatures(data.events, (id) => data.persons[id]?.id),
      ...dstFeature(data.events, data.project.timezone),
      ...(result === null ? ['error'] : funnelAnswerFeatures(result, params)),
    ])
  }
  return tally(runs, seen)
}

/**
 * Paths reference property: datasets of one to three requests; shares per
 * request, and `run non-empty` per dataset (one of its requests non-empty).
 */
export async function pathShares(runs = 40, seed = 1): Promise<Shares> {
  const seen: string[][] = []
  let total = 0
  let nonEmptyRuns = 0
  for (const [data, requests] of sample(fc.tuple(pathsDataset, fc.array(pathsParams, { minLength: 1, maxLength: 3 })), runs, seed)) {
    const features = [...dataFeatures(data.events, personOfDataset(data)), ...dstFeature(data.events, data.project.timezone)]
    let any = false
    for (const params of requests) {
      total++
      const edges = await referencePaths(params, data).catch(() => null)
      if (edges !== null && edges.length > 0) any = true
      seen.push([...features, ...(edges === null ? ['error'] : edges.length > 0 ? ['non-empty'] : []), ...(edges?.some((e) => /^[3-9]_/.test(e.target)) ? ['third-step'] : [])])
    }
    if (any) nonEmptyRuns++
  }
  const out = tally(total, seen)
  return { total, shares: { ...out.shares, 'run non-empty': nonEmptyRuns / runs } }
}

/** Correlation reference property: datasets of four requests; shares per request, and `run non-empty` per dataset. */
export async function correlationShares(runs = 24, seed = 1): Promise<Shares> {
  const seen: string[][] = []
  let total = 0
  let nonEmptyRuns = 0
  for (const [data, requests] of sample(fc.tuple(correlationData, fc.array(correlationRequest, { minLength: 4, maxLength: 4 })), runs, seed)) {
    const features = dataFeatures(data.events, (id) => data.persons[id]?.id)
    let any = false
    for (const params of requests) {
      // Aggregated by an event property's values, no event or person joins an actor (PostHog's correlation), so these
      // requests have no rows by design; they check the totals and skew, and are left out of the shares.
      if (params.funnel_aggregate_by_hogql !== undefined) continue
      total++
      const answer = await referenceCorrelation(params, data).catch(() => null)
      if (answer !== null && answer.rows.length > 0) any = true
      seen.push([...features, ...(answer === null ? ['error'] : answer.rows.length > 0 ? ['non-empty'] : [])])
    }
    if (any) nonEmptyRuns++
  }
  const out = tally(total, seen)
  return { total, shares: { ...out.shares, 'run non-empty': nonEmptyRuns / runs } }
}

export const format = (name: string, s: Shares): string =>
  `${name}: ${s.total} ${Object.entries(s.shares)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k} ${Math.round(100 * v)}%`)
    .join(', ')}`

if (process.argv[1]?.endsWith('generator-shares.ts')) {
  const which = process.argv[2]
  const all: Record<string, () => Promise<Shares>> = { trends: trendShares, retention: retentionShares, funnels: () => funnelShares(), 'funnels-dst': () => funnelDstShares(), oracle: oracleShares, paths: pathShares, correlation: correlationShares }
  for (const [name, f] of Object.entries(all)) if (which === undefined || which === name) console.log(format(name, await f()))
}
