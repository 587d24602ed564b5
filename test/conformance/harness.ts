import { createSightline, type Organization, type Sightline, type SightlineOptions } from '@sightline/core'
import type { ConformanceTarget, FreshDatabase } from './target.js'

/** The clock every conformance case runs at. */
export const NOW = new Date('2026-03-01T12:00:00.000Z')
export const NOW_MICROS = NOW.getTime() * 1000

export interface Engine {
  readonly sightline: Sightline
  readonly db: FreshDatabase
  readonly projectId: number
  readonly organizationId: Organization['id']
}

/** A new database (a migrated copy where the target has one), an engine on it (with `options` besides storage and clock), and one organization with one project. */
export async function openEngine(
  target: ConformanceTarget,
  clock: () => Date = () => NOW,
  options: Omit<SightlineOptions, 'storage' | 'clock'> = {},
): Promise<Engine & { close(): Promise<void> }> {
  // A copy of a migrated database where the target has one: the engine finds nothing to migrate.
  const db = await (target.migrated?.() ?? target.fresh())
  const sightline = await createSightline({ ...options, storage: db.storage(), clock }).catch(async (error: unknown) => {
    await db.dispose()
    throw error
  })
  const org = await sightline.organizations.create({ name: 'Acme' })
  const project = await sightline.projects.create({ organizationId: org.id, name: 'Web', timezone: 'Europe/Berlin' })
  return {
    sightline,
    db,
    projectId: project.id,
    organizationId: org.id,
    async close() {
      await sightline.close()
      await db.dispose()
    },
  }
}

export const count = async (db: FreshDatabase, table: string, where = 'true', params: unknown[] = []): Promise<number> => {
  const [row] = await db.raw<{ n: number }>(`select count(*) as n from ${table} where ${where}`, params)
  return Number(row!.n)
}
