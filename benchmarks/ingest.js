// The ingestion benchmark: sample events through `sightline.capture`, one child process per
// measurement, next to two references measured in the same run: the generator alone, and each
// storage's own bulk insert of the same events ("floor"). The children are in
// ingest-children.js, the summary and the printed report in ingest-report.js.
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { END, SEED } from './ingest-children.js'
import { AIMS, formatReport, summarise } from './ingest-report.js'
import { fmt, machine, round, runInChild, sourceState } from './measure.js'
import { summariseProfile } from './profile.js'
import { DEFAULT_PG_URL, inspectTarget, placeTarget, removeTarget } from './targets.js'

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url))

/**
 * Each round runs the generator alone, then per target its floor and its capture, each in a
 * fresh process. Rounds interleave the measurements, so drift on a shared machine hits them
 * alike; the figures printed are medians over rounds.
 */
export async function runIngest(options) {
  const { events, batch, targets, rounds, floors, concurrency, trace, profile, clientUuids = false } = options
  const pgUrl = process.env.SIGHTLINE_PG_URL ?? DEFAULT_PG_URL
  const profileDir = profile ? mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-profile-')) : undefined
  const started = new Date()
  const report = {
    benchmark: 'ingest',
    startedAt: started.toISOString(),
    machine: machine(),
    source: sourceState(),
    options: { events, batch, targets, rounds, floors, concurrency, end: END, seed: SEED, trace, profile, clientUuids },
    aims: AIMS,
    summary: undefined,
    rounds: [],
  }
  console.error(`ingest: ${fmt(events)} events, batches of ${fmt(batch)}, targets ${targets.join(', ')}, ${rounds} round(s)`)

  for (let r = 1; r <= rounds; r++) {
    const label = rounds > 1 ? ` (round ${r}/${rounds})` : ''
    const execArgv = (name) => (profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profileDir, `${name}-${r}`)}`] : [])
    const measured = { generator: undefined, floors: {}, targets: {} }
    const common = { events, batch, label }
    measured.generator = await runInChild({ kind: 'ingest-generate', ...common })
    for (const target of targets) {
      if (floors) measured.floors[target] = await measureOnTarget({ kind: 'ingest-floor', ...common }, target, pgUrl, {})
      measured.targets[target] = await measureOnTarget({ kind: 'ingest-target', ...common, concurrency, trace, clientUuids }, target, pgUrl, { execArgv: execArgv(target) })
      if (profileDir) measured.targets[target].profile = summariseProfileDir(path.join(profileDir, `${target}-${r}`))
    }
    report.rounds.push(measured)
  }
  report.summary = summarise(report.rounds, targets)
  // Others may rebuild the packages while a long run goes on: then the rounds measured two builds.
  report.source.distSha1AtEnd = sourceState().distSha1
  report.finishedAt = new Date().toISOString()
  report.machine.loadAverageAtEnd = os.loadavg().map((l) => round(l, 2))

  console.log(formatReport(report))
  if (profileDir) console.log(`\nCPU profiles (Chrome DevTools, or node benchmarks/profile.js FILE): ${profileDir}`)
  mkdirSync(RESULTS_DIR, { recursive: true })
  const file = path.join(RESULTS_DIR, `ingest-${started.toISOString().slice(0, 19).replace(/:/g, '-')}Z.json`)
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`)
  console.log(`\nresults: ${path.relative(process.cwd(), file)}`)
  return report
}

/** Places a fresh database for one child, runs it, reads what it stored, removes the database. */
async function measureOnTarget(task, target, pgUrl, childOptions) {
  const place = placeTarget(target, pgUrl)
  let result
  try {
    result = await runInChild({ ...task, place }, childOptions)
    if (!result.error) result.stored = await inspectTarget(place)
  } catch (error) {
    result = { ...result, error: result?.error ?? String(error?.message ?? error) }
  } finally {
    await removeTarget(place).catch((error) => console.error(`cleanup of ${target} failed: ${error.message}`))
  }
  return result
}

function summariseProfileDir(dir) {
  try {
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))
    return file ? { file: path.join(dir, file), ...summariseProfile(path.join(dir, file), { top: 15 }) } : undefined
  } catch (error) {
    return { error: error.message }
  }
}
