// The analysis benchmarks (funnel, trend, retention, paths, correlation): the sample data captured
// into each target once, then each suite's queries timed next to its floor in the same child and
// round (shared/reference/performance.md). One child process per target.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { END, SEED } from './ingest-children.js'
import { fmt, fmt1, fmt2, machine, median, round, runInChild, sourceState, table } from './measure.js'
import { SUITES } from './suites.js'
import { chdbPlace, DEFAULT_PG_URL, placeTarget, removeTarget } from './targets.js'

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url))

/**
 * With `keepData`, a target's data lives under that directory (DuckDB) or in a named schema
 * (Postgres) and is loaded once: later runs with the same target and event count reuse it.
 */
function keptPlace(target, pgUrl, keepData, events) {
  mkdirSync(keepData, { recursive: true })
  const slug = `${target.replace(/[^a-z0-9]+/gi, '_')}_${events}`
  const marker = path.join(path.resolve(keepData), `${slug}.json`)
  const place = placeTarget(target, pgUrl)
  const kept =
    place.kind === 'duckdb'
      ? { ...place, dir: undefined, path: path.join(path.resolve(keepData), `${slug}.duckdb`) }
      : place.kind === 'chdb'
        ? chdbPlace(target, path.join(path.resolve(keepData), slug))
        : { ...place, schema: `bench_kept_${slug}`.toLowerCase() }
  // The kept data lives under keepData: the temporary directory placed for this run is not used.
  if (place.dir) rmSync(place.dir, { recursive: true, force: true })
  const loaded = existsSync(marker) ? JSON.parse(readFileSync(marker, 'utf8')) : null
  return { place: kept, loaded, marker }
}

export async function runAnalysisBenchmark({ suites, events, batch, targets, rounds, keepData }) {
  const pgUrl = process.env.SIGHTLINE_PG_URL ?? DEFAULT_PG_URL
  const started = new Date()
  const aims = Object.fromEntries(suites.map((s) => [s, SUITES[s].aims]))
  const floors = Object.fromEntries(suites.map((s) => [s, SUITES[s].floor.label]))
  const report = { benchmark: suites.join('+'), startedAt: started.toISOString(), machine: machine(), source: sourceState(), options: { suites, events, batch, targets, rounds, end: END, seed: SEED }, floors, aims, targets: {} }
  console.error(`${suites.join(', ')}: ${fmt(events)} events, targets ${targets.join(', ')}, ${rounds} round(s) after a warm-up`)
  for (const target of targets) {
    const kept = keepData ? keptPlace(target, pgUrl, keepData, events) : null
    const place = kept?.place ?? placeTarget(target, pgUrl)
    try {
      report.targets[target] = await runInChild({ kind: 'analysis-target', place, suites, events, batch, rounds, loaded: kept?.loaded ?? null })
      const r = report.targets[target]
      if (kept && !kept.loaded && !r.error) writeFileSync(kept.marker, `${JSON.stringify({ projectId: r.projectId, events: r.events, loadSeconds: r.loadSeconds })}\n`)
    } catch (error) {
      report.targets[target] = { error: String(error?.message ?? error) }
    } finally {
      if (!kept) await removeTarget(place).catch((error) => console.error(`cleanup of ${target} failed: ${error.message}`))
    }
  }
  report.summary = summarise(report)
  report.finishedAt = new Date().toISOString()
  report.machine.loadAverageAtEnd = os.loadavg().map((l) => round(l, 2))
  console.log(formatAnalysisReport(report))
  mkdirSync(RESULTS_DIR, { recursive: true })
  const file = path.join(RESULTS_DIR, `${suites.join('+')}-${started.toISOString().slice(0, 19).replace(/:/g, '-')}Z.json`)
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`)
  console.log(`\nresults: ${path.relative(process.cwd(), file)}`)
  return report
}

/** Medians over rounds: milliseconds, and the ratio to the floor taken within each round. */
function summarise(report) {
  const out = {}
  for (const [target, r] of Object.entries(report.targets)) {
    if (r.error) continue
    out[target] = {}
    for (const [suite, s] of Object.entries(r.suites)) {
      out[target][suite] = {
        floorMs: round(median(s.measured.floor) * 1000, 1),
        queries: Object.fromEntries(
          Object.entries(s.measured.queries).map(([name, times]) => {
            const ratios = times.map((t, i) => t / s.measured.floor[i])
            return [name, { ms: round(median(times) * 1000, 1), ratio: round(median(ratios), 2) }]
          }),
        ),
      }
    }
  }
  return out
}

export function formatAnalysisReport(report) {
  const lines = []
  for (const [target, r] of Object.entries(report.targets)) {
    if (r.error) {
      lines.push(`${target}: failed: ${r.error}`)
      continue
    }
    const kind = target.startsWith('postgres') ? 'postgres' : target.startsWith('chdb') ? 'chdb' : 'duckdb'
    lines.push(`\n${target}: ${fmt(r.events)} events ${r.reused ? `reused (loaded earlier in ${fmt1(r.loadSeconds)} s)` : `loaded in ${fmt1(r.loadSeconds)} s`}; frequent event ${r.frequent.event} (${fmt2(r.frequent.share * 100)}% of events); peak RSS ${fmt(r.peakRssMb)} MB`)
    for (const [suite, s] of Object.entries(report.summary[target])) {
      const aims = report.aims[suite]?.[kind] ?? {}
      lines.push(`\n${suite}: floor ${fmt1(s.floorMs)} ms (${fmt(r.suites[suite].floorRows)} rows): ${report.floors[suite]}`)
      lines.push(
        table(
          ['query', 'ms', 'x floor', 'aim (10M)', 'answer'],
          Object.entries(s.queries).map(([name, q]) => [name, fmt1(q.ms), `${fmt2(q.ratio)}x`, aims[name] ? `${aims[name]}x` : '-', JSON.stringify(r.suites[suite].answers[name])]),
        ),
      )
    }
  }
  return lines.join('\n')
}
