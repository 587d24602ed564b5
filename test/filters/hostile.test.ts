import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openFilterDb, analysisTargets, describePropertySkip, type FilterDb, type FilterRow } from './filter-db.js'
import { referenceMatches, type RefFilters } from './reference-filter.js'

const HOSTILE_KEYS = ['"', "'", '\\', '\\"', '$', '$."x"', '--', "'; drop table filter_events; --", '', '/', '~', 'a~1b', 'é🙂', '$.a[0]', '*']
const ROWS: FilterRow[] = HOSTILE_KEYS.map((key, i) => ({ id: i + 1, event: { [key]: `v${key}`, other: key } }))

const deep = (depth: number): RefFilters => {
  let node: any = { key: '--', value: 'v--' }
  for (let i = 0; i < depth; i++) node = { type: i % 2 ? 'AND' : 'OR', values: [node, { key: 'nope', operator: 'is_set' }] }
  return node
}
const bigList = Array.from({ length: 10_000 }, (_, i) => `v${i}'"\\`).concat(['v"'])

/** Filters whose answer must equal the reference's. */
const ANSWERED: Array<[string, RefFilters]> = [
  ...HOSTILE_KEYS.map((key): [string, RefFilters] => [`key ${JSON.stringify(key)}`, [{ key, value: `v${key}` }]]),
  ...HOSTILE_KEYS.map((key): [string, RefFilters] => [`value ${JSON.stringify(key)}`, [{ key: 'other', value: key, operator: 'icontains' }]]),
  ['regex of quotes', [{ key: 'other', value: `^['"\\\\]`, operator: 'regex' }]],
  ['10,000-element exact list', [{ key: '"', value: bigList }]],
  ['10,000-element not_in list', [{ key: '"', value: bigList, operator: 'not_in' }]],
  ['nesting 50', deep(50)],
]

/** Filters that must be refused with a ValidationError, never reach the database. */
const REFUSED: Array<[string, unknown, RegExp]> = [
  ['invalid regex', [{ key: 'a', value: '(', operator: 'regex' }], /invalid regular expression/],
  ['back-reference', [{ key: 'a', value: '(a)\\1', operator: 'regex' }], /back-references/],
  ['non-numeric gt', [{ key: 'a', value: 'abc', operator: 'gt' }], /needs a number/],
  ['between reversed', [{ key: 'a', value: [5, 1], operator: 'between' }], /min <= max/],
  ['bad date', [{ key: 'a', value: '-7d', operator: 'is_date_before' }], /ISO 8601/],
  ['impossible date', [{ key: 'a', value: '2024-02-30', operator: 'is_date_after' }], /ISO 8601/],
  ['NUL in a value', [{ key: 'a', value: 'x\u0000' }], /U\+0000/],
  ['NUL in a key', [{ key: '\u0000', value: 'x' }], /U\+0000/],
  ['nesting 100', deep(100), /deeper than 64/],
  ['cohort with a value that is no id', [{ key: 'id', value: "3'; --", type: 'cohort' }], /a cohort id/],
  ['cohort with a comparison', [{ key: 'id', value: 3, type: 'cohort', operator: 'gt' }], /in or not_in/],
  ['hogql', [{ key: '1 = 1', type: 'hogql' }], /filter type "hogql" is not available in this version/],
  ['element with an unsupported key', [{ key: 'attr_class', value: 'x', type: 'element' }], /element filter key "attr_class" is not supported/],
  ['session', [{ key: '$session_duration', value: 1, type: 'session' }], /filter type "session" is not available in this version/],
  ['group without its column', [{ key: 'name', value: 'x', type: 'group', group_type_index: 0 }], /group type 0/],
  ['exact without value', [{ key: 'a' }], /needs a value/],
  ['object value', [{ key: 'a', value: { $gt: 1 } }], /properties/],
  ['unknown operator', [{ key: 'a', value: 1, operator: 'semver_gt' }], /operator/],
]

describePropertySkip()
for (const target of analysisTargets) {
  describe(`hostile property filters on ${target.name}`, () => {
    let db: FilterDb
    beforeAll(async () => {
      db = await openFilterDb(target)
      await db.load(ROWS)
    })
    afterAll(() => db?.close())
    it.each(ANSWERED)('%s: the reference answer', async (_name, filters) => {
      const expected = ROWS.filter((r) => referenceMatches(filters, r as never)).map((r) => r.id)
      expect(await db.select(filters)).toEqual(expected)
    })
    it.each(REFUSED)('%s: ValidationError', async (_name, filters, message) => {
      const error = await db.select(filters).then(() => undefined, (e: unknown) => e)
      expect(error).toMatchObject({ _tag: 'ValidationError' })
      expect((error as Error).message).toMatch(message)
    })
    it('the table survived', async () => {
      expect(await db.select([])).toEqual(ROWS.map((r) => r.id))
    })
  })
}

