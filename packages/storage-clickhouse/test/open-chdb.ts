import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { drainPending, Session } from 'chdb'

/** A chDB session in a new temporary directory, and how to close it (chDB holds one data directory a process). */
export function openChdb(): { session: Session; close(): Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-chdb-test-'))
  const session = new Session(join(dir, 'data'))
  return {
    session,
    async close() {
      session.close()
      await drainPending()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
