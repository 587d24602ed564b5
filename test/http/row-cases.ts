import { expect, it } from 'vitest'
import type { Answer } from './harness.js'
import { problems } from './interface-rows.shapes.js'
import type { Csv, Row } from './row.js'
import type { State } from './rows-world.js'

/** Checks the CSV answer of an insight row against the README's CSV section. */
function checkCsv(row: Row, csv: Csv, answer: Answer): void {
  if (csv.kind === 'bodiless') {
    expect([answer.status, answer.text]).toEqual([row.status, ''])
    return
  }
  if (csv.kind === 'refused') {
    expect([answer.status, answer.body?.type, answer.body?.attr]).toEqual([400, 'validation_error', 'format'])
    return
  }
  expect(answer.status, answer.text.slice(0, 300)).toBe(row.status)
  expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8')
  const header = answer.text.split('\r\n')[0]!.split(',')
  if (csv.kind === 'analysis') {
    expect(answer.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="export-${csv.file}-\\d{4}-\\d{2}-\\d{2}-\\d{6}\\.csv"$`))
    expect(csv.columns.filter((c) => !header.includes(c))).toEqual([])
  } else {
    // Nested fields are dotted headers: each documented field is a column or the prefix of some.
    expect(csv.columns.filter((c) => !header.some((h) => h === c || h.startsWith(`${c}.`)))).toEqual([])
    expect(answer.text.split('\r\n').length).toBeGreaterThan(2)
  }
}

/** A test per row (and per `format` of an insight row), in the rows' order: rows may leave state the next reads. */
export function rowCases(rows: ReadonlyArray<Row>, state: () => State): void {
  for (const row of rows) {
    const name = `${row.method} ${row.path}: ${row.status}`
    it(name, async () => {
      const s = state()
      const answer = await row.send(s)
      expect(answer.status, answer.text.slice(0, 400)).toBe(row.status)
      if (row.shape) {
        expect(answer.headers.get('content-type')).toMatch(/^application\/json/)
        expect(problems(answer.body, row.shape(s))).toEqual([])
      }
      await row.values?.(answer.body, s, answer)
    })
    if (row.csv) {
      const csv = row.csv
      it(`${name}, ?format=csv`, async () => checkCsv(row, csv, await row.send(state(), 'csv')))
      it(`${name}, ?format=json`, async () => {
        const answer = await row.send(state(), 'json')
        expect(answer.status, answer.text.slice(0, 300)).toBe(row.status)
        if (row.shape) expect(problems(answer.body, row.shape(state()))).toEqual([])
        else expect(answer.text).toBe('')
      })
    }
  }
}
