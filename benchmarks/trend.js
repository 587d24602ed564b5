// The trend benchmark: the sample data captured into each target, then daily total (UTC and
// America/New_York), daily uniques, weekly active, a top-10 breakdown with Other and p90, each
// timed next to the floor `SELECT count(*) FROM events WHERE event = '$pageview' AND <30 days>`
// in the same child and the same round. One child process per target.
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { END, SEED } from './ingest-children.js'
import { fmt, fmt1, fmt2, machine, median, round, runInChild, sourceState, table } from './measure.js'
import { DEFAULT_PG_URL, placeTarget, removeTarget } from './targets.js'
import { QUERIES, RANGE } from './trend-children.js'

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url))

/** Ratio targets of issue 6 at 10M events on DuckDB (informative at other sizes). */
export const TREND_AIMS = {
  'daily total, UTC': 2,
  'daily total, America/New_York': 2,
  'daily dau, America/New_York': 6,
  'daily weekly_active, UTC': 12,
  'top-10 $pathname + Other, UTC': 15,
  'daily p90 of load_time_ms, UTC': 15,
}

export async function runTrendBenchmark({ events, batch, targets, rounds }) {
  const pgUrl = process.env.SIGHTLINE_PG_URL ?? DEFAULT_PG_URL
  const started = new Date()
  const report = { benchmark: 'trend', startedAt: started.toISOString(), machine: machine(), source: sourceState(), options: { events, batch, targets, rounds, end: END, seed: SEED, range: RANGE }, aims: TREND_AIMS, targets: {} }
  console.error(`trend: ${fmt(events)} events, targets ${targets.join(', ')}, ${rounds} round(s) after a warm-up`)
  for (const target of targets) {
    const place = placeTarget(target, pgUrl)
    try {
      report.targets[target] = await runInChild({ kind: 'trend-target', place, events, batch, rounds })
    } catch (error) {
      report.targets[target] = { error: String(error?.message ?? error) }
    } finally {
      await removeTarget(place).catch((error) => console.error(`cleanup of ${target} failed: ${error.message}`))
    }
  }
  report.summary = summarise(report)
  report.finishedAt = new Date().toISOString()
  report.machine.loadAverageAtEnd = os.loadavg().map((l) => round(l, 2))
  console.log(formatTrendReport(report))
  mkdirSync(RESULTS_DIR, { recursive: true })
  const file = path.join(RESULTS_DIR, `trend-${started.toISOString().slice(0, 19).replace(/:/g, '-')}Z.json`)
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`)
  console.log(`\nresults: ${path.relative(process.cwd(), file)}`)
  return report
}

/** Medians over rounds: milliseconds, and the ratio to the floor taken within each round. */
function summarise(report) {
  const out = {}
  for (const [target, r] of Object.entries(report.targets)) {
    if (r.error) continue
    const floorMs = median(r.measured.floor) * 1000
    out[target] = {
      floorMs: round(floorMs, 1),
      queries: Object.fromEntries(
        QUERIES.map((q) => {
          const times = r.measured.queries[q.name]
          const ratios = times.map((s, i) => s / r.measured.floor[i])
          return [q.name, { ms: round(median(times) * 1000, 1), ratio: round(median(ratios), 2) }]
        }),
      ),
    }
  }
  return out
}

export function formatTrendReport(report) {
  const lines = []
  for (const [target, r] of Object.entries(report.targets)) {
    if (r.error) {
      lines.push(`${target}: failed: ${r.error}`)
      continue
    }
    const s = report.summary[target]
    lines.push(`\n${target}: ${fmt(r.events)} events loaded in ${fmt1(r.loadSeconds)} s; floor ${fmt1(s.floorMs)} ms (${fmt(r.floorCount)} pageviews in range); peak RSS ${fmt(r.peakRssMb)} MB`)
    lines.push(
      table(
        ['query', 'ms', 'x floor', 'aim (10M DuckDB)', 'answer'],
        QUERIES.map((q) => [q.name, fmt1(s.queries[q.name].ms), `${fmt2(s.queries[q.name].ratio)}x`, `${TREND_AIMS[q.name]}x`, JSON.stringify(r.results[q.name])]),
      ),
    )
  }
  return lines.join('\n')
}
