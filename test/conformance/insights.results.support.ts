import { vi, type MockInstance } from 'vitest'
import type { CaptureInput, Sightline } from '@sightline/core'
import { NOW, openEngine, type Engine } from './harness.js'
import type { ConformanceTarget } from './target.js'

/**
 * Worked example of the insight-result cases. The project is in Europe/Berlin
 * (UTC+1 in March 2026), and the clock starts at NOW = 2026-03-01T12:00Z,
 * 13:00 local. `date_from: -7d` then covers the local days Feb 22 .. Mar 1:
 * from 2026-02-21T23:00:00Z to 2026-03-01T22:59:59.999999Z, eight daily
 * buckets, and moves at the next local midnight, 2026-03-01T23:00Z.
 */
export const RANGE_FROM = '2026-02-21T23:00:00.000000Z'
export const RANGE_TO = '2026-03-01T22:59:59.999999Z'
export const NEXT_MIDNIGHT = '2026-03-01T23:00:00.000Z'

/** `signed_up`: two on Feb 25 (bucket 3, one of them on the pro plan), one on Mar 1 (bucket 7). */
export const SIGNUPS: CaptureInput[] = [
  { event: 'signed_up', distinctId: 'ada', timestamp: '2026-02-25T12:00:00Z', properties: { plan: 'pro' } },
  { event: 'signed_up', distinctId: 'bob', timestamp: '2026-02-25T15:00:00Z', properties: { plan: 'free' } },
  { event: 'signed_up', distinctId: 'cy', timestamp: '2026-03-01T10:00:00Z', properties: { plan: 'free' } },
  // Ada pays an hour after signing up: the funnel signed_up -> paid converts 1 of 3.
  { event: 'paid', distinctId: 'ada', timestamp: '2026-02-25T13:00:00Z' },
]
/** Daily signups over the range, by hand from SIGNUPS. */
export const SIGNUPS_BY_DAY = [0, 0, 0, 2, 0, 0, 0, 1]

export const TREND = { insight: 'TRENDS', events: [{ id: 'signed_up' }], date_from: '-7d' }
export const FUNNEL = { insight: 'FUNNELS', events: [{ id: 'signed_up', order: 0 }, { id: 'paid', order: 1 }], date_from: '-7d' }

/** A clock the case moves. */
export function movableClock(start = NOW) {
  let now = start
  return {
    clock: () => now,
    set(iso: string) {
      now = new Date(iso)
    },
  }
}

export interface SignupsEngine extends Engine {
  readonly time: ReturnType<typeof movableClock>
  /** Spies counting the analyses run (insights call them through `sightline.query`). */
  readonly trend: MockInstance<Sightline['query']['trend']>
  readonly funnel: MockInstance<Sightline['query']['funnel']>
  /** The trend analysis itself, unspied. */
  readonly realTrend: Sightline['query']['trend']
  close(): Promise<void>
}

/** An engine with SIGNUPS captured, spies counting the analyses run, and the clock to move. */
export async function signupsEngine(target: ConformanceTarget): Promise<SignupsEngine> {
  const time = movableClock()
  const e = await openEngine(target, time.clock)
  await e.sightline.capture(e.projectId, SIGNUPS)
  const realTrend = e.sightline.query.trend.bind(e.sightline.query)
  const trend = vi.spyOn(e.sightline.query, 'trend')
  const funnel = vi.spyOn(e.sightline.query, 'funnel')
  return { ...e, time, trend, funnel, realTrend }
}

/** The daily counts of a trend result's first series. */
export const dataOf = (result: unknown): number[] => (result as Array<{ data: number[] }>)[0]!.data

/** Raw rows of the cache with a result stored: what every engine on the database shares. */
export const cachedRows = (e: Engine) =>
  e.db.raw<{ cache_key: string }>('select cache_key from insight_cache where project_id = $1 and last_refresh is not null order by cache_key', [e.projectId])
