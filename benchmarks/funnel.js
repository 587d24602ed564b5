// The funnel benchmark: the sample data captured into each target, then a 3-step funnel in each
// order type and an ordered one whose middle step is a frequent event, each timed next to the
// floor `SELECT distinct_id, count(*) FROM events WHERE <range> GROUP BY 1` in the same child and
// round (shared/reference/performance.md). One child process per target.
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { END, SEED } from './ingest-children.js'
import { fmt, fmt1, fmt2, machine, median, round, runInChild, sourceState, table } from './measure.js'
import { DEFAULT_PG_URL, placeTarget, removeTarget } from './targets.js'
import { FUNNELS, RANGE } from './funnel-children.js'

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url))

/** Ratio aims of issue 5 at 10M events (informative at other sizes): DuckDB, and Postgres for ordered. */
export const FUNNEL_AIMS = {
  duckdb: { 'ordered, 3 steps': 4, 'strict, 3 steps': 10, 'unordered, 3 steps': 15, 'ordered, frequent middle step': 10 },
  postgres: { 'ordered, 3 steps': 1.5 },
}

export async function runFunnelBenchmark({ events, batch, targets, rounds }) {
  const pgUrl = process.env.SIGHTLINE_PG_URL ?? DEFAULT_PG_URL
  const started = new Date()
  const report = { benchmark: 'funnel', startedAt: started.toISOString(), machine: machine(), source: sourceState(), options: { events, batch, targets, rounds, end: END, seed: SEED, range: RANGE }, aims: FUNNEL_AIMS, targets: {} }
  console.error(`funnel: ${fmt(events)} events, targets ${targets.join(', ')}, ${rounds} round(s) after a warm-up`)
  for (const target of targets) {
    const place = placeTarget(target, pgUrl)
    try {
      report.targets[target] = await runInChild({ kind: 'funnel-target', place, events, batch, rounds })
    } catch (error) {
      report.targets[target] = { error: String(error?.message ?? error) }
    } finally {
      await removeTarget(place).catch((error) => console.error(`cleanup of ${target} failed: ${error.message}`))
    }
  }
  report.summary = summarise(report)
  report.finishedAt = new Date().toISOString()
  report.machine.loadAverageAtEnd = os.loadavg().map((l) => round(l, 2))
  console.log(formatFunnelReport(report))
  mkdirSync(RESULTS_DIR, { recursive: true })
  const file = path.join(RESULTS_DIR, `funnel-${started.toISOString().slice(0, 19).replace(/:/g, '-')}Z.json`)
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`)
  console.log(`\nresults: ${path.relative(process.cwd(), file)}`)
  return report
}

/** Medians over rounds: milliseconds, and the ratio to the floor taken within each round. */
function summarise(report) {
  const out = {}
  for (const [target, r] of Object.entries(report.targets)) {
    if (r.error) continue
    out[target] = {
      floorMs: round(median(r.measured.floor) * 1000, 1),
      funnels: Object.fromEntries(
        FUNNELS.map((f) => {
          const times = r.measured.funnels[f.name]
          const ratios = times.map((s, i) => s / r.measured.floor[i])
          return [f.name, { ms: round(median(times) * 1000, 1), ratio: round(median(ratios), 2) }]
        }),
      ),
    }
  }
  return out
}

export function formatFunnelReport(report) {
  const lines = []
  for (const [target, r] of Object.entries(report.targets)) {
    if (r.error) {
      lines.push(`${target}: failed: ${r.error}`)
      continue
    }
    const s = report.summary[target]
    const kind = target.startsWith('postgres') ? 'postgres' : 'duckdb'
    lines.push(
      `\n${target}: ${fmt(r.events)} events loaded in ${fmt1(r.loadSeconds)} s; floor ${fmt1(s.floorMs)} ms (${fmt(r.floorRows)} distinct ids); frequent step ${r.frequent.event} (${fmt2(r.frequent.share * 100)}% of events); peak RSS ${fmt(r.peakRssMb)} MB`,
    )
    lines.push(
      table(
        ['funnel', 'ms', 'x floor', 'aim (10M)', 'counts'],
        FUNNELS.map((f) => [f.name, fmt1(s.funnels[f.name].ms), `${fmt2(s.funnels[f.name].ratio)}x`, FUNNEL_AIMS[kind][f.name] ? `${FUNNEL_AIMS[kind][f.name]}x` : '-', JSON.stringify(r.results[f.name])]),
      ),
    )
  }
  return lines.join('\n')
}
