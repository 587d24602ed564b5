import type { EngineContext } from '../context.js'
import { projectWrites, withWriteRetries } from '../db/write-retries.js'
import { CaptureBatch, type CaptureInput, type CaptureResult, type IngestionWarning } from '../model/capture-input.js'
import { isPlainCaptureInput } from '../model/capture-input-fast-check.js'
import type { Properties } from '../model/json.js'
import type { EventRow } from '../storage.js'
import { dateToMicros, formatTimestamp } from '../time/timestamp.js'
import { chunk } from '../util/chunk.js'
import { decodeOrThrow } from '../util/decode.js'
import { takeElementsChain } from './elements-chain.js'
import { DefinitionsCollector } from './definitions-collector.js'
import { readSlotFills } from './read-slot-fills.js'
import { GroupStore } from './group-store.js'
import { isDistinctIdIllegal } from './illegal-distinct-id.js'
import { initialPersonProperties, NO_UPDATES, personPropertyUpdates, type PersonPropertyUpdates } from './person-property-updates.js'
import { PersonStore, type PersonState } from './person-store.js'
import { tellPersonRows, tellsPersonRows } from './tell-person-rows.js'
import { prepareEvents, type PreparedEvent } from './prepare-events.js'
import { requireProject } from '../services/require-project.js'
import { capturedSpan, invalidateInsightCache } from '../insights/captured-span.js'

const IDENTITY_EVENTS = new Set(['$identify', '$create_alias', '$merge_dangerously', '$groupidentify'])
const isObject = (v: unknown): v is Properties => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Stores a batch of events with PostHog's ingestion semantics. The batch is
 * validated whole first; then persons, groups, definitions and events are
 * written in one transaction, so a failure stores nothing.
 */
