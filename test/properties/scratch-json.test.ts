import { it } from 'vitest'
import { openEngine } from '../conformance/harness.js'
import { duckdbMemory } from '../targets/duckdb.js'
import { pgliteTarget, pgServerTarget } from '../targets/postgres.js'

const values: Record<string, unknown> = { a: 1e21, b: 0.1 + 0.2, c: 5e-324, d: 1.7976931348623157e308, g: -0, h: 123456789012345678901234567890, i: 9007199254740993, j: 1e-7, k: 'é😀', l: 'a"\'\\b', m: '\u0001', emptyk: { '': 1 } }
const risky: Record<string, unknown> = { nul: '\u0000', lone: '\ud800', nulkey: { 'a\u0000': 1 } }

for (const target of [duckdbMemory, pgliteTarget, pgServerTarget('postgres://postgres@127.0.0.1:5432/test')]) {
  it(target.name, async () => {
    const e = await openEngine(target)
    try {
      await e.sightline.capture(e.projectId, [{ event: 'x', distinctId: 'a', timestamp: '2026-01-01T00:00:00.123456Z', properties: values }])
      const rows = await e.db.raw<Record<string, unknown>>(`select event, properties, ${e.db.epochMicros('timestamp')} as us, uuid from events`)
      console.log(target.name, typeof rows[0]!.properties, rows[0])
      const props = typeof rows[0]!.properties === 'string' ? JSON.parse(rows[0]!.properties as string) : rows[0]!.properties
      for (const k of Object.keys(values)) if (!Object.is(props[k], values[k]) && JSON.stringify(props[k]) !== JSON.stringify(values[k])) console.log('DIFF', target.name, k, values[k], props[k])
      for (const [k, v] of Object.entries(risky)) {
        try {
          await e.sightline.capture(e.projectId, [{ event: 'x', distinctId: 'a', properties: { [k]: v } }])
          const r = await e.db.raw<Record<string, unknown>>(`select properties from events where properties::text like $1`, [`%${k}%`])
          console.log('OK', target.name, k, JSON.stringify(r))
        } catch (err) { console.log('FAIL', target.name, k, String(err), (err as any).cause?.message) }
      }
    } finally { await e.close() }
  })
}
