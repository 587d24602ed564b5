/**
 * The bound of the reference suites' hand-built engines (with-statement-timeout.ts):
 * a statement past it fails with its SQL named, and its connection is usable
 * afterwards. The bound fires when the statement is known to run (the
 * executor's test seams), not when a real timer does.
 */
import { Kysely } from 'kysely'
import { describe, expect, it } from 'vitest'
import { executionTargets, isInterruptible, MARK, openExecutionDb } from './execution-db.js'
import { StatementTimeoutError, withStatementTimeout } from './with-statement-timeout.js'

/** A hang guard, not a measure. */
const LONG_TEST = { timeout: 60_000 }

describe.each(executionTargets)('a statement past the test engines’ bound on $name', (target) => {
  it('fails naming its SQL, and leaves its connection usable', LONG_TEST, async () => {
    const ex = await openExecutionDb(target)
    const driver = await ex.fresh.storage().open()
    let armed = true
    let fire: (() => void) | undefined
    const db = new Kysely<any>({
      dialect: withStatementTimeout(driver.dialect, 60_000, {
        startTimeout: (onTimeout) => {
          fire = onTimeout
          return () => (fire = undefined)
        },
        // The first statement handed to the database: its bound passes as it runs.
        onStatementStart: () => {
          if (!armed) return
          armed = false
          fire?.()
        },
      }),
    })
    try {
      // PGlite cannot stop a statement: a short one, whose answer is discarded, shows the same.
      const statement = isInterruptible(target) ? ex.long() : ex.short()
      const error = await statement.execute(db).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(StatementTimeoutError)
      expect((error as StatementTimeoutError).sql).toContain(MARK)
      expect((error as Error).message).toContain(MARK)
      expect((error as Error).message).toContain('60000 ms')

      const { rows } = await ex.short().execute(db)
      expect(Number(rows[0]?.n)).toBe(ex.shortCount)
    } finally {
      await db.destroy()
      await driver.close()
      await ex.close()
    }
  })
})