export async function capture(ctx: EngineContext, projectId: number, input: unknown): Promise<CaptureResult> {
  ctx.assertOpen()
  // Capture replaces unstorable text with U+FFFD as PostHog does (prepareEvents), instead of refusing it.
  const batch = Array.isArray(input) && input.every(isPlainCaptureInput) ? (input as CaptureInput[]) : decodeOrThrow(CaptureBatch, input, 'invalid capture batch', [], { allowUnstorableText: true })
  const now = dateToMicros(ctx.clock())
  const prepared = prepareEvents(batch, now)
  await requireProject(ctx, projectId)
  if (prepared.length === 0) return { stored: 0, duplicates: 0, warnings: [] }

  const nowMs = Math.floor(now / 1000)
  const { result, definitionsWritten, overrides, personRows, groupRows } = await withWriteRetries(ctx, projectWrites(projectId), 'capture', () =>
      ctx.db.transaction().execute(async (trx) => {
        const warnings: IngestionWarning[] = []
        const fresh = await dropDuplicates(ctx, trx, projectId, prepared)
        const span = capturedSpan(fresh)
        const persons = new PersonStore(trx, projectId, ctx.adapter.capabilities, ctx.adapter.sql, tellsPersonRows(ctx))
        const groups = new GroupStore(trx, projectId, ctx.adapter.capabilities)
        const definitions = new DefinitionsCollector(Math.floor(now / 1e6))
        await persons.load(fresh.flatMap((e) => identityIds(e)))
        await groups.preload(fresh.filter((e) => e.event === '$groupidentify').map((e) => String(e.properties.$group_key ?? '')))
        const insertedAt = formatTimestamp(now)
        const kept: Array<{ event: PreparedEvent; groupKeys: string[]; elementsChain: string }> = []
        for (const event of fresh) {
          if (event.timestampInFuture) warnings.push({ index: event.index, type: 'event_timestamp_in_future', detail: 'timestamp more than 23 hours ahead: replaced by now' })
          const elementsChain = takeElementsChain(event.properties)
          const groupKeys = await processEvent(event, persons, groups, definitions, warnings)
          if (groupKeys) kept.push({ event, groupKeys, elementsChain })
        }
        // Each event gets its distinct id's person as the whole batch leaves it, which queries would
        // otherwise look up: merges later in the batch are already applied, so they need no override.
        const rows: EventRow[] = []
        for (const { event, groupKeys, elementsChain } of kept) {
          const personId = persons.get(event.distinctId)?.uuid ?? null
          if (personId === null) persons.markPersonless(event.distinctId)
          rows.push({
            uuid: event.uuid,
            project_id: projectId,
            event: event.event,
            distinct_id: event.distinctId,
            timestamp: formatTimestamp(event.micros),
            properties: JSON.stringify(event.properties),
            group_0: groupKeys[0]!,
            group_1: groupKeys[1]!,
            group_2: groupKeys[2]!,
            group_3: groupKeys[3]!,
            group_4: groupKeys[4]!,
            session_id: typeof event.properties.$session_id === 'string' ? event.properties.$session_id : null,
            inserted_at: insertedAt,
            elements_chain: elementsChain,
            person_id: personId,
          })
        }
        const overrides = await persons.flush()
        await groups.flush()
        const definitionsWritten = await definitions.flush(trx, projectId, insertedAt, ctx.definitionsCache, nowMs)
        const { propertySlots, rowLocks } = ctx.adapter.capabilities
        const slots = propertySlots ? await readSlotFills(trx, ctx.adapter.sql, projectId, rowLocks) : []
        const stored = await ctx.driver.insertEvents(trx, rows, slots)
        // Last, so cached insight results disappear in the same commit as the events that change them.
        if (span) await invalidateInsightCache(trx, projectId, span)
        const skipped = prepared.length - fresh.length + (rows.length - stored)
        return { result: { stored, duplicates: skipped, warnings }, definitionsWritten, overrides, personRows: persons.changes(), groupRows: groups.changes() }
      }),
  )
  // Only now, after the commit: a rolled-back write must not be remembered as written.
  ctx.definitionsCache.remember(definitionsWritten, nowMs)
  ctx.overrideSquasher.added(projectId, overrides)
  // Counted first, so that a failed tell loses no override from the count. A squash this starts may be told
  // before this write is: versions order the rows, and its deletion outranks the override it deletes.
  await tellPersonRows(ctx, projectId, personRows, groupRows)
  return result
}

/** Distinct ids an event may touch: its own, and the other side of an identify or alias. */
function identityIds(e: PreparedEvent): string[] {
  const ids = [e.distinctId]
  const other = e.event === '$identify' ? e.properties.$anon_distinct_id : e.properties.alias
  if (other !== undefined && other !== null) ids.push(String(other))
  return ids
}

/** Events whose uuid was already stored, or repeats within the batch, are skipped. */
async function dropDuplicates(ctx: EngineContext, db: EngineContext['db'], projectId: number, events: PreparedEvent[]): Promise<PreparedEvent[]> {
  const seen = new Set<string>()
  const clientUuids = [...new Set(events.filter((e) => e.clientUuid).map((e) => e.uuid))]
  if (clientUuids.length > 0 && ctx.driver.storedEventUuids) {
    for (const uuid of await ctx.driver.storedEventUuids(db, projectId, clientUuids)) seen.add(uuid)
  } else {
    for (const part of chunk(clientUuids, 1000)) {
      const rows = await db.selectFrom('events').select('uuid').where('project_id', '=', projectId).where('uuid', 'in', part).execute()
      for (const r of rows) seen.add(r.uuid)
    }
  }
  return events.filter((e) => {
    if (seen.has(e.uuid)) return false
    seen.add(e.uuid)
    return true
  })
}

/**
 * Applies one event to persons, groups and definitions. Returns the event's
 * group keys by index, or null when PostHog drops the event.
 */
