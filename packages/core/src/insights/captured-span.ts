import { sql, type Kysely, type SqlBool } from 'kysely'
import { personPropertyUpdates } from '../ingest/person-property-updates.js'
import type { PreparedEvent } from '../ingest/prepare-events.js'
import type { SightlineDatabase } from '../storage.js'
import { formatTimestamp } from '../time/timestamp.js'

const MERGES = new Set(['$identify', '$create_alias', '$merge_dangerously'])

/** What a captured batch can change in computed insights. */
export interface CapturedSpan {
  /** The earliest and latest event timestamps, epoch microseconds. */
  readonly fromMicros: number
  readonly toMicros: number
  /** Some event may merge two persons. */
  readonly merges: boolean
  /** Some event may change a person's or a group's properties (`$set`, `$set_once`, `$unset`, the properties PostHog copies onto persons, `$groupidentify`). */
  readonly personChanges: boolean
}

/** The event sets, sets once or unsets person properties, its own or those PostHog copies onto the person ($current_url...). */
function updatesPerson(e: PreparedEvent): boolean {
  const u = personPropertyUpdates(e.event, e.properties)
  return u.unset.length > 0 || Object.keys(u.set).length > 0 || Object.keys(u.setOnce).length > 0
}

/**
 * The span of a batch's events, or null for an empty batch. Read before the
 * events are processed (processing strips `$set` from some of them).
 * Conservative: any event carrying person updates counts, whether or not
 * the stored person changes; once one is found the rest are not read.
 */
export function capturedSpan(events: ReadonlyArray<PreparedEvent>): CapturedSpan | null {
  if (events.length === 0) return null
  let fromMicros = Infinity
  let toMicros = -Infinity
  let merges = false
  let personChanges = false
  for (const e of events) {
    if (e.micros < fromMicros) fromMicros = e.micros
    if (e.micros > toMicros) toMicros = e.micros
    if (personChanges) continue
    const persons = e.properties.$process_person_profile !== false
    if (persons && MERGES.has(e.event)) merges = true
    personChanges = e.event === '$groupidentify' || (persons && updatesPerson(e))
  }
  return { fromMicros, toMicros, merges, personChanges }
}

/**
 * Deletes the project's cached insight results (and pending claims) that
 * the captured span makes stale, in one statement: those whose range
 * overlaps the span's timestamps, and those depending on persons merging or
 * on person properties when the batch may do either. Run it in the capture's
 * transaction, last, so the results disappear exactly when the events appear.
 */
export async function invalidateInsightCache(db: Kysely<SightlineDatabase>, projectId: number, span: CapturedSpan): Promise<void> {
  const from = formatTimestamp(span.fromMicros)
  const to = formatTimestamp(span.toMicros)
  const overlap = sql<SqlBool>`((range_from is null or range_from <= cast(${to} as timestamptz)) and (range_to is null or range_to >= cast(${from} as timestamptz)))`
  const stale = [overlap]
  if (span.merges) stale.push(sql<SqlBool>`on_merge`)
  if (span.personChanges) stale.push(sql<SqlBool>`on_person_change`)
  await db
    .deleteFrom('insight_cache')
    .where('project_id', '=', projectId)
    .where(sql<SqlBool>`(${sql.join(stale, sql` or `)})`)
    .execute()
}
