import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { loadHogqlParser } from '../../packages/core/src/query/hogql/index.js'
import { scanHogqlText } from '../../packages/core/src/query/hogql/limits.js'

const core = fileURLToPath(new URL('../../packages/core/', import.meta.url))
const dist = new URL('../../packages/core/dist/query/hogql/index.js', import.meta.url)

/** Runs an ES module in a fresh Node whose network is cut: fetch, http(s) and sockets throw. */
function offline(source: string): string {
  const cut = `
    const refuse = () => { throw new Error('network used') }
    globalThis.fetch = refuse
    const net = await import('node:net'); net.Socket.prototype.connect = refuse
    for (const m of ['node:http', 'node:https']) { const mod = (await import(m)).default; mod.request = refuse; mod.get = refuse }
  `
  return execFileSync(process.execPath, ['--input-type=module', '-e', cut + source], { cwd: core, encoding: 'utf8', timeout: 60_000 })
}

describe('the HogQL parser', () => {
  it('loads once: later calls resolve at once', async () => {
    await loadHogqlParser()
    let settled = false
    void loadHogqlParser().then(() => (settled = true))
    await Promise.resolve()
    expect(settled).toBe(true)
  })

  // packages/core/dist is what `pnpm build` (tsc -b) writes; a fresh checkout has none, and CI runs `pnpm test`
  // before its build, so there the check is skipped and says why rather than build the packages inside a test.
  // .ci/run runs this file again after its build, where the check runs.
  const built = existsSync(dist)
  it.skipIf(!built)(`compiles from the built dist with no network${built ? '' : ' (skipped: packages/core/dist is not built; `npx tsc -b` builds it)'}`, () => {
    const out = offline(`
      const { sql } = await import('kysely')
      const { loadHogqlParser, compileHogql } = await import(${JSON.stringify(dist.href)})
      await loadHogqlParser()
      const hooks = { jsonText: (j, k) => sql\`(\${j} ->> \${k})\`, textToDouble: (t) => sql\`cast(\${t} as double precision)\` }
      const scope = { hooks, event: sql.ref('p'), eventName: sql.ref('e'), timestamp: sql.ref('t'), distinctId: sql.ref('d'), timezone: 'UTC' }
      process.stdout.write(compileHogql('properties.n * 2', scope, ['breakdown']).type)
    `)
    expect(out).toBe('number')
  })

  it('counts tokens and bracket depth as the lexer splits text', () => {
    expect(scanHogqlText("lower(properties.$browser) = 'a''(b' -- (((\n")).toEqual({ tokens: 8, nesting: 1 })
    expect(scanHogqlText('/* ((( */ [(x)]')).toEqual({ tokens: 5, nesting: 2 })
  })
})
