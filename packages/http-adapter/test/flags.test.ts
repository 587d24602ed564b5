import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { json, type World, world } from './fixture.js'

let w: World
beforeAll(async () => {
  w = await world()
})
afterAll(() => w.close())

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe('/flags/: PostHog with no feature flags', () => {
  test('?v=2 answers the v2 shape with no flags; no v answers the legacy shape', async () => {
    const body = { token: w.project.apiToken, distinct_id: 'u1', person_properties: { plan: 'pro' } }
    const v2 = await w.call('POST', '/flags/?v=2&config=true', { key: null, body })
    expect(v2.status).toBe(200)
    const answer = await json(v2)
    expect(answer).toEqual({ flags: {}, errorsWhileComputingFlags: false, requestId: expect.stringMatching(UUID) })
    const legacy = await json(await w.call('POST', '/flags', { key: null, body }))
    expect(legacy).toEqual({ featureFlags: {}, featureFlagPayloads: {}, errorsWhileComputingFlags: false, requestId: expect.stringMatching(UUID) })
    expect(legacy.requestId).not.toBe(answer.requestId)
  })

  test('reads gzip bodies as capture does', async () => {
    const r = await w.call('POST', '/flags/?v=2', {
      key: null,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ token: w.project.apiToken, distinct_id: 'u1' })),
    })
    expect(r.status).toBe(200)
    expect((await json(r)).flags).toEqual({})
  })

  test('refuses what PostHog refuses: no token, an unknown token, no distinct_id', async () => {
    const none = await w.call('POST', '/flags/?v=2', { key: null, body: { distinct_id: 'u1' } })
    expect(none.status).toBe(401)
    expect(await json(none)).toMatchObject({ code: 'missing_api_key' })
    const unknown = await w.call('POST', '/flags/?v=2', { key: null, body: { token: 'phc_nope', distinct_id: 'u1' } })
    expect(unknown.status).toBe(401)
    expect(await json(unknown)).toMatchObject({ code: 'invalid_api_key' })
    const anonymous = await w.call('POST', '/flags/?v=2', { key: null, body: { token: w.project.apiToken } })
    expect(anonymous.status).toBe(400)
    expect(await json(anonymous)).toMatchObject({ code: 'missing_distinct_id', attr: 'distinct_id' })
  })
})

describe('/decide/: PostHog with nothing enabled, for SDKs before /flags/', () => {
  // posthog/api/decide.py: the configuration with every feature off, and the flags by version.
  const OFF = {
    config: { enable_collect_everything: true },
    toolbarParams: {},
    isAuthenticated: false,
    supportedCompression: ['gzip', 'gzip-js'],
    sessionRecording: false,
    capturePerformance: false,
    autocapture_opt_out: false,
    autocaptureExceptions: false,
    heatmaps: false,
    surveys: false,
    siteApps: [],
  }
  test('the flags by version: none and v=1 a list, v=2 an object, v=3 with payloads, v=4 flags as /flags/?v=2', async () => {
    const ask = async (v: string) => {
      const r = await w.call('POST', `/decide/${v}`, { key: null, body: { token: w.project.apiToken, distinct_id: 'u1' } })
      expect(r.status, v).toBe(200)
      return json(r)
    }
    expect(await ask('')).toEqual({ ...OFF, featureFlags: [] })
    expect(await ask('?v=1')).toEqual({ ...OFF, featureFlags: [] })
    expect(await ask('?v=2')).toEqual({ ...OFF, featureFlags: {} })
    expect(await ask('?v=3')).toEqual({ ...OFF, featureFlags: {}, featureFlagPayloads: {}, errorsWhileComputingFlags: false })
    expect(await ask('?v=4')).toEqual({ ...OFF, flags: {}, errorsWhileComputingFlags: false, requestId: expect.stringMatching(UUID) })
  })

  test('posthog-js form data (base64 `data=`) and the same refusals as /flags/', async () => {
    const data = Buffer.from(JSON.stringify({ token: w.project.apiToken, distinct_id: 'u1' })).toString('base64')
    const form = await w.call('POST', '/decide/?v=3', { key: null, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `data=${encodeURIComponent(data)}` })
    expect(form.status).toBe(200)
    expect((await json(form)).featureFlags).toEqual({})
    const none = await w.call('POST', '/decide/?v=3', { key: null, body: { distinct_id: 'u1' } })
    expect([none.status, (await json(none)).code]).toEqual([401, 'missing_api_key'])
    const anonymous = await w.call('POST', '/decide/?v=3', { key: null, body: { token: w.project.apiToken } })
    expect([anonymous.status, (await json(anonymous)).code]).toEqual([400, 'missing_distinct_id'])
  })
})

describe("posthog-js's remote config: /array/:token/config and config.js", () => {
  // PostHog's RemoteConfig.build_config() for a project with nothing enabled, written out by hand.
  const configOf = (token: string) => ({
    token,
    supportedCompression: ['gzip', 'gzip-js'],
    hasFeatureFlags: false,
    captureDeadClicks: false,
    capturePerformance: false,
    autocapture_opt_out: false,
    autocaptureExceptions: false,
    analytics: { endpoint: '/i/v0/e/' },
    elementsChainAsString: true,
    sessionRecording: false,
    heatmaps: false,
    surveys: false,
    defaultIdentifiedOnly: false,
    siteApps: [],
  })

  test('the JSON config, without a key; an unknown token is a 404', async () => {
    const r = await w.call('GET', `/array/${w.project.apiToken}/config`, { key: null })
    expect(r.status).toBe(200)
    expect(await json(r)).toEqual(configOf(w.project.apiToken))
    expect((await w.call('GET', '/array/phc_unknown/config', { key: null })).status).toBe(404)
    expect((await w.call('GET', '/array/phc_unknown/config.js', { key: null })).status).toBe(404)
  })

  test('the script sets window._POSTHOG_REMOTE_CONFIG[token], where posthog-js reads it, to the same config', async () => {
    const r = await w.call('GET', `/array/${w.project.apiToken}/config.js`, { key: null })
    expect([r.status, r.headers.get('content-type')]).toEqual([200, 'application/javascript; charset=utf-8'])
    const window: { _POSTHOG_REMOTE_CONFIG?: Record<string, unknown> } = { _POSTHOG_REMOTE_CONFIG: { other: 1 } }
    new Function('window', await r.text())(window)
    expect(window._POSTHOG_REMOTE_CONFIG).toEqual({ other: 1, [w.project.apiToken]: { config: configOf(w.project.apiToken), siteApps: [] } })
  })
})

describe('flag definitions for local evaluation', () => {
  for (const path of ['/flags/definitions', '/api/feature_flag/local_evaluation/']) {
    test(`${path}: no definitions for a member's personal API key`, async () => {
      const r = await w.call('GET', `${path}?token=${w.project.apiToken}&send_cohorts`)
      expect(r.status).toBe(200)
      expect(await json(r)).toEqual({ flags: [], group_type_mapping: {}, cohorts: {} })
    })

    test(`${path}: a key is required; another organization's token answers as an unknown one`, async () => {
      expect((await w.call('GET', `${path}?token=${w.project.apiToken}`, { key: null })).status).toBe(401)
      const other = await w.call('GET', `${path}?token=${w.otherProject.apiToken}`)
      const unknown = await w.call('GET', `${path}?token=phc_unknown`)
      expect(other.status).toBe(401)
      expect(await other.text()).toBe(await unknown.text())
      const missing = await w.call('GET', path)
      expect(missing.status).toBe(400)
      expect(await json(missing)).toMatchObject({ attr: 'token' })
    })
  }
})
