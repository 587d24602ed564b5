/**
 * Loads a worked example or a generated dataset into an engine: the dataset
 * through the public API (loadDataset), then each person's `created_at` set
 * to its earliest event, which is what the reference evaluator assumes
 * (RefPerson has no created_at; ingestion in time order stores exactly this,
 * but loadDataset creates persons before their events, at the clock's now).
 */
import type { RefDataset } from '../../reference/shared/ref-dataset.js'
import type { TrendEngine } from './engine.js'

export async function loadTrendData(engine: TrendEngine, data: RefDataset): Promise<number> {
  const projectId = await engine.load(data)
  await engine.db.raw(
    `update persons set created_at = coalesce((select min(e.timestamp) from events e join person_distinct_ids d on d.project_id = e.project_id and d.distinct_id = e.distinct_id
       where d.person_uuid = persons.uuid and e.project_id = persons.project_id), created_at) where project_id = $1`,
    [projectId],
  )
  return projectId
}
