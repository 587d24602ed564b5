// The ingestion benchmark's summary (medians over rounds) and its printed report.
import { fmt, fmt1, fmt2, median, round, table, toMb } from './measure.js'
import { END, SEED } from './ingest-children.js'
import { parseTarget } from './targets.js'

/** Aims from the issue, in events per second of capture, on a 2-core machine. */
export const AIMS = { duckdb: 250_000, postgres: 30_000 }

/** Medians over rounds; ratios are taken within a round first, then their median. */
export function summarise(rounds, targets) {
  const ok = (r) => r && !r.error
  const med = (values) => {
    const v = values.filter((x) => typeof x === 'number' && Number.isFinite(x))
    return v.length ? median(v) : undefined
  }
  const generators = rounds.map((r) => r.generator).filter(ok)
  const summary = {
    generator: generators.length
      ? { events: generators[0].events, seconds: med(generators.map((g) => g.seconds)), eventsPerSecond: med(generators.map((g) => g.eventsPerSecond)), peakRssMb: med(generators.map((g) => g.peakRssMb)), peakHeapMb: med(generators.map((g) => g.peakHeapMb)) }
      : undefined,
    targets: {},
  }
  for (const target of targets) {
    const runs = rounds.map((r) => r.targets[target]).filter(ok)
    const floorRuns = rounds.map((r) => r.floors[target]).filter(ok)
    if (runs.length === 0) {
      summary.targets[target] = { error: rounds.map((r) => r.targets[target]?.error).find(Boolean) }
      continue
    }
    const pick = (key) => med(runs.map((x) => x[key]))
    summary.targets[target] = {
      events: runs[0].events,
      persons: runs[0].stored?.persons,
      seconds: pick('seconds'),
      eventsPerSecond: pick('eventsPerSecond'),
      captureSeconds: pick('captureSeconds'),
      captureEventsPerSecond: pick('captureEventsPerSecond'),
      generateSeconds: pick('generateSeconds'),
      openSeconds: pick('openSeconds'),
      closeSeconds: pick('closeSeconds'),
      batchP50Ms: med(runs.map((x) => x.batchMs.p50)),
      batchP99Ms: med(runs.map((x) => x.batchMs.p99)),
      peakRssMb: pick('peakRssMb'),
      peakHeapMb: pick('peakHeapMb'),
      onDiskMb: med(runs.map((x) => x.stored && toMb(x.stored.bytes))),
      floorSeconds: med(floorRuns.map((f) => f.seconds)),
      floorEventsPerSecond: med(floorRuns.map((f) => f.eventsPerSecond)),
      // Capture time over the floor's time, round by round: how much core adds to the storage's own cost.
      captureOverFloor: med(rounds.filter((r) => ok(r.targets[target]) && ok(r.floors[target])).map((r) => round(r.targets[target].captureSeconds / r.floors[target].seconds, 2))),
      aim: AIMS[parseTarget(target).kind],
    }
  }
  const both = rounds.filter((r) => ok(r.targets.duckdb) && ok(r.targets.postgres))
  if (both.length > 0) {
    summary.duckdbOverPostgres = {
      capture: med(both.map((r) => round(r.targets.duckdb.captureEventsPerSecond / r.targets.postgres.captureEventsPerSecond, 2))),
      endToEnd: med(both.map((r) => round(r.targets.duckdb.eventsPerSecond / r.targets.postgres.eventsPerSecond, 2))),
    }
    const floorsBoth = both.filter((r) => ok(r.floors.duckdb) && ok(r.floors.postgres))
    if (floorsBoth.length > 0) summary.duckdbOverPostgres.floor = med(floorsBoth.map((r) => round(r.floors.duckdb.eventsPerSecond / r.floors.postgres.eventsPerSecond, 2)))
  }
  return summary
}

