import { sql, type Expression, type SqlBool } from 'kysely'
import { formatTimestamp } from '../../time/timestamp.js'
import { PERSON_KEY } from '../scope/event-scope.js'
import { firstEventsSql } from './first-events-sql.js'
import { actorKeySql, asNumber, groupBySql, groupNames, keyNames, rowsSql, selectGroups, type CellsInput, type CellsSql } from './cells-sql.js'
import type { TrendSeries } from './trend-request.js'
import { sqlCast } from '../../db/sql-cast.js'

/**
 * Cumulative `dau` and `unique_group` (reference §5): each actor counts once,
 * in the first bucket where it appears. Cells are the actors new in each
 * bucket; the caller accumulates them.
 */
export function firstSeenCellsSql(series: TrendSeries, input: CellsInput): CellsSql {
  const keys = keyNames(input)
  const firsts = sql`select ${selectGroups(keys)}a, min(b) as fb from (${rowsSql(input, [['a', actorKeySql(series, input)]])}) as r where a is not null ${groupBySql([...keys, 'a'])}`
  return sql`select ${selectGroups(keys)}fb as b, ${asNumber(sql`count(*)`)} as v from (${firsts}) as t ${groupBySql([...keys, 'fb'])}`
}

/**
 * `first_time_for_user`: events that are their person's first matching event
 * ever (earliest timestamp, then smallest uuid), counted where they fall in
 * the range. `input.scope` reads all time; `keyFilter`, applied after the
 * first event is chosen, selects by that event's breakdown values.
 */
export function firstTimeCellsSql(
  input: CellsInput,
  range: { readonly fromMicros: number; readonly toMicros: number },
  keyFilter: ((keys: ReadonlyArray<Expression<string>>) => Expression<SqlBool>) | null,
): CellsSql {
  const s = input.scope.sources
  const all = { ...input, fold: false, filter: undefined }
  const rows = rowsSql(all, [
    ['fp', PERSON_KEY],
    ['ft', s.timestamp],
    ['fu', sql`cast(${s.uuid} as text)`],
  ])
  const keyRefs = input.keys.map((_, i) => sql.ref(`k${i}`) as Expression<string>)
  const inner = sql`select ${selectGroups([...(input.bucket ? ['b'] : []), ...keyRefs.map((_, i) => `k${i}`)])}ft as ts, frn as rn from (${firstEventsSql(rows)}) as r`
  const from = sqlCast(formatTimestamp(range.fromMicros), 'timestamptz')
  const to = sqlCast(formatTimestamp(range.toMicros), 'timestamptz')
  const conditions = [sql`rn = 1`, sql`ts >= ${from}`, sql`ts <= ${to}`, ...(keyFilter ? [keyFilter(keyRefs)] : [])]
  const groups = groupNames(input)
  return sql`select ${selectGroups(groups)}${asNumber(sql`count(*)`)} as v from (${inner}) as t where ${sql.join(conditions, sql` and `)} ${groupBySql(groups)}`
}
