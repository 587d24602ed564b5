import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const tsx = createRequire(import.meta.url).resolve('tsx')

/** The first ```ts block of a markdown file. */
function firstTsBlock(markdown: string): string {
  const match = /```ts\n([\s\S]*?)```/.exec(markdown)
  if (!match) throw new Error('no ts block')
  return match[1]!
}

describe('README', () => {
  it('the example on the first screen runs as written and prints what its comment says', () => {
    const example = firstTsBlock(readFileSync(join(root, 'README.md'), 'utf8'))
    expect(example.split('\n').filter((l) => l.trim() !== '').length).toBeLessThanOrEqual(12)
    // Run it from a file inside test/, so that its imports resolve to the workspace packages.
    const dir = mkdtempSync(join(tmpdir(), 'sightline-readme-'))
    const file = join(root, 'test', 'docs', `.readme-example-${process.pid}.ts`)
    try {
      writeFileSync(file, example.replace("'analytics.duckdb'", JSON.stringify(join(dir, 'analytics.duckdb'))))
      const run = spawnSync(process.execPath, ['--conditions=sightline-source', '--import', tsx, file], { encoding: 'utf8', timeout: 60_000 })
      expect(run.stderr).toBe('')
      expect(run.status).toBe(0)
      // The comment promises two steps, each counting the one person.
      expect(run.stdout.match(/count: (\d+)/g)).toEqual(['count: 1', 'count: 1'])
      expect(run.stdout).toMatch(/name: '\$pageview'/)
      expect(run.stdout).toMatch(/name: '\$identify'/)
    } finally {
      rmSync(file, { force: true })
      rmSync(dir, { recursive: true, force: true })
    }
  }, 90_000)
})
