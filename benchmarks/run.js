// Benchmark runner: `node benchmarks/run.js ingest|funnel|trend|retention|paths|correlation|analyses [--events N] [--batch N] [--targets duckdb,postgres] ...`.
// Imports the built packages (dist/): run `pnpm build` (or `npx tsc -b`) first; `pnpm bench` does.
import { parseArgs } from 'node:util'
import { CHILD_FLAG } from './measure.js'
import { floorChild, generateOnlyChild, ingestTargetChild } from './ingest-children.js'
import { runIngest } from './ingest.js'
import { runAnalysisBenchmark } from './analysis.js'
import { runHostile } from './hostile.js'
import { analysisTargetChild } from './analysis-child.js'
import { SUITES } from './suites.js'
import { parseTarget, TARGETS } from './targets.js'

const USAGE = `usage: node benchmarks/run.js ingest [options]

  --events N        events to generate and capture (default 100000)
  --batch N         events per capture call (default 5000)
  --targets LIST    comma-separated, from ${TARGETS.join(', ')} (default duckdb,postgres; chdb is ClickHouse
                    through chDB with a DuckDB companion file, for the analysis benchmarks); DuckDB with settings
                    as duckdb:key=value+key=value, e.g. duckdb,duckdb:checkpoint_threshold=1GB
  --rounds N        repeat everything N times, interleaved; print medians (default 1)
  --skip-floors     do not measure each storage's bare insertEvents of the same rows
  --concurrency N   captures in flight at once (default 1: each awaited before the next)
  --trace           time every database statement by kind (wraps the driver; slightly slower)
  --client-uuids    send each event with a client uuid (a UUIDv7 of its time, as posthog-js does), so
                    capture checks them against the stored events
  --profile         write a CPU profile per capture child (node --cpu-prof) and summarise it

Postgres: SIGHTLINE_PG_URL (default postgres://postgres@127.0.0.1:5432/test); a fresh schema per
run, dropped afterwards. DuckDB: a file in a temp dir, removed afterwards.

usage: node benchmarks/run.js funnel|trend|retention|paths|correlation [options]
       node benchmarks/run.js analyses --suites funnel,retention,... [options]

  --events N        sample events (default 1,000,000), captured once into each target
  --targets LIST    as above
  --rounds N        rounds after a warm-up (default 5); ratios to the floor are taken within a round
  --suites LIST     for 'analyses': which suites, in order (default all)
  --keep-data DIR   keep each target's loaded data (DuckDB file under DIR, Postgres schema
                    bench_kept_*) and reuse it in later runs with the same target and --events

usage: node benchmarks/run.js hostile [--events N] [--seconds N] [--timeout-ms N] [--targets LIST]

  A server (child process, 127.0.0.1) with two projects of N sample events each (default 100,000),
  the attacker's with 5,000 distinct plan_id values; for --seconds each (default 30): normal
  traffic alone, normal traffic while 3 clients loop over the worst requests the budgets allow
  and some they refuse, then one project's insight PATCHes while 8 clients flood another's
  capture. Reports survival, peak RSS, 5xx, the slowest answer (timeout --timeout-ms, default
  15000), latencies. Exit code 1 when the server died or answered a 5xx other than 504.

  Each suite times its queries through sightline.query next to its floor, run in the same child
  and round (see benchmarks/suites.js):
    funnel       3-step funnels, ordered, strict, unordered and with a frequent middle step;
                 floor SELECT distinct_id, count(*) FROM events WHERE <90 days> GROUP BY 1
    trend        daily total (UTC, New York), dau, weekly active, top-10 + Other, p90 over 30 days;
                 floor SELECT count(*) ... event = '$pageview' AND <30 days>
    retention    daily recurring and first-time, weekly in New York, by $browser;
                 floor the group-by-person query over the cohorts' span
    paths        pageviews, all events, from a start point, to an end point over 30 days;
                 floor the group-by-person query over the 30 days
    correlation  events and person properties of the ordered funnel; floor as funnel`

/** Tasks a child process can run; the parent sends one as JSON after the child flag. */
const CHILD_TASKS = {
  'ingest-generate': generateOnlyChild,
  'ingest-floor': floorChild,
  'ingest-target': ingestTargetChild,
  'analysis-target': analysisTargetChild,
}

