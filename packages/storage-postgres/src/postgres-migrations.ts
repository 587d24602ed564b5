import { sql, type Kysely, type Migration } from 'kysely'

/**
 * Postgres's own indexes. The unique `(project_id, uuid)` index backs the
 * `ON CONFLICT DO NOTHING` of event ingestion when several processes write.
 * The two event indexes are the covering pair measured in
 * shared/reference/performance.md: together they make every funnel shape
 * 2.5-3.3x faster and allow index probes per person.
 */
export const postgresMigrations: Record<string, Migration> = {
  postgres_0001_event_indexes: {
    async up(db: Kysely<any>) {
      await sql`create unique index events_project_uuid on events (project_id, uuid)`.execute(db)
      await sql`create index events_project_event_time on events (project_id, event, timestamp) include (distinct_id)`.execute(db)
      await sql`create index events_project_distinct_event_time on events (project_id, distinct_id, event, timestamp)`.execute(db)
      await sql`create index person_distinct_ids_person on person_distinct_ids (project_id, person_uuid)`.execute(db)
    },
  },
  // SqlHooks.unorderedFiling: the unordered funnel files an event matching steps of several entities
  // by a fold over the person's events in order (funnels.md §5), which window functions cannot express.
  postgres_0002_unordered_filing: {
    async up(db: Kysely<any>) {
      await sql.raw(UNORDERED_FILING_STEP).execute(db)
      await sql.raw(UNORDERED_FILING_FINAL).execute(db)
      await sql.raw(UNORDERED_FILING_AGGREGATE).execute(db)
    },
  },
}

/**
 * The transition of `sightline_unordered_filing`: the rule of
 * `SqlHooks.unorderedFiling` for one event. State: per step the newest time
 * filed under it (null: none in the window), then the step this event was
 * filed under (0: none).
 */
const UNORDERED_FILING_STEP = `
create function sightline_unordered_filing_step(state bigint[], ts bigint, mask bigint, carries integer, steps integer, window_micros bigint)
returns bigint[] language plpgsql immutable parallel safe as $fn$
declare
  done integer := 0;
  oldest integer := 0;
  chosen integer := 0;
begin
  if state is null then
    state := array_fill(null::bigint, array[steps + 1]);
  end if;
  if mask = 0 then
    return array_fill(null::bigint, array[steps]) || 0::bigint;
  end if;
  for s in 1..steps loop
    if state[s] < ts - window_micros then
      state[s] := null;
    end if;
    if state[s] is not null then
      done := done + 1;
      if oldest = 0 or state[s] < state[oldest] then
        oldest := s;
      end if;
    end if;
  end loop;
  if done = steps then
    state[oldest] := null;
    done := done - 1;
  end if;
  if not (carries = 0 and done = 0) then
    for s in 1..steps loop
      if mask & (1::bigint << (s - 1)) <> 0 then
        if chosen = 0 then
          chosen := s;
        elsif state[chosen] is not null and (state[s] is null or state[s] < state[chosen]) then
          chosen := s;
        end if;
      end if;
    end loop;
    if chosen > 0 then
      state[chosen] := ts;
    end if;
  end if;
  state[steps + 1] := chosen;
  return state;
end
$fn$`

const UNORDERED_FILING_FINAL = `
create function sightline_unordered_filing_final(state bigint[]) returns integer
language sql immutable parallel safe as $fn$ select cast(state[array_length(state, 1)] as integer) $fn$`

const UNORDERED_FILING_AGGREGATE = `
create aggregate sightline_unordered_filing(bigint, bigint, integer, integer, bigint) (
  sfunc = sightline_unordered_filing_step,
  stype = bigint[],
  finalfunc = sightline_unordered_filing_final
)`
