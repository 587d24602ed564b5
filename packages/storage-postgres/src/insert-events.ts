import { sql, type Kysely } from 'kysely'
import { MATERIALIZED_NUMBERS, MATERIALIZED_PROPERTIES, type EventRow, type SightlineDatabase, type SlotFill } from '@sightline/core/storage'
import { chunk } from './chunk.js'
import { postgresSqlHooks } from './postgres-sql-hooks.js'

/** Rows per statement: bounds the size of one message, not the number of parameters. */
const ROWS_PER_STATEMENT = 5000

/**
 * U+001E (record separator) between the JSON documents of one parameter:
 * JSON.stringify escapes every control character inside strings, so it
 * never occurs in its output.
 */
const SEPARATOR = '\u001e'

/** The hot properties' columns (text and numeric), computed by the database with the expressions queries would read instead. */
const MATERIALIZED = sql.join([...MATERIALIZED_PROPERTIES, ...MATERIALIZED_NUMBERS].map((p) => sql.id(p.column)))
const hotText = (key: string) => postgresSqlHooks.jsonText(sql.ref('u.properties'), key)
const MATERIALIZED_VALUES = sql.join([
  ...MATERIALIZED_PROPERTIES.map((p) => hotText(p.key)),
  ...MATERIALIZED_NUMBERS.map((p) => postgresSqlHooks.textToDouble(hotText(p.key))),
])

/**
 * Bulk insert with one parameter per column (`unnest`), so a statement of
 * thousands of rows binds about a dozen values. The properties travel as one
 * text split in SQL, because pg escapes every quote of every JSON document
 * when it builds a text-array literal: that was the largest client cost.
 * `ON CONFLICT DO NOTHING` skips uuids another process stored meanwhile.
 */
export async function insertEvents(db: Kysely<SightlineDatabase>, rows: ReadonlyArray<EventRow>, slots: ReadonlyArray<SlotFill> = []): Promise<number> {
  // The project's promoted-property slots, computed from each row's properties like the hot ones.
  const slotColumns = slots.length === 0 ? sql`` : sql`, ${sql.join(slots.map((f) => sql.id(f.column)))}`
  const slotValues = slots.length === 0 ? sql`` : sql`, ${sql.join(slots.map((f) => f.value(sql.ref('u.properties'))))}`
  let inserted = 0
  for (const part of chunk(rows, ROWS_PER_STATEMENT)) {
    const col = <K extends keyof EventRow>(key: K) => part.map((r) => r[key])
    const result = await sql`
      insert into events (uuid, project_id, event, distinct_id, timestamp, properties, group_0, group_1, group_2, group_3, group_4, session_id, inserted_at, elements_chain, person_id, ${MATERIALIZED}${slotColumns})
      select u.*, ${MATERIALIZED_VALUES}${slotValues} from unnest(
        ${col('uuid')}::uuid[], ${col('project_id')}::integer[], ${col('event')}::text[], ${col('distinct_id')}::text[],
        ${col('timestamp')}::timestamptz[], string_to_array(${part.map((r) => r.properties).join(SEPARATOR)}::text, chr(30))::jsonb[],
        ${col('group_0')}::text[], ${col('group_1')}::text[], ${col('group_2')}::text[], ${col('group_3')}::text[], ${col('group_4')}::text[],
        ${col('session_id')}::text[], ${col('inserted_at')}::timestamptz[], ${col('elements_chain')}::text[],
        ${col('person_id')}::uuid[]
      ) as u (uuid, project_id, event, distinct_id, timestamp, properties, group_0, group_1, group_2, group_3, group_4, session_id, inserted_at, elements_chain, person_id)
      on conflict (project_id, uuid) do nothing`.execute(db)
    inserted += Number(result.numAffectedRows ?? 0n)
  }
  return inserted
}
