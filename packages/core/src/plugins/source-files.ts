import type { EngineContext } from '../context.js'
import type { ActivityChange } from '../model/activity.js'
import type { PluginSourceUpdate } from '../model/plugin.js'

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
