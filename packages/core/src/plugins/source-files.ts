import type { EngineContext } from '../context.js'
import { ValidationError } from '../errors.js'
import type { ActivityChange } from '../model/activity.js'
import type { PluginSourceUpdate } from '../model/plugin.js'

/**
 * The files a plugin's source can hold: the names PostHog's PluginSourceFile
 * rows take (plugin.json, index.ts, frontend.tsx, site.ts, as its archive sync
 * writes them) and index.js, which the plugin server also loads. Any other key
 * of an update is a mistake (a Plugin body sent to `update_source` would store
 * `description` as a file), not a file.
 */
export const PLUGIN_SOURCE_FILES: ReadonlyArray<string> = ['plugin.json', 'index.ts', 'index.js', 'frontend.tsx', 'site.ts']

/**
 * Throws a `ValidationError` with one issue per key of `files` that is not in
 * PLUGIN_SOURCE_FILES, each naming that key. Anything but a plain object is
 * left to the schema that decodes the update.
 */
export function assertKnownSourceFiles(files: unknown): void {
  if (typeof files !== 'object' || files === null || Array.isArray(files)) return
  const unknown = Object.keys(files).filter((name) => !PLUGIN_SOURCE_FILES.includes(name))
  if (unknown.length === 0) return
  const message = `not a plugin source file; the files are ${PLUGIN_SOURCE_FILES.join(', ')}`
  throw new ValidationError(unknown.map((name) => ({ path: [name], message })), { context: 'invalid plugin source' })
}

/**
 * Writes a plugin's source file edits through `trx` (a string writes the file,
 * null deletes it) and returns every file afterwards, with one activity change
 * per file that changed.
 */
export async function writeSourceFiles(
  trx: EngineContext['db'],
  pluginId: number,
  edits: PluginSourceUpdate,
  now: string,
): Promise<{ sources: Map<string, string>; changes: ActivityChange[] }> {
  const stored = await trx.selectFrom('plugin_source_files').select(['filename', 'source']).where('plugin_id', '=', pluginId).execute()
  const sources = new Map(stored.map((f) => [f.filename, f.source]))
  const changes: ActivityChange[] = []
  for (const [filename, source] of Object.entries(edits)) {
    const before = sources.get(filename)
    if (source === null) {
      if (before === undefined) continue
      await trx.deleteFrom('plugin_source_files').where('plugin_id', '=', pluginId).where('filename', '=', filename).execute()
      sources.delete(filename)
      changes.push({ type: 'Plugin', action: 'deleted', field: filename, before })
    } else if (before === undefined) {
      await trx.insertInto('plugin_source_files').values({ plugin_id: pluginId, filename, source, updated_at: now }).execute()
      sources.set(filename, source)
      changes.push({ type: 'Plugin', action: 'created', field: filename, after: source })
    } else if (before !== source) {
      await trx.updateTable('plugin_source_files').set({ source, updated_at: now }).where('plugin_id', '=', pluginId).where('filename', '=', filename).execute()
      sources.set(filename, source)
      changes.push({ type: 'Plugin', action: 'changed', field: filename, before, after: source })
    }
  }
  return { sources, changes }
}
