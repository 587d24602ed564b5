import type { ActivityChange } from '../model/activity.js'
import { PLUGIN_SECRET_FIELD_VALUE } from '../model/plugin.js'
import { sameJson } from './plugin-json.js'

type Config = Readonly<Record<string, unknown>>

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u)

/** Keys of the fields a config schema marks `secret: true`, in either of its forms (array of fields, or object by key). */
export function secretKeys(configSchema: unknown): ReadonlySet<string> {
  const keys = new Set<string>()
  if (Array.isArray(configSchema)) {
    for (const field of configSchema) if (isObject(field) && field.secret === true && typeof field.key === 'string') keys.add(field.key)
  } else if (isObject(configSchema)) {
    for (const [key, field] of Object.entries(configSchema)) if (isObject(field) && field.secret === true) keys.add(key)
  }
  return keys
}

/** The config as PostHog's API shows it: a secret field that has a value reads as the mask. */
export function maskSecrets(config: Config, secrets: ReadonlySet<string>): Record<string, unknown> {
  const shown: Record<string, unknown> = { ...config }
  for (const key of secrets) if (shown[key]) shown[key] = PLUGIN_SECRET_FIELD_VALUE
  return shown
}

/**
 * PostHog's update rule: a secret field sent as null or left out keeps its
 * stored value. So does the mask sent back unchanged (it is never a real value).
 */
export function keepSecrets(next: Config, stored: Config, secrets: ReadonlySet<string>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...next }
  for (const key of secrets) {
    if (merged[key] !== null && merged[key] !== undefined && merged[key] !== PLUGIN_SECRET_FIELD_VALUE) continue
    if (stored[key] === undefined) delete merged[key]
    else merged[key] = stored[key]
  }
  return merged
}

/**
 * Key-level changes between two configs, by key (PostHog's dict_changes_between:
 * a key whose value is null counts as absent); secret values are masked.
 */
export function configChanges(before: Config, after: Config, secrets: ReadonlySet<string>): ActivityChange[] {
  const changes: ActivityChange[] = []
  for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const was = before[key] ?? null
    const is = after[key] ?? null
    if (sameJson(was, is)) continue
    const action = was === null ? 'created' : is === null ? 'deleted' : 'changed'
    const show = (value: unknown) => (value === null ? undefined : secrets.has(key) ? PLUGIN_SECRET_FIELD_VALUE : value)
    changes.push({ type: 'PluginConfig', action, field: key, before: show(was), after: show(is) })
  }
  return changes
}
