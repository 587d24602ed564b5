/**
 * An independent reference evaluator of PostHog's funnel correlation
 * (`ee/clickhouse/queries/funnels/funnel_correlation.py`), in memory. Which
 * actors entered and converted comes from the funnel oracle
 * (funnel-oracle-*.ts); everything after that is computed here, never from
 * Sightline's SQL.
 *
 * Readings:
 * 1. An actor's time in the funnel is that of its reported path: the first
 *    path to reach its furthest step. The oracle gives the furthest step and
 *    the gaps of that path; its completion time is the first instant T at
 *    which the events up to T already reach that step, and its start is T
 *    minus the gaps. (Exact without funnel exclusions, which can replace the
 *    reported path later: requests here have none.)
 * 2. Events counted: in the date range, of the actor (person, or the event's
 *    group when aggregating by groups), strictly after the first step and
 *    strictly before the conversion or, unconverted, the first step plus the
 *    window; not named as a step (an action's event names); global filters
 *    do not apply. Aggregated by an expression (`funnel_aggregate_by_hogql`,
 *    here an event property), the actors are its values, and PostHog reads
 *    an actor's events and person by `person_id = actor_id`: a person_id is a
 *    uuid, which the values modelled here (short words) never spell, so no
 *    event and no person property counts for them; only the totals do.
 *    Persons join actors with an inner JOIN: a personless actor (its events
 *    sent without a person profile) has no property rows either.
 * 3. Texts: strings as they are, numbers and booleans in JSON spelling; a
 *    named property missing or null is ''; `$all` and event properties skip
 *    missing and null values. Event-property rows need more than 2 actors.
 * 4. Odds ratio (s+1)(F-f+1)/((S-s+1)(f+1)); rows under min(25, 2% of S+F)
 *    actors dropped; 10 success rows (odds desc) then 10 failure rows (asc);
 *    ties by name in code-point order; no successes or failures: no rows, skewed.
 */
import { resolveDateRange } from '../shared/ref-dates.js'
import { funnelRuns } from '../funnels/funnel-oracle-attribution.js'
import { actionMatchesFrom, type FunnelAction, type FunnelRefDataset } from '../funnels/funnel-oracle-dataset.js'
import { epochMicros, funnelEvents, type FunnelEvent } from '../funnels/funnel-oracle-events.js'
import { orderedOutcome, type Outcome } from '../funnels/funnel-oracle-ordered.js'
import { readFunnelParams, type FunnelSpec } from '../funnels/funnel-oracle-params.js'
import { unorderedOutcome } from '../funnels/funnel-oracle-unordered.js'
import type { RefEvent, RefPerson, RefProject } from '../shared/ref-dataset.js'

export interface CorrelationData {
  readonly events: ReadonlyArray<RefEvent>
  readonly persons: Readonly<Record<string, RefPerson>>
  readonly groups?: Readonly<Record<number, Readonly<Record<string, Readonly<Record<string, unknown>>>>>>
  readonly project: RefProject
  readonly now: string
  readonly actions?: Readonly<Record<number, FunnelAction>>
}

export interface ExpectedRow {
  readonly name: string
  readonly success: number
  readonly failure: number
  readonly odds: number
  readonly type: 'success' | 'failure'
}

interface Actor {
  readonly key: string
  readonly converted: boolean
  readonly first: number
  readonly final: number | null
}

const list = (v: unknown): string[] => (v === undefined || v === null ? [] : ((typeof v === 'string' ? JSON.parse(v) : v) as string[]))
const text = (v: unknown): string | null => (v === undefined || v === null ? null : typeof v === 'string' ? v : JSON.stringify(v))

function outcome(spec: FunnelSpec, events: ReadonlyArray<FunnelEvent>, data: FunnelRefDataset): Outcome | null {
  const run = funnelRuns(spec, events, data)[0]
  if (!run) return null
  const n = spec.steps.length
  const o = spec.order === 'unordered' ? unorderedOutcome(run, n, spec.windowMicros) : orderedOutcome(run, n, spec.windowMicros, spec.order === 'strict')
  return o === 'excluded' ? null : o
}

/** Reading 1: the reported path's first and last step times. */
function actorOf(spec: FunnelSpec, key: string, events: ReadonlyArray<FunnelEvent>, data: FunnelRefDataset): Actor | null {
  const full = outcome(spec, events, data)
  if (full === null || full.depth === 0) return null
  for (const t of [...new Set(events.map((e) => e.micros))].sort((a, b) => a - b)) {
    const o = outcome(spec, events.filter((e) => e.micros <= t), data)
    if (o === null || o.depth < full.depth) continue
    const first = t - o.gaps.reduce((a, b) => a + b, 0)
    const converted = full.depth === spec.steps.length
    return { key, converted, first, final: converted ? t : null }
  }
  throw new Error('reference: the furthest step is never reached by a prefix')
}

const targetOf = (e: RefEvent, data: CorrelationData, group: number | null, byValue: boolean): string | null => {
  if (group !== null) return e.groups?.[group as 0] || null
  // Reading 2: the event's person_id (a uuid) is no actor's value.
  if (byValue) return null
  const person = data.persons[e.distinct_id]
  return person ? `person:${person.id}` : `distinct:${e.distinct_id}`
}

