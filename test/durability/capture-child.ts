// Child process for the durability test: captures one batch into a DuckDB
// file, reports on stdout once `capture` has resolved, then waits to be killed.
import { createSightline } from '@sightline/core'
import { duckdbStorage } from '@sightline/storage-duckdb'

const [path, count] = process.argv.slice(2)
const sightline = await createSightline({ storage: duckdbStorage({ path }) })
const org = await sightline.organizations.create({ name: 'Durable' })
const project = await sightline.projects.create({ organizationId: org.id, name: 'P' })
const events = Array.from({ length: Number(count) }, (_, i) => ({
  event: 'durable',
  distinctId: `user-${i % 50}`,
  timestamp: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
  properties: { i },
}))
const result = await sightline.capture(project.id, events)
process.stdout.write(`captured ${result.stored} ${project.id}\n`)
// Never close: the parent kills this process with SIGKILL.
setInterval(() => {}, 1000)
