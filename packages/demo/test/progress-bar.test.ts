import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createProgressBar } from '../src/progress-bar.js'

function fakeStream(isTTY: boolean): { isTTY: boolean; chunks: string[]; write(chunk: string): boolean } {
  const chunks: string[] = []
  return { isTTY, chunks, write: (chunk) => chunks.push(chunk) > 0 }
}

beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(new Date('2025-01-01T00:00:00Z'))
})
afterEach(() => {
  vi.useRealTimers()
})

describe('createProgressBar without a terminal', () => {
  it('prints one plain line per 10% step and a final line', () => {
    const stream = fakeStream(false)
    const bar = createProgressBar({ total: 300_000, label: 'sample data', stream })
    for (let done = 0; done <= 300_000; done += 5_000) {
      vi.advanceTimersByTime(50)
      bar.update(done)
    }
    bar.finish()
    const lines = stream.chunks
    expect(lines).toHaveLength(10) // 10%..90%, then the final line
    for (const line of lines) {
      expect(line.endsWith('\n')).toBe(true)
      expect(line.slice(0, -1)).not.toMatch(/[\r\n\x1b]/)
      expect(line.startsWith('sample data ')).toBe(true)
    }
    expect(lines.slice(0, 9).map((line) => /(\d+)%/.exec(line)?.[1])).toEqual(['10', '20', '30', '40', '50', '60', '70', '80', '90'])
    expect(lines[0]).toContain('30,000/300,000 events')
    expect(lines[9]).toMatch(/ 100% 300,000 events · [\d,]+\/s · \d+\.\ds\n$/)
  })

  it('prints a single line when a jump crosses several steps', () => {
    const stream = fakeStream(false)
    const bar = createProgressBar({ total: 1_000, label: 'x', stream })
    bar.update(550)
    bar.update(560)
    expect(stream.chunks).toHaveLength(1)
    expect(stream.chunks[0]).toContain(' 55% 550/1,000 events')
  })
})

describe('createProgressBar on a terminal', () => {
  it('redraws one line with \\r, at most about 10 times a second', () => {
    const stream = fakeStream(true)
    const bar = createProgressBar({ total: 300_000, label: 'sample data', stream })
    vi.advanceTimersByTime(4_500)
    bar.update(186_000)
    expect(stream.chunks).toHaveLength(1)
    const line = stream.chunks[0] as string
    expect(line.startsWith('\r')).toBe(true)
    expect(line).not.toContain('\n')
    expect(line).toContain('sample data [████████████░░░░░░░░] 62% 186,000/300,000 events · 41,333/s · 4.5s')

    bar.update(187_000) // same instant: throttled
    vi.advanceTimersByTime(50)
    bar.update(188_000) // 50 ms later: still throttled
    expect(stream.chunks).toHaveLength(1)
    vi.advanceTimersByTime(60)
    bar.update(189_000)
    expect(stream.chunks).toHaveLength(2)

    vi.advanceTimersByTime(1)
    bar.finish()
    expect(stream.chunks).toHaveLength(3)
    const last = stream.chunks[2] as string
    expect(last.startsWith('\r')).toBe(true)
    expect(last.endsWith('\n')).toBe(true)
    expect(last).toContain('[████████████████████] 100% 189,000 events')
  })

  it('ignores calls after finish', () => {
    const stream = fakeStream(true)
    const bar = createProgressBar({ total: 10, label: 'x', stream })
    bar.finish()
    bar.finish()
    vi.advanceTimersByTime(1_000)
    bar.update(5)
    expect(stream.chunks).toHaveLength(1)
  })
})
