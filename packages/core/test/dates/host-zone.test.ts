/**
 * Sightline's zone arithmetic must not depend on the time zone of the host
 * it runs in (Node reads `TZ`; a server's may be anything). The expected
 * values are worked out by hand from the zones' rules, and the same for every
 * host zone. This is why core reads offsets from Intl itself and does not use
 * date-fns-tz (packages/core/README.md, "Time zones").
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { bucketStarts } from '../../src/query/dates/buckets.js'
import { wallToInstant } from '../../src/query/dates/wall-clock.js'
import { readZoneOffset } from '../../src/query/dates/zone-offset.js'

const HOSTS = [
  // host zone, and its offset on 2026-01-15 as Date#getTimezoneOffset gives it (minutes west of UTC)
  ['America/Los_Angeles', 480],
  ['Asia/Kolkata', -330],
  ['Pacific/Chatham', -825],
  ['Europe/Berlin', -60],
] as const

afterEach(() => {
  vi.unstubAllEnvs()
})

describe.each(HOSTS)('on a host in %s', (host, hostOffset) => {
  it('zone offsets, day buckets and wall times are the same as on a UTC host', () => {
    vi.stubEnv('TZ', host)
    // The host zone did change (Node re-reads TZ when it is set).
    expect(new Date(Date.UTC(2026, 0, 15, 12)).getTimezoneOffset()).toBe(hostOffset)

    // New York: EST (UTC-5) in January, EDT (UTC-4) in July.
    expect(readZoneOffset('America/New_York', Date.UTC(2026, 0, 15, 12))).toBe(-5 * 3_600_000)
    expect(readZoneOffset('America/New_York', Date.UTC(2026, 6, 15, 12))).toBe(-4 * 3_600_000)
    // Chatham: +13:45 in its summer (January).
    expect(readZoneOffset('Pacific/Chatham', Date.UTC(2026, 0, 15, 12))).toBe((13 * 60 + 45) * 60_000)

    // Berlin's spring-forward day (2026-03-29, 02:00 CET -> 03:00 CEST): local midnights at 23:00Z, 23:00Z, 22:00Z.
    const days = bucketStarts({ from: new Date('2026-03-28T12:00:00Z'), to: new Date('2026-03-30T12:00:00Z') }, 'day', 'Europe/Berlin', 0)
    expect(days.map((d) => d.toISOString())).toEqual(['2026-03-27T23:00:00.000Z', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z'])

    // New York falls back at 2026-11-01 02:00 EDT: 01:30 is read twice, 05:30Z (EDT, fold 0) and 06:30Z (EST, fold 1).
    const wall = Date.UTC(2026, 10, 1, 1, 30)
    expect(new Date(wallToInstant('America/New_York', wall, 0)).toISOString()).toBe('2026-11-01T05:30:00.000Z')
    expect(new Date(wallToInstant('America/New_York', wall, 1)).toISOString()).toBe('2026-11-01T06:30:00.000Z')
  })
})
