/**
 * The paths reference, first half: each person's session paths as plain
 * arrays, written from shared/reference/trends-retention-paths.md §14 and
 * PostHog's paths_query_runner.py (its array code: groupArray, arraySplit,
 * the `path_basic_0` duplicate mapping, indexOf, arraySlice, arrayResize),
 * never from Sightline's SQL. The date range comes from ref-dates.ts, as in
 * the trend reference.
 */
import { resolveDateRange } from '../shared/ref-dates.js'
import { parseTimestamp } from '../shared/ref-time.js'
import { referenceMatches, textOf, type RefFilters } from '../../filters/reference-filter.js'
import { stableUuid } from '../shared/load-dataset.js'
import type { RefDataset, RefEvent } from '../shared/ref-dataset.js'

/** The request keys the reference reads, as a client sends them. */
export interface RefPathsParams {
  include_event_types?: string[]
  paths_hogql_expression?: string
  start_point?: string
  end_point?: string
  step_limit?: number
  exclude_events?: string[]
  path_groupings?: string[]
  path_replacements?: boolean
  local_path_cleaning_filters?: Array<{ alias: string; regex: string }>
  min_edge_weight?: number
  max_edge_weight?: number
  edge_limit?: number
  date_from?: string
  date_to?: string
  properties?: unknown
  filter_test_accounts?: boolean
  path_start_key?: string
  path_end_key?: string
  path_dropoff_key?: string
}

export interface RefNode {
  readonly name: string
  readonly micros: number
}

/** One kept session path of one person, after the points and the step limit. */
export interface RefSessionPath {
  /** The person's id (RefPerson.id), or the distinct id of a personless event. */
  readonly person: string
  readonly nodes: ReadonlyArray<RefNode>
}

const SESSION_GAP = 1800 * 1_000_000

/**
 * The HogQL node names the tests use: `properties.kind`,
 * `concat(event, '/', properties.kind)` and `event || properties.a` (concat
 * reads null as ''). Others are out of the reference's scope.
 */
function hogqlName(expression: string, e: RefEvent): string | null {
  const kind = textOf(e.properties.kind as never)
  if (expression === 'properties.kind') return kind
  if (expression === "concat(event, '/', properties.kind)") return `${e.event}/${kind ?? ''}`
  if (expression === 'event || properties.a') return `${e.event}${textOf(e.properties.a as never) ?? ''}`
  throw new Error(`reference: HogQL path expression ${expression} is out of scope`)
}

/** `_should_query_event`: listed types, or with none listed, any event not excluded. */
function namedSpecially(p: RefPathsParams, type: string): boolean {
  const types = p.include_event_types ?? []
  return types.length === 0 ? !(p.exclude_events ?? []).includes(type) : types.includes(type)
}

/** The node name before cleaning: `construct_event_hogql` then `ifNull(..., '')`. */
function rawName(p: RefPathsParams, e: RefEvent): string {
  let name: string | null = e.event
  if (e.event === '$screen' && namedSpecially(p, '$screen')) name = textOf(e.properties.$screen_name as never)
  else if (e.event === '$pageview' && namedSpecially(p, '$pageview')) {
    // replaceRegexpAll(x, '(.)/$', '\1'): `.` is not a line break; `$` is the very end.
    name = (textOf(e.properties.$current_url as never) ?? '').replace(/(.)\/$/, '$1')
  } else if (p.paths_hogql_expression && namedSpecially(p, 'hogql')) name = hogqlName(p.paths_hogql_expression, e)
  return name ?? ''
}

