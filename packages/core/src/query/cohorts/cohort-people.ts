import { sql, type Kysely } from 'kysely'
import type { EngineContext } from '../../context.js'
import type { Person } from '../../model/person.js'
import type { SightlineDatabase } from '../../storage.js'
import { chunk } from '../../util/chunk.js'
import { isUuid } from '../../util/uuid.js'
import { cohortMembership } from './cohort-membership.js'
import { loadCohorts } from './load-cohorts.js'

type Db = Kysely<SightlineDatabase>
const BATCH = 1000

/** The number of the project's persons in the cohort now (`count` of a cohort read). */
export async function countCohort(ctx: EngineContext, projectId: number, cohortId: number): Promise<number> {
  const member = cohortMembership(cohortId, await loadCohorts(ctx, projectId, [cohortId]), { personId: sql<string>`p.uuid`, projectId, now: ctx.clock(), hooks: ctx.adapter.sql })
  const row = await ctx.db
    .selectFrom('persons as p')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('p.project_id', '=', projectId)
    .where(member)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** One page of the cohort's persons, newest first (then by id), with their distinct ids. */
export async function cohortPersons(ctx: EngineContext, projectId: number, cohortId: number, limit: number, offset: number): Promise<Person[]> {
  const member = cohortMembership(cohortId, await loadCohorts(ctx, projectId, [cohortId]), { personId: sql<string>`p.uuid`, projectId, now: ctx.clock(), hooks: ctx.adapter.sql })
  const rows = await ctx.db
    .selectFrom('persons as p')
    .select(['p.id', 'p.uuid', 'p.properties', 'p.is_identified', 'p.created_at'])
    .where('p.project_id', '=', projectId)
    .where(member)
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute()
  if (rows.length === 0) return []
  const ids = await ctx.db
    .selectFrom('person_distinct_ids')
    .select(['person_uuid', 'distinct_id'])
    .where('project_id', '=', projectId)
    .where('person_uuid', 'in', rows.map((r) => r.uuid))
    .orderBy('distinct_id')
    .execute()
  return rows.map((r) => ({
    id: Number(r.id),
    uuid: r.uuid,
    distinctIds: ids.filter((d) => d.person_uuid === r.uuid).map((d) => d.distinct_id),
    properties: r.properties,
    isIdentified: r.is_identified,
    createdAt: r.created_at,
  }))
}

/**
 * Adds persons to a static cohort, through `db` (the write's transaction):
 * those of the project with these distinct ids or uuids, each once; ids of no
 * person are skipped, as PostHog's CSV import skips them.
 */
export async function addCohortPeople(db: Db, projectId: number, cohortId: number, distinctIds: ReadonlyArray<string>, personIds: ReadonlyArray<string>): Promise<void> {
  const uuids = new Set<string>()
  for (const batch of chunk([...new Set(distinctIds)], BATCH)) {
    const rows = await db.selectFrom('person_distinct_ids').select('person_uuid').where('project_id', '=', projectId).where('distinct_id', 'in', batch).execute()
    rows.forEach((r) => uuids.add(r.person_uuid))
  }
  for (const batch of chunk([...new Set(personIds.filter(isUuid).map((u) => u.toLowerCase()))], BATCH)) {
    const rows = await db.selectFrom('persons').select('uuid').where('project_id', '=', projectId).where('uuid', 'in', batch).execute()
    rows.forEach((r) => uuids.add(r.uuid))
  }
  for (const batch of chunk([...uuids], BATCH)) {
    const present = await db.selectFrom('cohort_people').select('person_uuid').where('cohort_id', '=', cohortId).where('person_uuid', 'in', batch).execute()
    const stored = new Set(present.map((r) => r.person_uuid))
    const fresh = batch.filter((u) => !stored.has(u))
    if (fresh.length > 0) await db.insertInto('cohort_people').values(fresh.map((u) => ({ project_id: projectId, cohort_id: cohortId, person_uuid: u }))).execute()
  }
}
