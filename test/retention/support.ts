/**
 * Shared by the retention suites: one engine per storage target, each
 * example loaded as its own project, and results reduced to what the
 * examples state by hand (counts per row, labels, dates, breakdown values).
 */
import type { RefDataset } from '../reference/shared/ref-dataset.js'
import { openTrendEngine, type TrendEngine } from '../trends/support/engine.js'
import type { ConformanceTarget } from '../conformance/target.js'

export interface Clocked {
  engine: TrendEngine
  now: Date
}

export async function openRetentionEngine(target: ConformanceTarget): Promise<Clocked> {
  const state = { now: new Date() } as Clocked
  state.engine = await openTrendEngine(target, () => state.now)
  return state
}

/** Loads `data` as a new project with the engine's clock at `data.now`; resolves to the project id. */
export async function loadInto(state: Clocked, data: RefDataset): Promise<number> {
  state.now = data.now
  return state.engine.load(data)
}

/** A row as the examples state it: `[breakdown value or null, counts]`. */
export type Shown = [string | null, number[]]

export const shown = (rows: ReadonlyArray<{ values: ReadonlyArray<{ count: number }>; breakdown_value?: string }>): Shown[] =>
  rows.map((r) => [r.breakdown_value ?? null, r.values.map((v) => v.count)])
