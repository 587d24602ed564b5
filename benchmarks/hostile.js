// The hostile-load check (issue 13): a Sightline server in a child process, on one target, under
// normal traffic from one tenant while another client sends the worst requests the budgets allow
// (and the ones they refuse); then one project's insight writes while another floods capture.
// Localhost only, bounded in time. Reports whether the server survived, its peak RSS (the
// kernel's maxRSS), 5xx answers, the slowest answer against timeout + 1 s, and latencies.
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { createSightline } from '@sightline/core'
import { createHandler, toNodeHandler } from '@sightline/http-adapter'
import { generateSampleData } from '@sightline/demo'
import { createServer } from 'node:http'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { END, SEED } from './ingest-children.js'
import { machine, now, round, seconds } from './measure.js'
import { openStorage, placeTarget, removeTarget } from './targets.js'

const SELF = fileURLToPath(import.meta.url)
const KEY = 'phx_hostile_bench_key_0123456789abcdef'
/** Distinct values of the `plan_id` property: the "few thousand breakdown values" of the issue. */
const VALUES = 5000

// ---------------------------------------------------------------------------------------------
// The server child: loads data, serves, reports its peak RSS when told to stop.

async function serverChild(task) {
  const end = new Date(END)
  const place = task.place
  const opened = await openStorage(place)
  const sightline = await createSightline({ storage: opened.storage, clock: () => end, queries: { timeoutMs: task.timeoutMs, ...(process.env.HOSTILE_MAXC ? { maxConcurrentPerProject: Number(process.env.HOSTILE_MAXC) } : {}) } })
  const attackerOrg = await sightline.organizations.create({ name: 'Attacker' })
  const normalOrg = await sightline.organizations.create({ name: 'Normal' })
  const attacker = await sightline.projects.create({ organizationId: attackerOrg.id, name: 'Attacker' })
  const normal = await sightline.projects.create({ organizationId: normalOrg.id, name: 'Normal' })
  const user = await sightline.users.create({ email: 'bench@hostile.test', firstName: 'Bench', organizationIds: [attackerOrg.id, normalOrg.id] })
  const { key } = await sightline.personalApiKeys.create({ userId: user.id, label: 'bench' })
  // Both projects get the sample data; the attacker's also gets VALUES distinct plan ids.
  for (const project of [attacker, normal]) {
    const data = generateSampleData({ seed: SEED, targetEvents: task.events, batchSize: 5000, end })
    for (const batch of data.batches) await sightline.capture(project.id, batch)
  }
  const extra = Array.from({ length: VALUES * 4 }, (_, i) => ({
    event: '$pageview',
    distinctId: `plan-user-${i % 2000}`,
    timestamp: new Date(end.getTime() - (i % (13 * 24 * 60)) * 60_000).toISOString(),
    properties: { plan_id: `plan-${i % VALUES}` },
  }))
  for (let i = 0; i < extra.length; i += 5000) await sightline.capture(attacker.id, extra.slice(i, i + 5000))
  const insight = await sightline.insights.create(normal.id, { name: 'Signups', filters: { insight: 'TRENDS', events: [{ id: 'signup' }] } })

  const server = createServer(toNodeHandler(createHandler(sightline)))
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  // How long the event loop was blocked: what every other request waits behind.
  const lag = monitorEventLoopDelay({ resolution: 10 })
  process.send({
    ready: true,
    port: server.address().port,
    key,
    attacker: { id: attacker.id, token: attacker.apiToken },
    normal: { id: normal.id, token: normal.apiToken, insight: insight.id },
  })
  process.on('message', async (message) => {
    if (message === 'lag-start') return lag.enable()
    if (message === 'lag-stop') {
      lag.disable()
      process.send({ lag: { p50Ms: round(lag.percentile(50) / 1e6, 1), p99Ms: round(lag.percentile(99) / 1e6, 1), maxMs: round(lag.max / 1e6, 1) } })
      return lag.reset()
    }
    if (message !== 'stop') return
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    await sightline.close()
    await opened.close()
    process.send({ maxRssMb: round(process.resourceUsage().maxRSS / 1024, 0) })
    process.exit(0)
  })
}

// ---------------------------------------------------------------------------------------------
// The parent: traffic and measures.

const percentile = (values, p) => {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  return round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))], 3)
}
const summary = (values) => ({ n: values.length, p50: percentile(values, 0.5), p99: percentile(values, 0.99), max: percentile(values, 1) })

