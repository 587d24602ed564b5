/**
 * Loads a worked example or a generated dataset into an engine: the dataset
 * through the public API (loadDataset), then each person's `created_at` set
 * to its earliest event, which is what the reference evaluator assumes
 * (RefPerson has no created_at; ingestion in time order stores exactly this,
 * but loadDataset creates persons before their events, at the clock's now).
 * The earliest events are read from the database; the times are written
 * through `persons.upsert`, so that every storage hears of them (ClickHouse
 * keeps its own versioned person rows, told by core's writes: an UPDATE
 * behind the engine's back would not reach them).
 */
import type { RefDataset } from '../../reference/shared/ref-dataset.js'
import type { TrendEngine } from './engine.js'

export async function loadTrendData(engine: TrendEngine, data: RefDataset): Promise<number> {
  const projectId = await engine.load(data)
  // Two reads, events apart from persons: on ClickHouse they live in different stores, and one
  // statement naming both would copy every event into the companion first.
  const earliest = await engine.db.raw<{ d: string; earliest: unknown }>(
    `select distinct_id as d, min(${engine.db.epochMicros('timestamp')}) as earliest from events where project_id = $1 group by distinct_id`,
    [projectId],
  )
  const earliestOf = new Map(earliest.map((row) => [row.d, Number(row.earliest)]))
  const persons = await engine.db.raw<{ d: string; person: string; created: unknown }>(
    `select d.distinct_id as d, cast(p.uuid as text) as person, ${engine.db.epochMicros('p.created_at')} as created
       from persons p join person_distinct_ids d on d.project_id = p.project_id and d.person_uuid = p.uuid
      where p.project_id = $1`,
    [projectId],
  )
  // Per person: its smallest distinct id, its created_at, and the earliest event of any of its distinct ids.
  const byPerson = new Map<string, { d: string; created: number; earliest: number }>()
  for (const row of persons) {
    const at = earliestOf.get(row.d) ?? Infinity
    const entry = byPerson.get(row.person)
    if (!entry) byPerson.set(row.person, { d: row.d, created: Number(row.created), earliest: at })
    else {
      if (row.d < entry.d) entry.d = row.d
      entry.earliest = Math.min(entry.earliest, at)
    }
  }
  for (const { d, created, earliest } of byPerson.values()) {
    // A person without events keeps its created_at (the join above left such persons out).
    if (earliest === Infinity || earliest === created) continue
    await engine.sightline.persons.upsert(projectId, { distinctIds: [d], createdAt: microsToIso(earliest) })
  }
  return projectId
}

/** Epoch microseconds as ISO 8601 UTC with all six fractional digits. */
function microsToIso(micros: number): string {
  const ms = Math.floor(micros / 1000)
  return new Date(ms).toISOString().replace('Z', `${String(micros - ms * 1000).padStart(3, '0')}Z`)
}
