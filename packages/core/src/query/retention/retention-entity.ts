import { ValidationError } from '../../errors.js'
import { decodeSeries, type SeriesEntity } from '../series/series.js'

/** PostHog's default for both retention entities. */
const PAGEVIEW = { id: '$pageview', type: 'events' }

const invalid = (path: ReadonlyArray<string | number>, message: string): never => {
  throw new ValidationError([{ path, message }], { context: 'invalid retention parameters' })
}

/**
 * One retention entity (`target_entity` or `returning_entity`): an object
 * `{id, type, name?, properties?}` or its JSON text (GET queries), `type`
 * `events` (default) or `actions`. An event id of null means any event; an
 * action needs an integer id. Missing: `$pageview`. ValidationError names
 * `field` and the part at fault.
 */
export function retentionEntity(value: unknown, field: string): SeriesEntity {
  let raw: unknown = value ?? PAGEVIEW
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw)
    } catch {
      return invalid([field], 'is not valid JSON')
    }
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return invalid([field], 'is an object {id, type}')
  const item = raw as Record<string, unknown>
  const type = item.type === undefined || item.type === null ? 'events' : item.type
  if (type !== 'events' && type !== 'actions') return invalid([field, 'type'], `is "events" or "actions", got ${JSON.stringify(type)}`)
  if (type === 'actions' && (item.id === undefined || item.id === null)) return invalid([field, 'id'], 'an action entity needs the action id')
  try {
    // The series decoder reads ids, names and property filters as trends and funnels do.
    return decodeSeries({ [type]: [item] })[0]!
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error
    // Its paths start at `events[0]` / `actions[0]`: name the field the client wrote instead.
    throw new ValidationError(
      error.issues.map((i) => ({ path: [field, ...i.path.slice(2)], message: i.message })),
      { context: 'invalid retention parameters', cause: error },
    )
  }
}
