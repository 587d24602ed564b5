import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { createSightline } from '@sightline/core'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { createDemoInsights, DEMO_INSIGHTS } from './demo-insights.js'
import { createProgressBar } from './progress-bar.js'
import { generateSampleData } from './sample-data.js'
import { demoCurlExamples, serveUntilSignal } from './serve.js'

export interface DemoOptions {
  /** DuckDB file to (re)create. Default `.sightline/demo.duckdb` under the working directory. */
  readonly path?: string
  /** Approximate number of events. Default 300,000, or 60 per person when only `persons` is given. */
  readonly events?: number
  /** Persons. Default 5,000, or one per 60 events when only `events` is given. */
  readonly persons?: number
  /** Serve the API on localhost after generating, until Ctrl-C. Default true. */
  readonly serve?: boolean
  /** Port to serve on. Default 8000. */
  readonly port?: number
  readonly out?: NodeJS.WritableStream
  /** Stops serving when aborted, as SIGINT and SIGTERM do. */
  readonly signal?: AbortSignal
}

interface DemoData {
  readonly projectId: number
  readonly key: string
}

const fmt = (n: number) => n.toLocaleString('en-US')

/**
 * The README's demo: a fresh DuckDB file, 90 days of realistic sample product
 * data captured through the public API with a progress bar, and a summary.
 */
export async function runDemo(options: DemoOptions = {}): Promise<void> {
  const out = options.out ?? process.stdout
  const path = resolve(options.path ?? '.sightline/demo.duckdb')
  const demo = await createDemoData(path, options, out)
  if (!(options.serve ?? true)) return
  // The data was made on a clock pinned at the demo's start, so that it is one consistent picture.
  // The server must not keep that clock: every insight, view or key it records would get the same
  // instant, and "last viewed" orders would be arbitrary. The same file, reopened on the real clock.
  const sightline = await createSightline({ storage: duckdbStorage({ path }) })
  try {
    await serveUntilSignal(sightline, {
      port: options.port,
      out,
      signal: options.signal,
      examples: (url) => demoCurlExamples(url, demo.key, demo.projectId),
    })
  } finally {
    await sightline.close()
  }
}

/** A fresh DuckDB file at `path` with the sample data, a user and a key; prints a summary. */
async function createDemoData(path: string, options: DemoOptions, out: NodeJS.WritableStream): Promise<DemoData> {
  mkdirSync(dirname(path), { recursive: true })
  rmSync(path, { force: true })
  rmSync(`${path}.wal`, { force: true })

  const now = new Date()
  const sightline = await createSightline({ storage: duckdbStorage({ path }), clock: () => now })
  try {
    const org = await sightline.organizations.create({ name: 'Demo Co' })
    const project = await sightline.projects.create({ organizationId: org.id, name: 'Demo web app', timezone: 'Europe/Berlin' })
    const user = await sightline.users.create({ email: 'demo@sightline.dev', firstName: 'Demo', organizationIds: [org.id] })
    const { key } = await sightline.personalApiKeys.create({ userId: user.id, label: 'demo' })

    // Either size alone scales the other (60 events per person), see SampleDataOptions.
    const data = generateSampleData({ end: startOfUtcDay(now), targetEvents: options.events, persons: options.persons })
    out.write(`Sightline demo: ${fmt(data.persons)} persons, about ${fmt(data.estimatedEvents)} events over 90 days, into ${path}\n`)
    const bar = createProgressBar({ total: data.estimatedEvents, label: 'capturing' })
    const started = performance.now()
    let done = 0
    for (const batch of data.batches) {
      await sightline.capture(project.id, batch)
      done += batch.length
      bar.update(done)
    }
    bar.finish()
    const seconds = (performance.now() - started) / 1000

    await createDemoInsights(sightline, project.id, user.id)
    const stats = await sightline.stats.project(project.id, { topEvents: 8 })
    const definitions = await sightline.eventDefinitions.list(project.id)
    const properties = await sightline.propertyDefinitions.list(project.id)
    out.write(
      [
        '',
        `Stored in ${seconds.toFixed(1)} s (${fmt(Math.round(done / seconds))} events/s), ${(diskBytes(path) / 1e6).toFixed(1)} MB on disk:`,
        `  events          ${fmt(stats.events)}  (${stats.firstEventAt?.slice(0, 10)} .. ${stats.lastEventAt?.slice(0, 10)})`,
        `  persons         ${fmt(stats.persons)}  (${fmt(stats.identifiedPersons)} identified, ${fmt(stats.distinctIds)} distinct ids)`,
        `  groups          ${fmt(stats.groups)}`,
        `  definitions     ${definitions.count} event names, ${properties.length} properties`,
        '  top events',
        ...stats.topEvents.map((t) => `    ${t.event.padEnd(22)} ${fmt(t.count).padStart(9)}`),
        '',
        `Saved ${DEMO_INSIGHTS.length} insights and the dashboard "Demo overview", to open in the browser.`,
        `Project ${project.id} (capture token ${project.apiToken})`,
        `Personal API key for ${user.email}: ${key}`,
        '',
      ].join('\n'),
    )
    return { projectId: project.id, key }
  } finally {
    await sightline.close()
  }
}

/** The file and its write-ahead log: before a checkpoint, the data is in the log. */
function diskBytes(path: string): number {
  return [path, `${path}.wal`].reduce((sum, p) => sum + (existsSync(p) ? statSync(p).size : 0), 0)
}

function startOfUtcDay(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()))
}