function actorProperties(key: string, data: CorrelationData, group: number | null): Readonly<Record<string, unknown>> {
  if (group !== null) return data.groups?.[group]?.[key] ?? {}
  if (!key.startsWith('person:')) return {}
  return Object.values(data.persons).find((p) => `person:${p.id}` === key)?.properties ?? {}
}

/** The correlation rows and `skewed` PostHog answers for `params` over `data`. */
export async function referenceCorrelation(params: Record<string, unknown>, data: CorrelationData): Promise<{ rows: ExpectedRow[]; skewed: boolean }> {
  const dataset: FunnelRefDataset = { ...data, now: new Date(data.now), ...(data.actions ? { actionMatches: actionMatchesFrom(data.actions) } : {}) }
  const spec = { ...readFunnelParams(params, dataset), breakdown: null, viz: 'steps' as const }
  const range = await resolveDateRange(
    { dateFrom: spec.dateFrom, dateTo: spec.dateTo, explicitDate: spec.explicitDate, interval: spec.interval },
    { timezone: data.project.timezone, weekStartDay: data.project.weekStartDay, now: dataset.now, earliestEvent: async () => null },
  )
  const actors = new Map<string, Actor>()
  for (const [key, events] of funnelEvents(spec, dataset, range, spec.steps.length)) {
    const actor = actorOf(spec, key, events, dataset)
    if (actor) actors.set(key, actor)
  }
  const stepNames = new Set<string>()
  for (const s of spec.steps) {
    if (s.kind === 'events' && s.id !== null) stepNames.add(String(s.id))
    if (s.kind === 'actions') for (const name of data.actions?.[Number(s.id)]?.eventNames ?? []) if (name) stepNames.add(name)
  }
  const type = (params.funnel_correlation_type ?? 'events') as string
  const group = spec.aggregationGroup
  // name -> actors having it
  const having = new Map<string, Set<string>>()
  const add = (name: string, actor: string) => having.set(name, (having.get(name) ?? new Set()).add(actor))
  if (type === 'properties') {
    const names = list(params.funnel_correlation_names)
    const excluded = new Set(list(params.funnel_correlation_exclude_names))
    for (const actor of actors.values()) {
      // Reading 2: no person's id is an actor's value, and the persons join is inner: no pairs; nor for a personless actor.
      if (group === null && (spec.aggregateBy !== null || !actor.key.startsWith('person:'))) continue
      const props = actorProperties(actor.key, data, group)
      const pairs: Array<[string, string]> = names.includes('$all')
        ? Object.entries(props).flatMap(([k, v]) => (text(v) === null ? [] : [[k, text(v)!] as [string, string]]))
        : [...new Set(names)].map((k) => [k, text(props[k]) ?? ''])
      for (const [k, v] of pairs) if (!excluded.has(k)) add(`${k}::${v}`, actor.key)
    }
  } else {
    const eventNames = new Set(list(params.funnel_correlation_event_names))
    const excludedEvents = new Set(list(params.funnel_correlation_exclude_event_names))
    const excludedProps = new Set(list(params.funnel_correlation_event_exclude_property_names))
    for (const e of data.events) {
      const micros = epochMicros(e.timestamp)
      if (micros < range.fromMicros || micros > range.toMicros || stepNames.has(e.event)) continue
      const key = targetOf(e, data, group, group === null && spec.aggregateBy !== null)
      const actor = key === null ? undefined : actors.get(key)
      if (!actor || micros <= actor.first || micros >= (actor.final ?? actor.first + spec.windowMicros)) continue
      if (type === 'events') {
        if (!excludedEvents.has(e.event)) add(e.event, actor.key)
      } else if (eventNames.has(e.event)) {
        for (const [k, v] of Object.entries(e.properties)) if (text(v) !== null && !excludedProps.has(k)) add(`${e.event}::${k}::${text(v)}`, actor.key)
      }
    }
  }
  const S = [...actors.values()].filter((a) => a.converted).length
  const F = actors.size - S
  if (S === 0 || F === 0) return { rows: [], skewed: true }
  const rows: ExpectedRow[] = []
  for (const [name, set] of having) {
    const s = [...set].filter((k) => actors.get(k)!.converted).length
    const f = set.size - s
    if (type === 'event_with_properties' && s + f <= 2) continue
    if (s + f < Math.min(25, 0.02 * (S + F))) continue
    const odds = ((s + 1) * (F - f + 1)) / ((S - s + 1) * (f + 1))
    rows.push({ name, success: s, failure: f, odds, type: odds > 1 ? 'success' : 'failure' })
  }
  const cmp = (a: ExpectedRow, b: ExpectedRow) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  const success = rows.filter((r) => r.type === 'success').sort((a, b) => b.odds - a.odds || cmp(a, b))
  const failure = rows.filter((r) => r.type === 'failure').sort((a, b) => a.odds - b.odds || cmp(a, b))
  return { rows: [...success.slice(0, 10), ...failure.slice(0, 10)], skewed: S / F > 10 || F / S > 10 }
}