export function formatReport(report) {
  const { summary, machine: m, options, source: src } = report
  const lines = []
  const g = summary.generator
  lines.push(`\nIngestion of ${fmt(g?.events ?? options.events)} sample events (seed ${SEED}, window ending ${END}), batches of ${fmt(options.batch)}, ${options.concurrency} capture(s) in flight${options.rounds > 1 ? `, median of ${options.rounds} rounds` : ''}`)
  lines.push(`machine: ${m.nproc} cores, ${m.memoryGb} GiB, ${m.cpu}, node ${m.node}; load average ${m.loadAverage[0]} at start, ${m.loadAverageAtEnd[0]} at end`)
  lines.push(`code: commit ${src.commit}${src.changedFiles.length ? ` + ${src.changedFiles.length} changed files under packages/` : ''}, built packages sha1 ${src.distSha1}`)
  if (src.distSha1AtEnd !== src.distSha1) lines.push(`WARNING: the built packages changed during the run (sha1 ${src.distSha1AtEnd} at the end): rounds may have measured different code`)

  const header = ['', 'events', 'seconds', 'events/s', 'capture s', 'capture ev/s', 'gen s', 'floor ev/s', 'capture/floor', 'close s', 'batch p50/p99 ms', 'peak RSS MB', 'peak heap MB', 'on disk MB']
  const rows = []
  const errors = []
  if (g) rows.push(['generator alone', fmt(g.events), fmt2(g.seconds), fmt(g.eventsPerSecond), '', '', fmt2(g.seconds), '', '', '', '', fmt1(g.peakRssMb), fmt1(g.peakHeapMb), ''])
  for (const [name, s] of Object.entries(summary.targets)) {
    if (s.error) {
      rows.push([name, 'failed', ...header.slice(2).map(() => '')])
      errors.push(`${name} failed: ${s.error}`)
      continue
    }
    rows.push([
      name, fmt(s.events), fmt2(s.seconds), fmt(s.eventsPerSecond), fmt2(s.captureSeconds), fmt(s.captureEventsPerSecond), fmt2(s.generateSeconds),
      fmt(s.floorEventsPerSecond), s.captureOverFloor === undefined ? '' : `${fmt1(s.captureOverFloor)}x`, fmt2(s.closeSeconds),
      `${fmt(s.batchP50Ms)}/${fmt(s.batchP99Ms)}`, fmt1(s.peakRssMb), fmt1(s.peakHeapMb), fmt1(s.onDiskMb),
    ])
  }
  lines.push('', table(header, rows))
  if (errors.length > 0) lines.push('', ...errors)
  lines.push('', [
    'seconds: the capture loop, generating included; capture: the loop less the generator; gen s: the generator inside that loop.',
    "floor: the storage's own insertEvents of the same rows, one transaction per batch, no persons or definitions (same run).",
    'close: sightline.close() after the loop (DuckDB checkpoints there). Peak RSS: the child process, kernel maxRSS.',
  ].join('\n'))

  for (const [name, s] of Object.entries(summary.targets)) {
    if (s.error) continue
    const verdict = s.aim ? `aim ${fmt(s.aim)} events/s of capture: ${s.captureEventsPerSecond >= s.aim ? 'met' : `missed, at ${fmt2(s.captureEventsPerSecond / s.aim)}x of it`}` : ''
    lines.push(`\n${name}: ${fmt(s.persons)} persons; ${verdict}`)
    report.rounds.forEach((r, i) => {
      const x = r.targets[name]
      if (!x || x.error) {
        lines.push(`  round ${i + 1}: error: ${x?.error}`)
        return
      }
      const check = x.stored && x.stored.rows !== x.captured.stored ? `, MISMATCH: ${fmt(x.stored.rows)} rows in the table` : ''
      const floor = r.floors[name]
      lines.push(`  round ${i + 1}: capture ${fmt(x.captureEventsPerSecond)} ev/s, floor ${floor?.error ? `error: ${floor.error}` : fmt(floor?.eventsPerSecond)} ev/s, load ${fmt2(x.loadAverage)}; stored ${fmt(x.captured.stored)}, ${fmt(x.captured.duplicates)} duplicates, ${fmt(x.captured.warnings)} warnings${check}`)
      lines.push(`    capture ev/s by tenth of the run: ${x.captureEventsPerSecondByTenth.map(fmt).join(' ')}`)
      if (x.trace) {
        lines.push('    statements (wall time inside capture):')
        for (const t of x.trace.slice(0, 14)) lines.push(`      ${t.kind.padEnd(46)} ${fmt(t.count).padStart(7)} x ${fmt2(t.seconds).padStart(7)} s ${(t.shareOfCapture * 100).toFixed(1).padStart(5)}%`)
      }
      if (x.profile?.stages) {
        lines.push(`    CPU profile (${fmt2(x.profile.totalSeconds)} s sampled), by stage (innermost on the stack):`)
        for (const p of x.profile.stages.slice(0, 18)) lines.push(`      ${p.name.padEnd(58)} ${fmt2(p.seconds).padStart(7)} s ${(p.share * 100).toFixed(1).padStart(5)}% ${fmt1((p.seconds * 1e6) / x.events).padStart(6)} µs/event`)
        lines.push('    self time, top functions:')
        for (const p of x.profile.top.slice(0, 10)) lines.push(`      ${p.name.padEnd(58)} ${fmt2(p.seconds).padStart(7)} s ${(p.share * 100).toFixed(1).padStart(5)}%  ${p.where}`)
      }
    })
  }
  const ratio = summary.duckdbOverPostgres
  if (ratio) {
    lines.push(`\nDuckDB / Postgres throughput, same run${options.rounds > 1 ? ' (median of per-round ratios)' : ''}: capture ${fmt2(ratio.capture)}x, end to end ${fmt2(ratio.endToEnd)}x${ratio.floor ? `, floors ${fmt2(ratio.floor)}x` : ''}`)
  }
  return lines.join('\n')
}
