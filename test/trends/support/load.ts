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
  const first = await engine.db.raw<{ d: string; created: unknown; earliest: unknown }>(
    `select min(d.distinct_id) as d, min(${engine.db.epochMicros('p.created_at')}) as created, min(${engine.db.epochMicros('e.timestamp')}) as earliest
       from persons p join person_distinct_ids d on d.project_id = p.project_id and d.person_uuid = p.uuid
       join events e on e.project_id = p.project_id and e.distinct_id = d.distinct_id
      where p.project_id = $1 group by p.uuid`,
    [projectId],
  )
  for (const row of first) {
    const earliest = Number(row.earliest)
    if (earliest === Number(row.created)) continue
    await engine.sightline.persons.upsert(projectId, { distinctIds: [row.d], createdAt: microsToIso(earliest) })
  }
  return projectId
}

/** Epoch microseconds as ISO 8601 UTC with all six fractional digits. */
function microsToIso(micros: number): string {
  const ms = Math.floor(micros / 1000)
  return new Date(ms).toISOString().replace('Z', `${String(micros - ms * 1000).padStart(3, '0')}Z`)
}
