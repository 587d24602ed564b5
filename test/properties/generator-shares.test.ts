/**
 * The reference properties reach what they claim: over a fixed-seed sample of
 * each property's own runs (generator-shares.ts, the references alone, no
 * database), at least half give non-empty answers and each feature the
 * property names shows in a stated share. The samples are deterministic (a
 * fixed seed); the thresholds sit well below the measured shares (in
 * comments), so that a small change of a generator does not trip them but one
 * that empties its runs does.
 */
import { describe, expect, it } from 'vitest'
import { correlationShares, format, funnelDstShares, funnelShares, oracleShares, pathShares, retentionShares, trendShares, type Shares } from './generator-shares.js'

function expectShares(name: string, got: Shares, least: Record<string, number>): void {
  const label = format(name, got)
  for (const [feature, share] of Object.entries(least)) expect(got.shares[feature] ?? 0, `${feature} in ${label}`).toBeGreaterThanOrEqual(share)
}

describe('what the reference properties reach (fixed seeds)', () => {
  it('trends: non-empty, Other rows, DST days, same-instant events, merged persons', async () => {
    // Measured: non-empty 86%, other-row 15%, dst 29%, same-timestamp 100%, merge 46%.
    expectShares('trends', await trendShares(), { 'non-empty': 0.5, 'other-row': 0.05, dst: 0.1, 'same-timestamp': 0.5, merge: 0.2 })
  })

  it('retention: non-empty, returns in later cells, DST days', async () => {
    // Measured: non-empty 59%, return-later 20%, dst 29%.
    expectShares('retention', await retentionShares(), { 'non-empty': 0.5, 'return-later': 0.1, dst: 0.1 })
  })

  it('funnels on every storage: non-empty, conversion to the last step, same-instant events, merged persons', async () => {
    // Measured per request: non-empty 80%, last-step 38%, same-timestamp 96%, merge 42%.
    expectShares('funnels', await funnelShares(), { 'non-empty': 0.5, 'last-step': 0.2, 'same-timestamp': 0.5, merge: 0.2 })
  })

  it('funnels across a DST change: non-empty, conversion to the last step, day-window edges across the change', async () => {
    // Measured per request: non-empty 73%, last-step 45%, day-across-dst 75%, same-timestamp 100%.
    expectShares('funnels-dst', await funnelDstShares(), { 'non-empty': 0.5, 'last-step': 0.2, 'day-across-dst': 0.3, dst: 0.9 })
  })

  it('funnel oracle: non-empty, conversion to the last step, DST, same-instant events, merged persons', async () => {
    // Measured: non-empty 67%, last-step 60%, dst 50%, same-timestamp 97%, merge 33%.
    expectShares('oracle', await oracleShares(), { 'non-empty': 0.5, 'last-step': 0.3, dst: 0.25, 'same-timestamp': 0.5, merge: 0.15 })
  })

  it('paths: runs with edges, paths of three steps, DST, same-instant events', async () => {
    // Measured: run non-empty 65% (per request 43%: start and end points, step limit 1 and type filters empty many), third-step 33%, dst 15%, same-timestamp 76%.
    expectShares('paths', await pathShares(), { 'run non-empty': 0.5, 'non-empty': 0.3, 'third-step': 0.15, dst: 0.05, 'same-timestamp': 0.3 })
  })

  it('correlation: runs with rows', async () => {
    // Measured: run non-empty 63%, per request 31% (of the 78 requests not aggregated by an event property, which have no rows by design).
    expectShares('correlation', await correlationShares(), { 'run non-empty': 0.5, 'non-empty': 0.3 })
  })
})
