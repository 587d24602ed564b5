import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { ValidationError } from '../errors.js'
import { ListEventsInput, type StoredEvent } from '../model/event.js'
import { formatTimestamp, parseTimestamp } from '../time/timestamp.js'
import { decodeOrThrow } from '../util/decode.js'
import { sanitizeText } from '../util/sanitize-text.js'

export function eventsService(ctx: EngineContext) {
  return {
    /** Events of a project, newest first (ties by uuid, descending). */
    async list(projectId: number, input: ListEventsInput = {}): Promise<StoredEvent[]> {
      ctx.assertOpen()
      const o = decodeOrThrow(ListEventsInput, input, 'invalid event list options', [], { allowUnstorableText: true })
      const bound = (name: 'after' | 'before') => {
        const value = o[name]
        if (value === undefined) return undefined
        const micros = parseTimestamp(value)
        if (micros === null) throw new ValidationError([{ path: [name], message: `not an ISO 8601 date-time: ${JSON.stringify(value)}` }])
        return formatTimestamp(micros)
      }
      const after = bound('after')
      const before = bound('before')
      let query = ctx.db.selectFrom('events').selectAll().where('project_id', '=', projectId)
      // Stored text went through sanitizeText at capture: a filter does too, so that it matches what was stored.
      if (o.event !== undefined) query = query.where('event', '=', sanitizeText(o.event))
      if (o.distinctId !== undefined) query = query.where('distinct_id', '=', sanitizeText(o.distinctId))
      if (after !== undefined) query = query.where('timestamp', '>', after)
      if (before !== undefined) query = query.where('timestamp', '<', before)
      const rows = await runStorage('list events', () =>
        query.orderBy('timestamp', 'desc').orderBy('uuid', 'desc').limit(o.limit ?? 100).execute(),
      )
      return rows.map((r) => ({
        uuid: r.uuid,
        event: r.event,
        distinctId: r.distinct_id,
        timestamp: r.timestamp,
        properties: r.properties,
        groups: [r.group_0, r.group_1, r.group_2, r.group_3, r.group_4].map((g) => (g === '' ? null : g)),
        sessionId: r.session_id,
        elementsChain: r.elements_chain,
      }))
    },
  }
}

export type EventsService = ReturnType<typeof eventsService>