async function runChild(json) {
  const task = JSON.parse(json)
  let message
  try {
    message = await CHILD_TASKS[task.kind](task)
  } catch (error) {
    const causeText = error?.cause?.message
    const cause = causeText && !String(error?.message).includes(causeText) ? ` (cause: ${causeText})` : ''
    message = { error: `${String(error?.message ?? error)}${cause}` }
    console.error(`${task.kind} on ${task.place?.target ?? 'no storage'} failed: ${message.error}`)
    if (process.env.SIGHTLINE_BENCH_DEBUG) console.error(error)
  }
  // Disconnecting lets the child exit on its own, so --cpu-prof can write its profile.
  process.send(message, () => process.disconnect())
}

async function main(argv) {
  if (argv[0] === CHILD_FLAG) return runChild(argv[1])
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      events: { type: 'string', default: '100000' },
      batch: { type: 'string', default: '5000' },
      targets: { type: 'string', default: 'duckdb,postgres' },
      rounds: { type: 'string', default: '1' },
      'skip-floors': { type: 'boolean', default: false },
      concurrency: { type: 'string', default: '1' },
      trace: { type: 'boolean', default: false },
      'client-uuids': { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      suites: { type: 'string', default: 'funnel,trend,retention,paths,correlation' },
      'keep-data': { type: 'string' },
      seconds: { type: 'string', default: '30' },
      'timeout-ms': { type: 'string', default: '15000' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  const suiteNames = Object.keys(SUITES)
  if (!values.help && (suiteNames.includes(positionals[0]) || positionals[0] === 'analyses')) {
    const targets = values.targets.split(',').map((t) => t.trim()).filter(Boolean)
    targets.forEach(parseTarget)
    const suites = positionals[0] === 'analyses' ? values.suites.split(',').map((t) => t.trim()).filter(Boolean) : [positionals[0]]
    for (const suite of suites) if (!suiteNames.includes(suite)) throw new Error(`unknown suite ${JSON.stringify(suite)}; one of ${suiteNames.join(', ')}`)
    const report = await runAnalysisBenchmark({
      suites,
      events: argv.includes('--events') ? positiveInteger('--events', values.events) : 1_000_000,
      batch: positiveInteger('--batch', values.batch),
      targets,
      rounds: argv.includes('--rounds') ? positiveInteger('--rounds', values.rounds) : 5,
      keepData: values['keep-data'],
    })
    if (Object.values(report.targets).some((t) => t.error)) process.exitCode = 1
    return
  }
  if (!values.help && positionals[0] === 'hostile') {
    const report = await runHostile({
      events: argv.includes('--events') ? positiveInteger('--events', values.events) : 100_000,
      seconds: positiveInteger('--seconds', values.seconds),
      'timeout-ms': positiveInteger('--timeout-ms', values['timeout-ms']),
      targets: values.targets,
    })
    if (report.results.some((r) => !r.survived || r.fiveXx > 0)) process.exitCode = 1
    return
  }
  if (values.help || positionals[0] !== 'ingest') {
    console.error(USAGE)
    process.exitCode = values.help ? 0 : 2
    return
  }
  const events = positiveInteger('--events', values.events)
  const batch = positiveInteger('--batch', values.batch)
  const targets = values.targets.split(',').map((t) => t.trim()).filter(Boolean)
  targets.forEach(parseTarget) // throws on an unknown target or malformed settings
  const report = await runIngest({
    events,
    batch,
    targets,
    rounds: positiveInteger('--rounds', values.rounds),
    floors: !values['skip-floors'],
    concurrency: positiveInteger('--concurrency', values.concurrency),
    trace: values.trace,
    profile: values.profile,
    clientUuids: values['client-uuids'],
  })
  const failed = report.rounds.some((r) => [r.generator, ...Object.values(r.floors), ...Object.values(r.targets)].some((x) => x?.error))
  if (failed) process.exitCode = 1
}

function positiveInteger(name, text) {
  const n = Number(text.replace(/_/g, ''))
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(text)}`)
  return n
}

await main(process.argv.slice(2))
