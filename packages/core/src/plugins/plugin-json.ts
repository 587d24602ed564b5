import { ValidationError } from '../errors.js'
import { PluginConfigSchema } from '../model/plugin.js'
import { decodeOrThrow } from '../util/decode.js'

const CONTEXT = 'invalid plugin source'
const invalid = (path: ReadonlyArray<string>, message: string) => new ValidationError([{ path: ['plugin.json', ...path], message }], { context: CONTEXT })

/**
 * What `update_source` copies from a plugin's plugin.json into the plugin, as
 * PostHog: its `name` and its `config` (as the config schema), each when present.
 * Throws a `ValidationError` naming `plugin.json` unless the text is a JSON object.
 */
export function readPluginJson(text: string): { name?: string; configSchema?: PluginConfigSchema } {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw invalid([], `not valid JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid([], 'expected a JSON object')
  const json = parsed as Record<string, unknown>
  const read: { name?: string; configSchema?: PluginConfigSchema } = {}
  if ('name' in json) {
    if (typeof json.name !== 'string' || json.name.length < 1 || json.name.length > 200) throw invalid(['name'], 'expected a name of 1 to 200 characters')
    if (!json.name.isWellFormed() || json.name.includes('\u0000')) throw invalid(['name'], 'contains U+0000 or an unpaired UTF-16 surrogate, which cannot be stored')
    read.name = json.name
  }
  if ('config' in json) read.configSchema = decodeOrThrow(PluginConfigSchema, json.config, CONTEXT, ['plugin.json', 'config'])
  return read
}

/** JSON equality that ignores key order (Postgres's jsonb returns keys reordered). */
export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b))
}

const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : typeof value === 'object' && value !== null
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, canonical(v)]))
      : value
