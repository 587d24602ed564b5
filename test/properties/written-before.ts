import { createSightline, type CaptureInput } from '@sightline/core'
import type { FreshDatabase } from '../conformance/target.js'

/**
 * Writes `events` into `fresh` as an engine of today would: one organization
 * and project ('Old'), the events captured, the engine closed. Migration
 * tests then take the schema back to before a migration and reopen.
 */
export async function writtenBefore(fresh: FreshDatabase, events: ReadonlyArray<CaptureInput>): Promise<void> {
  const first = await createSightline({ storage: fresh.storage() })
  try {
    const org = await first.organizations.create({ name: 'Old' })
    const project = await first.projects.create({ organizationId: org.id, name: 'Old' })
    await first.capture(project.id, events)
  } finally {
    await first.close()
  }
}
