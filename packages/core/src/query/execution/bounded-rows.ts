import { sql, type RawBuilder } from 'kysely'
import type { EngineContext } from '../../context.js'
import { runStorage } from '../../db/run.js'
import { ValidationError } from '../../errors.js'

/** What a bounded statement's rows are, for the error that refuses too many. */
export interface RowsBound {
  /** The parameter that makes the rows many (`breakdown`, `funnel_correlation_type`). */
  readonly attr: string
  /** The rows in words, plural: "(value, interval) pairs". */
  readonly rows: string
}

/**
 * Runs a statement whose rows depend on the data rather than on the request
 * (one per breakdown value and bucket, one per property value), reading at
 * most `maxBreakdownCells` of them: the statement is limited in the
 * database, so a property with a value per event never brings every event
 * into memory. More is a ValidationError naming `bound.attr`.
 */
export async function boundedRows<R>(ctx: EngineContext, what: string, query: RawBuilder<unknown>, bound: RowsBound): Promise<R[]> {
  const max = ctx.limits.maxBreakdownCells
  const limited = sql<R>`select * from (${query}) as bounded limit ${sql.lit(max + 1)}`
  const { rows } = await runStorage(what, () => limited.execute(ctx.db))
  if (rows.length > max) {
    throw new ValidationError(
      [{ path: [bound.attr], message: `the analysis would read more than ${max} ${bound.rows} (option queries.limits.maxBreakdownCells): break down by a property with fewer values, or narrow the range` }],
      { context: 'query over its budget' },
    )
  }
  return rows
}
