import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { noPersonRows, type ChangedGroup, type PersonRowChanges } from '../db/person-row-changes.js'
import type { PersonStoreChanges } from './person-store.js'

/** Whether the driver is told person-side rows, so that writes record them (`PersonStore`'s `recordChanges`). */
export const tellsPersonRows = (ctx: EngineContext): boolean => ctx.driver.personRowsChanged !== undefined

/**
 * Tells the driver the person-side rows a write changed, once that write has
 * committed (never for one rolled back), outside the project's write lock:
 * their versions order them, not the order of the calls. Nothing when the
 * driver has no `personRowsChanged` or nothing changed.
 */
export async function tellPersonRows(
  ctx: EngineContext,
  projectId: number,
  persons: PersonStoreChanges | undefined,
  groups: ReadonlyArray<ChangedGroup> = [],
): Promise<void> {
  const driver = ctx.driver
  if (!driver.personRowsChanged) return
  const changes: PersonRowChanges = {
    projectId,
    persons: persons?.persons ?? [],
    distinctIds: persons?.distinctIds ?? [],
    overrides: persons?.overrides ?? [],
    personless: persons?.personless ?? [],
    groups,
  }
  if (noPersonRows(changes)) return
  await runStorage('write person rows', () => driver.personRowsChanged!(ctx.db, changes))
}
