import { Schema } from 'effect'
import { decodeOrThrow } from '../../../util/decode.js'
import type { SeriesEntity } from '../../series/series.js'
import type { FunnelExclusion, FunnelOrder } from '../funnel-request.js'
import { invalid } from './legacy-values.js'

const ExclusionInput = Schema.Struct({
  id: Schema.optional(Schema.NullOr(Schema.Union([Schema.String, Schema.Finite]))),
  type: Schema.optional(Schema.NullOr(Schema.String)),
  name: Schema.optional(Schema.NullOr(Schema.String)),
  funnel_from_step: Schema.optional(Schema.NullOr(Schema.Int)),
  funnel_to_step: Schema.optional(Schema.NullOr(Schema.Int)),
})
const Exclusions = Schema.NullOr(Schema.Array(ExclusionInput))
/** `exclusions`: events or actions (`id`, `type`) that remove an attempt when done between steps `funnel_from_step` (default 0) and `funnel_to_step` (default the last). */
export type FunnelExclusionsParam = typeof Exclusions.Encoded

/**
 * `exclusions`, validated as PostHog's ValidateFunnelExclusions (messages
 * kept, 400 at `exclusions`): a range [from, to] with from < to <= N-1, not
 * containing a step equal to or narrower than the exclusion (an exclusion has
 * no properties here: the legacy endpoint drops them, so the same event, the
 * same action, or "All events" is refused), and for unordered funnels the
 * whole funnel. Defaults: 0 and the last step.
 */
export function decodeExclusions(input: unknown, steps: ReadonlyArray<SeriesEntity>, order: FunnelOrder): FunnelExclusion[] {
  const items = decodeOrThrow(Exclusions, input ?? null, 'invalid exclusions', ['exclusions']) ?? []
  const n = steps.length
  return items.map((raw, index) => {
    const kind = raw.type === 'actions' ? 'actions' : 'events'
    let actionId: number | null = null
    let event: string | null = null
    if (kind === 'actions') {
      const id = typeof raw.id === 'number' ? raw.id : typeof raw.id === 'string' && /^\d+$/.test(raw.id) ? Number(raw.id) : Number.NaN
      if (!Number.isSafeInteger(id)) throw invalid(['exclusions', index, 'id'], `an action id is an integer, got ${JSON.stringify(raw.id)}`)
      actionId = id
    } else if (raw.id !== undefined && raw.id !== null) {
      event = String(raw.id)
    }
    const from = raw.funnel_from_step ?? 0
    const to = raw.funnel_to_step ?? n - 1
    const bad = (message: string) => invalid(['exclusions'], message)
    if (from >= to) throw bad('Exclusion event range is invalid. End of range should be greater than start.')
    if (from < 0) throw bad('Exclusion event range is invalid. Start of range should be at least 0.')
    if (from >= n - 1) throw bad('Exclusion event range is invalid. Start of range is greater than number of steps.')
    if (to > n - 1) throw bad('Exclusion event range is invalid. End of range is greater than number of steps.')
    for (const step of steps.slice(from, to + 1)) {
      const same = step.kind === kind && (kind === 'actions' ? step.actionId === actionId : step.event === event)
      if (same || (kind === 'events' && event === null)) throw bad("Exclusion steps cannot contain an event that's part of funnel steps.")
    }
    if (order === 'unordered' && (from !== 0 || to !== n - 1)) throw bad('Partial Exclusions not allowed in unordered funnels')
    const entity: SeriesEntity = {
      index,
      kind,
      event,
      actionId,
      order: null,
      name: raw.name ?? null,
      customName: null,
      properties: [],
      math: null,
      mathProperty: null,
      mathGroupTypeIndex: null,
      mathHogql: null,
      input: { id: raw.id ?? null, type: raw.type ?? null },
    }
    return { entity, from, to }
  })
}
