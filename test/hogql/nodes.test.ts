import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openHogqlDb, serverSkipReason, targets, type HogqlDb } from './hogql-db.js'
import { CONDITIONS, ROWS, TEXTS, VALUES } from './worked-examples.js'

for (const target of targets) {
  describe(`HogQL expressions on ${target.name}`, () => {
    let db: HogqlDb
    beforeAll(async () => {
      db = await openHogqlDb(target)
      await db.load(ROWS)
    })
    afterAll(() => db?.close())
    it.each(VALUES)('%s', async (expression, expected, options) => {
      expect(await db.values(expression, options)).toEqual(expected)
    })
    it.each(TEXTS)('hogqlToText(%s)', async (expression, expected, options) => {
      expect(await db.texts(expression, options)).toEqual(expected)
    })
    it.each(CONDITIONS)('condition %s', async (expression, expected) => {
      expect(await db.where(expression)).toEqual(expected)
    })
  })
}

// Only without a server: then the skip says why, and with one nothing is skipped.
const reason = serverSkipReason
if (reason) {
  describe('postgres (server)', () => {
    it.skip(reason, () => {})
  })
}
