/**
 * ClickHouse with a Postgres companion (PGlite here), which its README
 * offers beside DuckDB. The two stores' dialect hooks are merged
 * (`dualHooks`): Postgres declares hooks ClickHouse lacks (`bucketIndex`),
 * and an analysis, which runs on ClickHouse, must not reach for them.
 * Expected values are counted by hand from the events below.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { drainPending, Session } from 'chdb'
import { createSightline, type Sightline } from '@sightline/core'
import { clickhouseStorage, type ChdbSession } from '@sightline/storage-clickhouse'
import { pgliteTarget } from './targets/postgres.js'
import type { FreshDatabase } from './conformance/target.js'

describe('clickhouseStorage with a Postgres companion (PGlite)', () => {
  let dir: string
  let session: Session
  let companion: FreshDatabase
  let sightline: Sightline | undefined

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sightline-chdb-pg-'))
    session = new Session(join(dir, 'chdb'))
    companion = await pgliteTarget.fresh()
  })
  afterEach(async () => {
    await sightline?.close()
    sightline = undefined
    await companion.dispose()
    session.close()
    await drainPending()
    rmSync(dir, { recursive: true, force: true })
  })

  it('answers trends (New York days across a DST change), stickiness, lifecycle, retention and funnels', async () => {
    sightline = await createSightline({
      storage: clickhouseStorage({ session: session as ChdbSession, companion: companion.storage() }),
      clock: () => new Date('2024-11-06T12:00:00Z'),
    })
    const org = await sightline.organizations.create({ name: 'Acme' })
    const { id } = await sightline.projects.create({ organizationId: org.id, name: 'Web', timezone: 'America/New_York' })
    // New York: UTC-4 until 2024-11-03 06:00Z, UTC-5 after. Local days: ada on 11-02 and 11-04, bob on 11-04 (twice).
    await sightline.capture(id, [
      { event: '$pageview', distinctId: 'ada', timestamp: '2024-11-02T15:00:00Z' },
      { event: 'signup', distinctId: 'ada', timestamp: '2024-11-02T15:10:00Z' },
      { event: '$pageview', distinctId: 'ada', timestamp: '2024-11-04T15:00:00Z' },
      { event: '$pageview', distinctId: 'bob', timestamp: '2024-11-04T04:30:00Z' }, // 11-03 23:30 local
      { event: '$pageview', distinctId: 'bob', timestamp: '2024-11-04T16:00:00Z' },
    ])
    const range = { date_from: '2024-11-01', date_to: '2024-11-05' }

    const trend = await sightline.query.trend(id, { events: [{ id: '$pageview' }], ...range })
    // Local days 11-01..11-05: ada 11-02; bob 11-03 (23:30 local); ada and bob 11-04.
    expect(trend.result[0]!.data).toEqual([0, 1, 1, 2, 0])

    const sticky = await sightline.query.trend(id, { events: [{ id: '$pageview' }], ...range, shown_as: 'Stickiness' })
    // ada on 2 days (11-02, 11-04), bob on 2 days (11-03, 11-04).
    expect(sticky.result[0]!.data).toEqual([0, 2, 0, 0, 0])

    const lifecycle = await sightline.query.trend(id, { events: [{ id: '$pageview' }], ...range, insight: 'LIFECYCLE' })
    const byStatus = Object.fromEntries(lifecycle.result.map((s: { status: string; data: number[] }) => [s.status, s.data]))
    // Each active (person, day) is new, returning or resurrecting, whatever the persons' creation days: ada on
    // 11-02 and 11-04, bob on 11-03 and 11-04. Dormant: ada after 11-02 (on 11-03), both after 11-04 (on 11-05).
    const active = [0, 1, 2, 3, 4].map((d) => byStatus.new![d]! + byStatus.returning![d]! + byStatus.resurrecting![d]!)
    expect(active).toEqual([0, 1, 1, 2, 0])
    expect(byStatus.returning).toEqual([0, 0, 0, 1, 0])
    expect(byStatus.dormant).toEqual([0, 0, -1, 0, -2])

    const funnel = await sightline.query.funnel(id, { ...range, events: [{ id: '$pageview', order: 0 }, { id: 'signup', order: 1 }] })
    expect(funnel.result.map((s: { count: number }) => s.count)).toEqual([2, 1])

    const retention = await sightline.query.retention(id, {
      target_entity: { id: '$pageview', type: 'events' },
      returning_entity: { id: '$pageview', type: 'events' },
      period: 'Day',
      total_intervals: 3,
      date_to: '2024-11-04',
    })
    // Cohorts 11-02 (ada: returns on 11-04, day 2), 11-03 (bob: returns 11-04, day 1), 11-04 (ada and bob).
    expect(retention.result.map((r: { values: Array<{ count: number }> }) => r.values.map((v) => v.count))).toEqual([
      [1, 0, 1],
      [1, 1, 0],
      [2, 0, 0],
    ])
  })
})
