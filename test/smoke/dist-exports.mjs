// Plain Node (no TypeScript, no source condition) imports the built packages
// through their `exports` and runs them: what a published install does.
// Run after `pnpm build`: node test/smoke/dist-exports.mjs
import assert from 'node:assert/strict'
import { PGlite } from '@electric-sql/pglite'
import { createSightline } from '@sightline/core'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { postgresStorage } from '@sightline/storage-postgres'
import { createHandler } from '@sightline/http-adapter'
import { sightlineUi } from '@sightline/ui'

for (const storage of [duckdbStorage(), postgresStorage({ pglite: await PGlite.create() })]) {
  const sightline = await createSightline({ storage })
  const org = await sightline.organizations.create({ name: 'Smoke' })
  const project = await sightline.projects.create({ organizationId: org.id, name: 'P' })
  const result = await sightline.capture(project.id, [{ event: 'smoke', distinctId: 'u', timestamp: '2026-01-01T00:00:00.000001Z' }])
  assert.equal(result.stored, 1)
  const [event] = await sightline.events.list(project.id)
  assert.equal(event.timestamp, '2026-01-01T00:00:00.000001Z')
  await sightline.close()
  console.log(`dist smoke (${storage.name}): ok`)
}

// The page: the built sightlineUi serves the bundle `pnpm build` wrote, through the handler's ui option.
{
  const sightline = await createSightline({ storage: duckdbStorage() })
  const handler = createHandler(sightline, { basePath: '/sightline', ui: sightlineUi() })
  const page = await handler(new Request('http://x/sightline/'))
  assert.equal(page.status, 200)
  assert.match(await page.text(), /src="ui\/sightline-ui\.js"/)
  const script = await handler(new Request('http://x/sightline/ui/sightline-ui.js'))
  assert.equal(script.status, 200, 'packages/ui/assets/sightline-ui.js is missing: pnpm build bundles it')
  assert.match(await script.text(), /sightline-insight/)
  await sightline.close()
  console.log('dist smoke (ui): ok')
}
