import { sql } from 'kysely'
import type { EngineContext } from '../context.js'
import { runStorage } from '../db/run.js'
import { requireProject } from './require-project.js'

/** What a project holds: for a dashboard header, a CLI summary or a health check. */
export interface ProjectStats {
  readonly events: number
  readonly persons: number
  readonly identifiedPersons: number
  readonly distinctIds: number
  readonly groups: number
  /** Oldest and newest event times, null when there are no events. */
  readonly firstEventAt: string | null
  readonly lastEventAt: string | null
  /** Event names by count, most frequent first (at most `topEvents`). */
  readonly topEvents: ReadonlyArray<{ readonly event: string; readonly count: number }>
}

export function statsService(ctx: EngineContext) {
  return {
    /** Counts of what a project stores. `topEvents` defaults to 10. */
    async project(projectId: number, options: { topEvents?: number } = {}): Promise<ProjectStats> {
      ctx.assertOpen()
      await requireProject(ctx, projectId)
      const db = ctx.db
      return runStorage('project stats', async () => {
        const events = await db
          .selectFrom('events')
          .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('timestamp').as('first'), eb.fn.max('timestamp').as('last')])
          .where('project_id', '=', projectId)
          .executeTakeFirstOrThrow()
        const persons = await db
          .selectFrom('persons')
          .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>(sql`case when is_identified then 1 else 0 end`).as('identified')])
          .where('project_id', '=', projectId)
          .executeTakeFirstOrThrow()
        const ids = await db.selectFrom('person_distinct_ids').select((eb) => eb.fn.countAll<number>().as('n')).where('project_id', '=', projectId).executeTakeFirstOrThrow()
        const groups = await db.selectFrom('groups').select((eb) => eb.fn.countAll<number>().as('n')).where('project_id', '=', projectId).executeTakeFirstOrThrow()
        const top = await db
          .selectFrom('events')
          .select((eb) => ['event', eb.fn.countAll<number>().as('n')])
          .where('project_id', '=', projectId)
          .groupBy('event')
          .orderBy('n', 'desc')
          .orderBy('event')
          .limit(options.topEvents ?? 10)
          .execute()
        return {
          events: Number(events.n),
          persons: Number(persons.n),
          identifiedPersons: Number(persons.identified ?? 0),
          distinctIds: Number(ids.n),
          groups: Number(groups.n),
          firstEventAt: events.first ?? null,
          lastEventAt: events.last ?? null,
          topEvents: top.map((t) => ({ event: t.event, count: Number(t.n) })),
        }
      })
    },
  }
}