/** A `*` grouping found anywhere in the name (an unanchored search); other characters literal. */
function groupingMatches(grouping: string, name: string): boolean {
  const parts = grouping.split('*')
  const re = new RegExp(parts.map((s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('[\\s\\S]*'), 'u')
  return re.test(name)
}

function finalName(p: RefPathsParams, e: RefEvent, rules: ReadonlyArray<{ alias: string; regex: string }>): string {
  let name = rawName(p, e)
  for (const rule of rules) name = name.replace(new RegExp(rule.regex, 'gu'), () => rule.alias)
  const grouping = (p.path_groupings ?? []).find((g) => groupingMatches(g, name))
  return grouping ?? name
}

function eventTypeMatches(p: RefPathsParams, e: RefEvent): boolean {
  const types = p.include_event_types ?? []
  if (types.length === 0) return true
  const checks = [
    types.includes('$pageview') && e.event === '$pageview',
    types.includes('$screen') && e.event === '$screen',
    types.includes('custom_event') && !e.event.startsWith('$'),
  ]
  // Only `hogql` listed: no condition at all.
  if (!types.some((t) => t !== 'hogql')) return true
  return checks.some(Boolean)
}

function filterGroup(raw: unknown): RefFilters {
  if (Array.isArray(raw)) return { type: 'AND', values: raw }
  if (typeof raw === 'object' && raw !== null && Array.isArray((raw as { values?: unknown }).values)) return raw as RefFilters
  return []
}

/** One trailing `/` off a point, unless it is the whole text (reference §14.2). */
const pointOf = (s: string | undefined): string | null => (s === undefined || s === '' ? null : s.length > 1 && s.endsWith('/') ? s.slice(0, -1) : s)

/** The kept nodes of one compacted session, or null when the points drop it. */
function cut(p: RefPathsParams, path: RefNode[]): RefNode[] | null {
  const limit = p.step_limit || 5
  const start = pointOf(p.start_point)
  const end = pointOf(p.end_point)
  const indexOf = (nodes: RefNode[], name: string) => nodes.findIndex((n) => n.name === name)
  if (start !== null && end !== null) {
    const s = indexOf(path, start)
    if (s < 0) return null
    const fromStart = path.slice(s)
    const e = indexOf(fromStart, end)
    if (e < 0) return null
    const span = fromStart.slice(0, e + 1)
    if (span.length <= limit) return span
    const h = Math.floor(limit / 2)
    // arrayConcat(arraySlice(x, 1, h), ['...'], arraySlice(x, -h, h)); timings take x[1 + h] for '...'.
    return [...span.slice(0, h), { name: '...', micros: span[h]!.micros }, ...(h > 0 ? span.slice(span.length - h) : [])]
  }
  if (end !== null) {
    const e = indexOf(path, end)
    if (e < 0) return null
    const upTo = path.slice(0, e + 1)
    return upTo.slice(Math.max(0, upTo.length - limit))
  }
  if (start !== null) {
    const s = indexOf(path, start)
    if (s < 0) return null
    return path.slice(s).slice(0, limit)
  }
  return path.slice(0, limit)
}

/** What funnel paths change (funnel-path-reference.ts): which persons' events count, and the gap that starts a session. */
export interface RefPathOptions {
  /** Whether the event of this person (RefPathSession.person) at this time counts; all by default. */
  readonly keep?: (person: string, micros: number) => boolean
  /** Default 30 minutes. */
  readonly sessionGapMicros?: number
}

/** Every kept session path, persons in first-seen order, sessions in time order. */
export async function referencePathSessions(p: RefPathsParams, data: RefDataset, options: RefPathOptions = {}): Promise<RefSessionPath[]> {
  const gap = options.sessionGapMicros ?? SESSION_GAP
  const rows = data.events.map((e) => ({ e, micros: parseTimestamp(e.timestamp)!, uuid: stableUuid(e.uuid) }))
  let earliest: number | null = null
  for (const r of rows) if (r.micros > Date.UTC(2015, 0, 1) * 1000 && (earliest === null || r.micros < earliest)) earliest = r.micros
  const range = await resolveDateRange(
    { dateFrom: p.date_from ?? null, dateTo: p.date_to ?? null, interval: 'day' },
    { timezone: data.project.timezone, weekStartDay: data.project.weekStartDay, now: data.now, earliestEvent: async () => (earliest === null ? null : new Date(Math.floor(earliest / 1000))) },
  )
  const rules = [...(p.path_replacements ? (data.project.pathCleaningFilters ?? []) : []), ...(p.local_path_cleaning_filters ?? [])]
  const filters: RefFilters = {
    type: 'AND',
    values: [filterGroup(p.properties), filterGroup(p.filter_test_accounts ? data.project.testAccountFilters : [])] as never,
  }
  const byPerson = new Map<string, Array<{ name: string; micros: number; uuid: string }>>()
  for (const { e, micros, uuid } of rows) {
    if (micros < range.fromMicros || micros > range.toMicros) continue
    const person = data.persons[e.distinct_id]
    if (!referenceMatches(filters, { event: e.properties as never, person: (person?.properties ?? {}) as never })) continue
    if (!eventTypeMatches(p, e)) continue
    const name = finalName(p, e, rules)
    if ((p.include_event_types ?? []).length > 0 && (p.exclude_events ?? []).includes(name)) continue
    const id = person?.id ?? e.distinct_id
    if (options.keep && !options.keep(id, micros)) continue
    byPerson.set(id, [...(byPerson.get(id) ?? []), { name, micros, uuid }])
  }
  const out: RefSessionPath[] = []
  for (const [person, events] of byPerson) {
    events.sort((a, b) => a.micros - b.micros || (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0))
    const sessions: RefNode[][] = []
    events.forEach((ev, i) => {
      if (i === 0 || ev.micros - events[i - 1]!.micros >= gap) sessions.push([])
      sessions[sessions.length - 1]!.push({ name: ev.name, micros: ev.micros })
    })
    for (const session of sessions) {
      // mapping: keep x[i] when it differs from x[i+1], the array padded with ''.
      const compact = session.filter((n, i) => n.name !== (session[i + 1]?.name ?? ''))
      const nodes = cut(p, compact)
      if (nodes !== null && nodes.length > 0) out.push({ person, nodes })
    }
  }
  return out
}
