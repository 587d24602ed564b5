import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { createSightline } from '@sightline/core'
import { duckdbStorage } from '@sightline/storage-duckdb'

const here = dirname(fileURLToPath(import.meta.url))
const tsx = createRequire(import.meta.url).resolve('tsx')
const dir = mkdtempSync(join(tmpdir(), 'sightline-kill-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Runs the child until it reports, then SIGKILLs it. Resolves to what it reported. */
function captureThenKill(path: string, count: number): Promise<{ stored: number; projectId: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=sightline-source', '--import', tsx, join(here, 'capture-child.ts'), path, String(count)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    child.stderr.on('data', (d) => (err += d))
    child.stdout.on('data', (d) => {
      out += d
      const m = /captured (\d+) (\d+)\n/.exec(out)
      if (m) {
        child.kill('SIGKILL')
        child.once('exit', (_code, signal) => {
          if (signal !== 'SIGKILL') reject(new Error(`child ended by ${signal}`))
          else resolve({ stored: Number(m[1]), projectId: Number(m[2]) })
        })
      }
    })
    child.once('exit', (code) => {
      if (!/captured/.test(out)) reject(new Error(`child exited (${code}) before capturing:\n${err}`))
    })
  })
}

describe('DuckDB file durability', () => {
  it('events survive kill -9 once capture has resolved', async () => {
    const path = join(dir, 'kill.duckdb')
    const { stored, projectId } = await captureThenKill(path, 2000)
    expect(stored).toBe(2000)
    const sightline = await createSightline({ storage: duckdbStorage({ path }) })
    try {
      const events = await sightline.events.list(projectId, { limit: 10_000 })
      expect(events).toHaveLength(2000)
      expect(new Set(events.map((e) => e.properties.i))).toEqual(new Set(Array.from({ length: 2000 }, (_, i) => i)))
      expect((await sightline.persons.get(projectId, 'user-7'))?.distinctIds).toEqual(['user-7'])
    } finally {
      await sightline.close()
    }
  }, 60_000)
})