async function processEvent(
  event: PreparedEvent,
  persons: PersonStore,
  groups: GroupStore,
  definitions: DefinitionsCollector,
  warnings: IngestionWarning[],
): Promise<string[] | null> {
  const props = event.properties
  const processPerson = props.$process_person_profile !== false
  if (!processPerson && IDENTITY_EVENTS.has(event.event)) {
    warnings.push({ index: event.index, type: 'invalid_event_when_process_person_profile_is_false', detail: `${event.event} needs person processing: event dropped` })
    return null
  }
  const groupKeys = ['', '', '', '', '']
  definitions.event(event.event)

  if (event.event === '$groupidentify') {
    // PostHog strips person updates from $groupidentify and records only $group_set keys.
    delete props.$set
    delete props.$set_once
    delete props.$unset
    const type = props.$group_type
    const key = props.$group_key
    if (typeof type === 'string' && type !== '' && (typeof key === 'string' || typeof key === 'number') && String(key) !== '') {
      const index = await groups.typeIndex(type)
      if (index !== null) {
        const set = isObject(props.$group_set) ? props.$group_set : {}
        await groups.set(index, String(key), set, event.micros)
        definitions.groupProperties(index, set)
      }
    }
  } else {
    definitions.eventProperties(props)
  }

  if (!processPerson) {
    delete props.$set
    delete props.$set_once
    delete props.$unset
    return groupKeys
  }

  const updates = event.event === '$groupidentify' ? NO_UPDATES : personPropertyUpdates(event.event, props)
  definitions.personProperties(updates.set)
  definitions.personProperties(updates.setOnce)
  const other =
    event.event === '$identify' && '$anon_distinct_id' in props
      ? props.$anon_distinct_id
      : (event.event === '$create_alias' || event.event === '$merge_dangerously') && props.alias
        ? props.alias
        : undefined
  if (other !== undefined) {
    identify(event, String(other), updates, persons, warnings)
  } else {
    const person = persons.get(event.distinctId)
    if (person) persons.update(person, updates, event.event === '$set')
    else createPerson(event, event.distinctId, updates, persons, false)
  }

  if (isObject(props.$groups)) {
    for (const [type, key] of Object.entries(props.$groups)) {
      if (key === null || key === undefined || key === '') continue
      const index = await groups.typeIndex(type)
      if (index !== null) groupKeys[index] = String(key)
    }
  }
  return groupKeys
}

function createPerson(event: PreparedEvent, distinctId: string, updates: PersonPropertyUpdates, persons: PersonStore, isIdentified: boolean): PersonState {
  return persons.create(distinctId, event.micros, { ...initialPersonProperties(updates), $creator_event_uuid: event.uuid }, isIdentified)
}

/** `$identify`, `$create_alias`, `$merge_dangerously`: PostHog's person-merge-service. */
function identify(event: PreparedEvent, other: string, updates: PersonPropertyUpdates, persons: PersonStore, warnings: IngestionWarning[]): void {
  const into = event.distinctId
  const illegal = [other, into].find(isDistinctIdIllegal)
  if (other === into || illegal !== undefined) {
    if (illegal !== undefined) {
      warnings.push({ index: event.index, type: 'cannot_merge_with_illegal_distinct_id', detail: `refused to merge through the distinct id ${JSON.stringify(illegal)}` })
    }
    const person = persons.get(into)
    if (person) persons.update(person, updates, true)
    else createPerson(event, into, updates, persons, false)
    return
  }
  const target = persons.get(into)
  const source = persons.get(other)
  if (!target && !source) {
    const person = createPerson(event, into, updates, persons, true)
    persons.addDistinctId(person, other)
    return
  }
  if (target && source && target !== source) {
    if (source.isIdentified && event.event !== '$merge_dangerously') {
      warnings.push({ index: event.index, type: 'cannot_merge_already_identified', detail: `${JSON.stringify(other)} belongs to an identified person: not merged into ${JSON.stringify(into)}` })
    } else {
      persons.merge(target, source)
    }
  }
  const person = (target ?? source)!
  if (!target) persons.addDistinctId(person, into)
  if (!source) persons.addDistinctId(person, other)
  person.isIdentified = true
  persons.update(person, updates, true)
}