function client(origin, key) {
  const stats = { statuses: {}, fiveXx: 0, errors: 0, slowest: 0 }
  const call = async (method, path, body) => {
    const t = now()
    try {
      const response = await fetch(`${origin}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(120_000),
      })
      await response.arrayBuffer()
      stats.statuses[response.status] = (stats.statuses[response.status] ?? 0) + 1
      if (response.status >= 500 && response.status !== 504) stats.fiveXx++
      return { status: response.status, seconds: seconds(t) }
    } catch (error) {
      stats.errors++
      return { status: 0, seconds: seconds(t), error: String(error) }
    } finally {
      stats.slowest = Math.max(stats.slowest, seconds(t))
    }
  }
  return { call, stats }
}

/** Runs `body()` in `n` loops until `deadline`; collects each call's seconds by name. */
async function loops(n, deadline, body) {
  await Promise.all(Array.from({ length: n }, async (_, i) => {
    while (performance.now() < deadline) await body(i)
  }))
}

const pageview = [{ id: '$pageview', type: 'events', order: 0 }]

/** The worst requests the default budgets still answer, and some they refuse at once. */
function attacks(project) {
  const base = `/api/projects/${project}/insights`
  const longValues = Array.from({ length: 1000 }, (_, i) => `${'x'.repeat(64)}-${i}`)
  const fifty = Array.from({ length: 50 }, (_, i) => ({ id: '$pageview', type: 'events', order: i }))
  return [
    // 10,080+ minute buckets x 3 rows (2 plan ids and Other): ~30k cells, ~18 MB of answer, under the default budgets.
    ['minute x breakdown', 'POST', `${base}/trend/`, { events: pageview, date_from: '-7d', interval: 'minute', breakdown: 'plan_id', breakdown_limit: 2 }],
    // 50 series x 49 hours: ~2,450 cells, each URL repeating the 50 series (~9 MB).
    ['50 series hourly', 'POST', `${base}/trend/`, { events: fifty, date_from: '-2d', interval: 'hour' }],
    // A 1000-value filter of long values, daily over 90 days.
    ['long filter', 'POST', `${base}/trend/`, { events: pageview, date_from: '-90d', properties: [{ key: 'plan_id', value: longValues, operator: 'is_not', type: 'event' }] }],
    // A deep HogQL breakdown (refused or answered by the parser's bounds, never a frozen loop).
    ['deep hogql', 'POST', `${base}/trend/`, { events: pageview, breakdown_type: 'hogql', breakdown: `${'not '.repeat(150)}true` }],
    // Refused before any work.
    ['-1000y by minute', 'POST', `${base}/trend/`, { events: pageview, date_from: '-1000y', interval: 'minute' }],
    ['100 series', 'POST', `${base}/trend/`, { events: Array.from({ length: 100 }, (_, i) => ({ id: '$pageview', order: i })), breakdown: 'plan_id', breakdown_limit: 1000, interval: 'hour', date_from: '-365d' }],
    ['50k filter values', 'POST', `${base}/trend/`, { events: pageview, properties: [{ key: 'plan_id', value: Array.from({ length: 50_000 }, (_, i) => `v${i}`) }] }],
  ]
}

async function measureTarget(spec, options) {
  const place = placeTarget(spec, process.env.SIGHTLINE_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test')
  const child = fork(SELF, ['--hostile-server', JSON.stringify({ place, events: options.events, timeoutMs: options.timeoutMs })], {
    stdio: 'inherit',
    // SIGHTLINE_BENCH_PROFILE=DIR writes the server's CPU profile there.
    execArgv: process.env.SIGHTLINE_BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SIGHTLINE_BENCH_PROFILE}`] : [],
  })
  let exited = null
  const exitedPromise = new Promise((resolve) => child.on('exit', (code, signal) => resolve((exited = { code, signal }))))
  const messages = []
  child.on('message', (m) => messages.push(m))
  const loadStart = now()
  while (!messages.some((m) => m.ready)) {
    if (exited) throw new Error(`the server child exited during the load: ${JSON.stringify(exited)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const loadSeconds = round(seconds(loadStart), 1)
  const info = messages.find((m) => m.ready)
  const origin = `http://127.0.0.1:${info.port}`
  const ms = options.seconds * 1000

  // Normal traffic: a small trend, the insight list and a small capture batch, in the normal project.
  const normalTraffic = (deadline) => {
    const c = client(origin, info.key)
    const times = []
    const byKind = { trend: [], list: [], capture: [] }
    const done = loops(options.normalClients, deadline, async (i) => {
      const r =
        i % 3 === 0
          ? await c.call('POST', `/api/projects/${info.normal.id}/insights/trend/`, { events: [{ id: '$pageview', math: 'dau' }], date_from: '-7d' })
          : i % 3 === 1
            ? await c.call('GET', `/api/projects/${info.normal.id}/insights/?limit=10`)
            : await c.call('POST', '/batch/', { api_key: info.normal.token, batch: [{ event: 'bench', distinct_id: `n-${i}`, properties: {} }] })
      times.push(r.seconds)
      byKind[['trend', 'list', 'capture'][i % 3]].push(r.seconds)
    })
    return { c, times, byKind, done }
  }

  // 1. Baseline: normal traffic alone.
  const baseline = normalTraffic(performance.now() + ms)
  await baseline.done

  // 2. Attack: normal traffic while attackers loop over the worst requests.
  child.send('lag-start')
  const deadline = performance.now() + ms
  const during = normalTraffic(deadline)
  // The attackers run in a process of their own: reading their 50 MB answers must not slow the
  // normal clients' own measurements in this one.
  const attackerChild = fork(SELF, ['--hostile-attacker', JSON.stringify({ origin, key: info.key, project: info.attacker.id, ms, attackers: options.attackers })], { stdio: 'inherit' })
  const attackReport = new Promise((resolve) => attackerChild.on('message', resolve))
  const [, attack] = await Promise.all([during.done, attackReport])
  child.send('lag-stop')
  while (!messages.some((m) => m.lag)) await new Promise((resolve) => setTimeout(resolve, 20))
  const attackLag = messages.find((m) => m.lag).lag

  // 3. Writes: the normal project's insight PATCHes while the attacker's project floods capture.
  const floodDeadline = performance.now() + ms
  const flooder = client(origin, info.key)
  const writer = client(origin, info.key)
  const writeTimes = []
  let flooded = 0
  await Promise.all([
    loops(options.flooders, floodDeadline, async (i) => {
      const batch = Array.from({ length: 500 }, (_, k) => ({ event: '$pageview', distinct_id: `flood-${i}-${k % 50}`, properties: { k } }))
      const r = await flooder.call('POST', '/batch/', { api_key: info.attacker.token, batch })
      if (r.status === 200) flooded += batch.length
    }),
    loops(1, floodDeadline, async () => {
      const r = await writer.call('PATCH', `/api/projects/${info.normal.id}/insights/${info.normal.insight}/`, { name: `Signups ${Math.random()}` })
      writeTimes.push(r.seconds)
    }),
  ])

  const survived = exited === null
  let maxRssMb = null
  if (survived) {
    child.send('stop')
    await exitedPromise
    maxRssMb = messages.find((m) => m.maxRssMb !== undefined)?.maxRssMb ?? null
  }
  await removeTarget(place)
  const all = [baseline.c, during.c, flooder, writer].map((c) => c.stats).concat([attack.stats])
  return {
    target: spec,
    loadSeconds,
    survived,
    exit: exited,
    maxRssMb,
    fiveXx: all.reduce((n, s) => n + s.fiveXx, 0),
    connectionErrors: all.reduce((n, s) => n + s.errors, 0),
    slowestAnswerSeconds: round(Math.max(...all.map((s) => s.slowest)), 2),
    timeoutSeconds: options.timeoutMs / 1000,
    eventLoopLagDuringAttack: attackLag,
    normal: {
      baseline: summary(baseline.times),
      duringAttack: summary(during.times),
      duringAttackByKind: Object.fromEntries(Object.entries(during.byKind).map(([k, v]) => [k, summary(v)])),
      statuses: during.c.stats.statuses,
    },
    attacks: attack.attacks,
    writes: { insightPatch: summary(writeTimes), statuses: writer.stats.statuses, floodedEventsPerSecond: round(flooded / options.seconds, 0), floodStatuses: flooder.stats.statuses },
  }
}

export async function runHostile(values) {
  const options = {
    events: Number(values.events ?? 100_000),
    seconds: Number(values.seconds ?? 30),
    timeoutMs: Number(values['timeout-ms'] ?? 15_000),
    normalClients: 6,
    attackers: 3,
    flooders: 8,
  }
  const targets = (values.targets ?? 'duckdb,postgres').split(',')
  const results = []
  for (const spec of targets) {
    process.stderr.write(`hostile: ${spec}, ${options.events} sample events per project, ${options.seconds} s per phase\n`)
    results.push(await measureTarget(spec, options))
  }
  const report = { machine: machine(), options, results }
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
  return report
}

/** The attacker process: loops over the attacks until its time is up, then reports. */
async function attackerChild(task) {
  const deadline = performance.now() + task.ms
  const attacker = client(task.origin, task.key)
  const times = {}
  const list = attacks(task.project)
  await loops(task.attackers, deadline, async () => {
    for (const [name, method, path, body] of list) {
      if (performance.now() >= deadline) return
      const r = await attacker.call(method, path, body)
      ;(times[name] ??= { statuses: {}, seconds: [] }).seconds.push(r.seconds)
      times[name].statuses[r.status] = (times[name].statuses[r.status] ?? 0) + 1
    }
  })
  process.send({ stats: attacker.stats, attacks: Object.fromEntries(Object.entries(times).map(([name, a]) => [name, { statuses: a.statuses, ...summary(a.seconds) }])) }, () => process.exit(0))
}

if (process.argv[2] === '--hostile-attacker') attackerChild(JSON.parse(process.argv[3]))

if (process.argv[2] === '--hostile-server') {
  serverChild(JSON.parse(process.argv[3])).catch((error) => {
    process.stderr.write(`hostile server: ${error.stack ?? error}\n`)
    process.exit(1)
  })
}
