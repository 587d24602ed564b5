// Measuring helpers shared by the benchmarks: child processes, memory, the machine, output.
import { execFileSync, fork } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import os from 'node:os'
import { fileURLToPath } from 'node:url'

const RUNNER = fileURLToPath(new URL('./run.js', import.meta.url))
export const CHILD_FLAG = '--child'
const MB = 1024 * 1024

/**
 * Runs `task` in a fresh node process (run.js with the internal child flag), so each
 * target gets its own peak RSS and heap, and no garbage left by another target.
 * Resolves with what the child sent, or `{ error }` when it failed.
 */
export function runInChild(task, { execArgv = [] } = {}) {
  return new Promise((resolve) => {
    const child = fork(RUNNER, [CHILD_FLAG, JSON.stringify(task)], { execArgv, stdio: 'inherit' })
    let result
    child.on('message', (message) => {
      result = message
    })
    child.on('error', (error) => resolve({ error: error.message }))
    child.on('exit', (code, signal) => {
      if (result !== undefined) resolve(result)
      else resolve({ error: `child exited with ${signal ?? `code ${code}`} before reporting` })
    })
  })
}

/**
 * Samples RSS and the used heap every `intervalMs` (the sampler's timer is unref'd and
 * fires between awaits, so it may miss a short spike inside one synchronous stretch).
 * The peak RSS reported is the kernel's maxRSS, which misses nothing.
 */
export function startMemorySampler(intervalMs = 50) {
  let peakHeap = 0
  let peakSampledRss = 0
  const sample = () => {
    const { rss, heapUsed } = process.memoryUsage()
    if (heapUsed > peakHeap) peakHeap = heapUsed
    if (rss > peakSampledRss) peakSampledRss = rss
  }
  sample()
  const timer = setInterval(sample, intervalMs)
  timer.unref()
  return {
    stop() {
      clearInterval(timer)
      sample()
      // maxRSS is in kilobytes on Linux and macOS.
      return { peakRssMb: round((process.resourceUsage().maxRSS * 1024) / MB, 1), peakHeapMb: round(peakHeap / MB, 1) }
    },
  }
}

export const rssMb = () => round(process.memoryUsage().rss / MB, 1)
export const toMb = (bytes) => round(bytes / MB, 1)
export const seconds = (startNs) => Number(process.hrtime.bigint() - startNs) / 1e9
export const now = () => process.hrtime.bigint()

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

export function round(value, digits = 0) {
  const f = 10 ** digits
  return Math.round(value * f) / f
}

/** What a reader needs to weigh the figures: cores, memory, CPU, node. */
export function machine() {
  let cpu = os.cpus()[0]?.model ?? 'unknown'
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('model name'))
    if (line) cpu = line.slice(line.indexOf(':') + 1).trim()
  } catch {
    // Not Linux: os.cpus() gave the model.
  }
  return {
    nproc: os.availableParallelism(),
    memoryGb: round(os.totalmem() / 1024 ** 3, 1),
    cpu,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverage: os.loadavg().map((l) => round(l, 2)),
  }
}

/**
 * Which code was measured: the commit, the files changed since (others edit the repo while
 * benchmarks run), and a hash of the built packages the run imported.
 */
export function sourceState() {
  const repo = fileURLToPath(new URL('..', import.meta.url))
  const git = (...args) => {
    try {
      return execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trimEnd()
    } catch {
      return undefined
    }
  }
  const hash = createHash('sha1')
  const packagesDir = `${repo}packages`
  for (const pkg of readdirSync(packagesDir).sort()) {
    const dist = `${packagesDir}/${pkg}/dist`
    let files = []
    try {
      files = readdirSync(dist, { recursive: true }).filter((f) => f.endsWith('.js')).sort()
    } catch {
      continue
    }
    for (const f of files) hash.update(`${pkg}/${f}\0`).update(readFileSync(`${dist}/${f}`))
  }
  const changed = git('status', '--porcelain', '--', 'packages')
  return {
    // Outside a git work tree (a copy made with `git archive`), the caller may name the commit.
    commit: git('rev-parse', '--short', 'HEAD') ?? process.env.SIGHTLINE_BENCH_COMMIT,
    changedFiles: changed ? changed.split('\n').map((l) => l.slice(3)) : [],
    distSha1: hash.digest('hex').slice(0, 12),
  }
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
export const fmt = (n) => (n === undefined || n === null ? '-' : typeof n === 'number' ? integer.format(n) : String(n))
export const fmt1 = (n) => (n === undefined || n === null ? '-' : n.toFixed(1))
export const fmt2 = (n) => (n === undefined || n === null ? '-' : n.toFixed(2))

/** A plain-text table: first column left-aligned, the others right-aligned. */
export function table(header, rows) {
  const cells = [header, ...rows].map((r) => r.map(String))
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i].length)))
  const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')
  return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n')
}
