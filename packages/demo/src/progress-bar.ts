/** The subset of a Node writable stream the bar needs (process.stderr, or a fake in tests). */
export interface ProgressStream {
  write(chunk: string): unknown
  /** True when a terminal is attached: the bar then redraws one line in place. */
  readonly isTTY?: boolean
}

export interface ProgressBarOptions {
  /** Expected final count; may be an estimate (finish() reports the real count). */
  total: number
  label: string
  /** Default process.stderr, so the bar never mixes with a program's output. */
  stream?: ProgressStream
  /** What is counted. Default 'events'. */
  unit?: string
}

export interface ProgressBar {
  /** Reports the count done so far; cheap to call often (redraws are throttled). */
  update(done: number): void
  /** Draws the final state and ends the line; later calls to either method do nothing. */
  finish(): void
}

const BAR_WIDTH = 20
/** About 10 redraws a second: smooth to the eye, negligible cost even when update runs per event. */
const REDRAW_INTERVAL_MS = 100
const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

/**
 * A dependency-free progress bar. On a terminal, one line redrawn in place:
 * `label [████████░░░░░░░░░░░░] 41% 123,000/300,000 events · 41,000/s · 3.0s`.
 * Elsewhere (CI logs, pipes), one plain line at each 10% step reached, and one at finish.
 */
export function createProgressBar(options: ProgressBarOptions): ProgressBar {
  const { total, label, stream = process.stderr, unit = 'events' } = options
  const tty = stream.isTTY === true
  const startedAt = Date.now()
  let lastDrawAt = -Infinity
  let lastStep = 0
  let done = 0
  let finished = false

  /** `of` undefined: the final line, which shows the real count alone. */
  const render = (count: number, of: number | undefined): string => {
    const fraction = of === undefined ? 1 : of > 0 ? Math.min(1, Math.max(0, count / of)) : 0
    const filled = Math.round(fraction * BAR_WIDTH)
    const elapsedMs = Date.now() - startedAt
    const rate = elapsedMs > 0 ? (count * 1000) / elapsedMs : 0
    const bar = tty ? ` [${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}]` : ''
    const percent = Math.floor(fraction * 100)
    const counted = of === undefined ? numberFormat.format(count) : `${numberFormat.format(count)}/${numberFormat.format(of)}`
    return `${label}${bar} ${percent}% ${counted} ${unit} · ${numberFormat.format(rate)}/s · ${formatElapsed(elapsedMs)}`
  }

  return {
    update(count) {
      if (finished) return
      done = count
      if (tty) {
        const now = Date.now()
        if (now - lastDrawAt < REDRAW_INTERVAL_MS) return
        lastDrawAt = now
        // \x1b[K clears what a longer previous line left behind.
        stream.write(`\r${render(done, total)}\x1b[K`)
        return
      }
      const step = total > 0 ? Math.min(10, Math.floor((done / total) * 10)) : 10
      // One line per step reached; a jump over several steps prints only the latest.
      if (step > lastStep && step < 10) {
        lastStep = step
        stream.write(`${render(done, total)}\n`)
      }
    },
    finish() {
      if (finished) return
      finished = true
      // The total may have been an estimate: the work is complete, so show the real count alone.
      const line = render(done, undefined)
      stream.write(tty ? `\r${line}\x1b[K\n` : `${line}\n`)
    },
  }
}

function formatElapsed(ms: number): string {
  const seconds = ms / 1000
  if (seconds < 60) return `${seconds.toFixed(1)}s`
  const minutes = Math.floor(seconds / 60)
  return `${minutes}m ${String(Math.floor(seconds % 60)).padStart(2, '0')}s`
}
