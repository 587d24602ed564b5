/**
 * The references share no code with the engine they check: a bug in core's
 * date resolution, bucketing, labels or selector regexes cannot hide behind a
 * comparison with itself. No file under test/reference/, nor the property
 * filters' test/filters/reference-*.ts, imports (statically, dynamically or by
 * re-export) from a package's sources; they have their own clock
 * (shared/ref-time.ts), dates (shared/ref-dates.ts) and selectors (shared/ref-selector.ts).
 * shared/load-dataset.ts, which loads a dataset into an engine, takes only types from
 * the public `@sightline/core`.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const dir = fileURLToPath(new URL('.', import.meta.url))
const filtersDir = fileURLToPath(new URL('../filters/', import.meta.url))
const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.[cm]?[jt]s$/.test(f))
// The property filters' references (event filters, cohorts, actions, selectors) live beside their property.
const filterReferences = readdirSync(filtersDir).filter((f) => /^reference-.*\.[cm]?[jt]s$/.test(f))
// `from '...'`, `import '...'`, `import('...')` and `require('...')`: every way a module names another.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g

describe('the references are independent of core', () => {
  it('finds the references to check', () => {
    expect(files.length).toBeGreaterThan(50)
    expect(files).toContain('trends/trend-reference.ts')
    expect(files).toContain('shared/ref-selector.ts')
    expect(filterReferences).toEqual(expect.arrayContaining(['reference-filter.ts', 'reference-cohort.ts', 'reference-action.ts']))
  })

  const importsFromSources = (path: string, name: string) =>
    [...readFileSync(path, 'utf8').matchAll(SPECIFIER)].map((m) => m[1]!).filter((s) => /(^|\/)packages\/[^/]+\/src(\/|$)/.test(s)).map((s) => `${name}: ${s}`)

  it('no file under test/reference/ imports from packages/*/src', () => {
    expect(files.flatMap((f) => importsFromSources(`${dir}/${f}`, f))).toEqual([])
  })

  it('nor does test/filters/reference-*.ts', () => {
    expect(filterReferences.flatMap((f) => importsFromSources(`${filtersDir}/${f}`, f))).toEqual([])
  })

  it('the check sees an import from core when there is one', () => {
    // Spelt in pieces, so that this file's own text holds no such import.
    const core = `../../${'packages'}/core/src/query/dates/buckets.js`
    const duckdb = `../../${'packages'}/storage-duckdb/src/index.js`
    const sample = `import { bucketOfMs } from '${core}'\nconst m = await import('${duckdb}')\nexport { x } from "${core}"`
    expect([...sample.matchAll(SPECIFIER)].map((m) => m[1])).toEqual([core, duckdb, core])
  })
})
