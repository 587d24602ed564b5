// The packages as a user would install them before they are on the registry:
// `pnpm pack` each public package, `npm install` the tarballs (and the DuckDB
// driver, a peer of storage-duckdb, from the registry) into an empty project,
// then run a small program there under plain Node.
// Run after `pnpm build` (this script builds nothing; pnpm pack runs the ui package's prepack, which bundles its page): node test/smoke/packed-install.mjs
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '../..')
const PUBLIC = ['core', 'storage-duckdb', 'storage-postgres', 'http-adapter', 'ui']
const PNPM = ['-y', 'pnpm@10.34.8']
const duckdbVersion = JSON.parse(readFileSync(join(root, 'packages/storage-duckdb/package.json'), 'utf8')).devDependencies['@duckdb/node-api']

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false' } })
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`)
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed: ${result.error ?? `exit ${result.status}`}`)
  }
  return result.stdout
}

const packDir = mkdtempSync(join(tmpdir(), 'sightline-pack-'))
const appDir = mkdtempSync(join(tmpdir(), 'sightline-app-'))
const started = Date.now()
try {
  for (const name of PUBLIC) {
    const dir = join(root, 'packages', name)
    assert.ok(existsSync(join(dir, 'dist/index.js')), `packages/${name}/dist is missing: run pnpm build first`)
    run('npx', [...PNPM, 'pack', '--pack-destination', packDir], dir)
  }
  const tarballs = readdirSync(packDir).filter((file) => file.endsWith('.tgz')).map((file) => join(packDir, file))
  assert.equal(tarballs.length, PUBLIC.length, `expected ${PUBLIC.length} tarballs, got ${tarballs.join(', ')}`)

  writeFileSync(join(appDir, 'package.json'), JSON.stringify({ name: 'sightline-packed-install', private: true, type: 'module' }))
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs, `@duckdb/node-api@${duckdbVersion}`], appDir)

  // What got installed: real versions for workspace ranges, every export target present, no tests, no devDependencies.
  for (const name of PUBLIC) {
    const dir = join(appDir, 'node_modules/@sightline', name)
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    assert.ok(!JSON.stringify(manifest).includes('workspace:'), `@sightline/${name}: a workspace: range was published`)
    const targets = [manifest.types, ...Object.values(manifest.exports).flatMap((entry) => Object.values(entry))]
    for (const target of targets) assert.ok(existsSync(join(dir, target)), `@sightline/${name}: ${target} is not in the tarball`)
    const files = readdirSync(dir, { recursive: true }).map(String)
    const unwanted = files.filter((file) => /(^|\/)test\/|\.test\.|tsbuildinfo|node_modules/.test(file))
    assert.deepEqual(unwanted, [], `@sightline/${name}: test or build files in the tarball`)
  }
  for (const dev of ['vitest', 'express', 'fastify', 'posthog-node', 'fast-check', 'echarts', 'esbuild', 'happy-dom', 'playwright-core']) {
    assert.ok(!existsSync(join(appDir, 'node_modules', dev)), `${dev} (a devDependency) was installed`)
  }

  writeFileSync(
    join(appDir, 'app.mjs'),
    `import assert from 'node:assert/strict'
import { createSightline } from '@sightline/core'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { postgresStorage } from '@sightline/storage-postgres'
import { createHandler, toNodeHandler } from '@sightline/http-adapter'
import { sightlineUi } from '@sightline/ui'

assert.equal(typeof postgresStorage, 'function')
assert.equal(typeof toNodeHandler, 'function')
const sightline = await createSightline({ storage: duckdbStorage() })
const org = await sightline.organizations.create({ name: 'Acme' })
const project = await sightline.projects.create({ organizationId: org.id, name: 'Web' })
const captured = await sightline.capture(project.id, [
  { event: 'signup', distinctId: 'ada', timestamp: '2026-01-01T10:00:00Z' },
  { event: 'signup', distinctId: 'bob', timestamp: '2026-01-02T10:00:00Z' },
])
assert.equal(captured.stored, 2)
const trend = await sightline.query.trend(project.id, { events: [{ id: 'signup' }], date_from: '2026-01-01', date_to: '2026-01-03', interval: 'day' })
assert.equal(trend.result.length, 1)
assert.equal(trend.result[0].count, 2)
assert.deepEqual(trend.result[0].data, [1, 1, 0])

const user = await sightline.users.create({ email: 'ada@acme.io', firstName: 'Ada', organizationIds: [org.id] })
const { key } = await sightline.personalApiKeys.create({ userId: user.id, label: 'smoke' })
const handler = createHandler(sightline, { basePath: '/sightline' })
const response = await handler(new Request('http://x/sightline/api/projects/', { headers: { authorization: 'Bearer ' + key } }))
assert.equal(response.status, 200)
const body = await response.json()
assert.deepEqual(body.results.map((p) => p.name), ['Web'])
const refused = await handler(new Request('http://x/sightline/api/projects/'))
assert.equal(refused.status, 401)
// The insights page from the ui tarball: its bundle was built into it by pnpm pack (prepack).
const withUi = createHandler(sightline, { basePath: '/sightline', ui: sightlineUi() })
assert.equal((await withUi(new Request('http://x/sightline/'))).status, 200)
const script = await withUi(new Request('http://x/sightline/ui/sightline-ui.js'))
assert.equal(script.status, 200)
assert.match(await script.text(), /sightline-insight/)
await sightline.close()
`,
  )
  run(process.execPath, ['app.mjs'], appDir)
  console.log(`packed install: ok (${((Date.now() - started) / 1000).toFixed(1)} s)`)
} catch (error) {
  console.error(error)
  process.exitCode = 1
} finally {
  rmSync(packDir, { recursive: true, force: true })
  rmSync(appDir, { recursive: true, force: true })
}
