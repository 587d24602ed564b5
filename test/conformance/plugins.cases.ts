import { describe, expect } from 'vitest'
import { ConflictError, createSightline, NotFoundError, ValidationError, type Organization, type PluginRepositoryEntry, type Sightline } from '@sightline/core'
import { conformanceCase } from './case.js'
import { count, NOW, NOW_MICROS } from './harness.js'
import type { ConformanceTarget, FreshDatabase } from './target.js'

const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v)
/** Epoch microseconds read raw: 16 digits, which some raw readers leave as text. */
const micros = (v: unknown) => (v === null ? null : Number(v))
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000)
const iso = (minutes: number) => at(minutes).toISOString().replace('Z', '000Z')
const MINUTE = 60 * 1_000_000
const MASK = '**************** POSTHOG SECRET FIELD ****************'
const MISSING_ORG = '00000000-0000-4000-8000-000000000000'

const REPOSITORY: PluginRepositoryEntry[] = [
  {
    name: 'GeoIP',
    url: 'https://github.com/PostHog/posthog-plugin-geoip',
    description: 'Adds location data',
    icon: 'https://raw.githubusercontent.com/PostHog/posthog-plugin-geoip/main/logo.png',
    tag: 'v2.0.0',
    maintainer: 'official',
    type: 'transformation',
  },
  { name: 'Private', url: 'https://github.com/acme/private-plugin?private_token=t0ken', description: 'Ours', icon: '', tag: 'abc123' },
]

interface PluginEngine {
  readonly sightline: Sightline
  readonly db: FreshDatabase
  /** Acme, with project Web. */
  readonly org: Organization['id']
  readonly projectId: number
  /** Globex, with project Other. */
  readonly otherOrg: Organization['id']
  readonly otherProjectId: number
  close(): Promise<void>
}

/** As `openEngine`, with the plugin repository above and a second organization. */
async function openPluginEngine(target: ConformanceTarget, clock: () => Date = () => NOW): Promise<PluginEngine> {
  const db = await target.fresh()
  const sightline = await createSightline({ storage: db.storage(), clock, pluginRepository: REPOSITORY }).catch(async (error: unknown) => {
    await db.dispose()
    throw error
  })
  const acme = await sightline.organizations.create({ name: 'Acme' })
  const web = await sightline.projects.create({ organizationId: acme.id, name: 'Web' })
  const globex = await sightline.organizations.create({ name: 'Globex' })
  const other = await sightline.projects.create({ organizationId: globex.id, name: 'Other' })
  return {
    sightline,
    db,
    org: acme.id,
    projectId: web.id,
    otherOrg: globex.id,
    otherProjectId: other.id,
    async close() {
      await sightline.close()
      await db.dispose()
    },
  }
}

/** The `attr` of the ValidationError the call fails with. */
const invalidAttr = async (call: Promise<unknown>): Promise<string | null> => {
  const error = await call.then(
    () => undefined,
    (x: unknown) => x,
  )
  expect(error).toBeInstanceOf(ValidationError)
  return (error as ValidationError).attr
}

export function pluginCases(target: ConformanceTarget): void {
  describe('plugins', () => {
    conformanceCase(target, 'plugins: create, get, list, update and delete, each with its activity entry', async () => {
      let now = NOW
      const e = await openPluginEngine(target, () => now)
      try {
        const ada = await e.sightline.users.create({ email: 'ada@acme.io', firstName: 'Ada', organizationIds: [e.org] })
        const hello = await e.sightline.plugins.create(e.org, { name: 'Hello' }, { userId: ada.id })
        expect(hello).toEqual({
          id: hello.id,
          organizationId: e.org,
          organizationName: 'Acme',
          pluginType: 'source',
          name: 'Hello',
          description: '',
          url: null,
          icon: '',
          configSchema: {},
          tag: '',
          latestTag: null,
          isGlobal: false,
          capabilities: {},
          metrics: {},
          publicJobs: {},
          createdAt: '2026-03-01T12:00:00.000000Z',
          updatedAt: '2026-03-01T12:00:00.000000Z',
        })
        const [row] = await e.db.raw<Record<string, unknown>>(
          `select organization_id, plugin_type, name, description, url, icon, config_schema, tag, latest_tag, latest_tag_checked_at, is_global,
                  capabilities, metrics, public_jobs, ${e.db.epochMicros('created_at')} as created, ${e.db.epochMicros('updated_at')} as updated
           from plugins where id = $1`,
          [hello.id],
        )
        expect({ ...row, config_schema: json(row!.config_schema), capabilities: json(row!.capabilities), metrics: json(row!.metrics), public_jobs: json(row!.public_jobs), created: micros(row!.created), updated: micros(row!.updated) }).toEqual({
          organization_id: e.org,
          plugin_type: 'source',
          name: 'Hello',
          description: '',
          url: '',
          icon: '',
          config_schema: {},
          tag: '',
          latest_tag: null,
          latest_tag_checked_at: null,
          is_global: false,
          capabilities: {},
          metrics: {},
          public_jobs: {},
          created: NOW_MICROS,
          updated: NOW_MICROS,
        })

        const configSchema = [{ key: 'apiKey', name: 'API key', type: 'string', secret: true }]
        const full = await e.sightline.plugins.create(e.org, {
          pluginType: 'custom',
          name: 'Full',
          description: 'Every field',
          icon: 'https://acme.io/icon.png',
          configSchema,
          tag: 'v1',
          isGlobal: false,
          capabilities: { methods: ['processEvent'] },
          metrics: { events: 'sum' },
          publicJobs: { backfill: { payload: { from: { type: 'date' } } } },
        })
        expect(full).toMatchObject({
          pluginType: 'custom',
          name: 'Full',
          description: 'Every field',
          url: null,
          icon: 'https://acme.io/icon.png',
          configSchema,
          tag: 'v1',
          latestTag: null,
          capabilities: { methods: ['processEvent'] },
          metrics: { events: 'sum' },
          publicJobs: { backfill: { payload: { from: { type: 'date' } } } },
        })
        const [fullRow] = await e.db.raw<Record<string, unknown>>('select config_schema, public_jobs from plugins where id = $1', [full.id])
        expect(json(fullRow!.config_schema)).toEqual(configSchema)
        expect(json(fullRow!.public_jobs)).toEqual({ backfill: { payload: { from: { type: 'date' } } } })

        const page = await e.sightline.plugins.list(e.org)
        expect(page.count).toBe(2)
        expect(page.results.map((p) => p.id)).toEqual([hello.id, full.id])
        expect(page.results[1]).toEqual(full)
        const second = await e.sightline.plugins.list(e.org, { limit: 1, offset: 1 })
        expect({ count: second.count, ids: second.results.map((p) => p.id) }).toEqual({ count: 2, ids: [full.id] })
        expect(await e.sightline.plugins.get(e.org, full.id)).toEqual(full)

        now = at(60)
        const updated = await e.sightline.plugins.update(e.org, hello.id, { name: 'Hello 2', description: '', isGlobal: true, metrics: { n: 1 } }, { userId: ada.id })
        expect(updated).toEqual({ ...hello, name: 'Hello 2', isGlobal: true, metrics: { n: 1 }, updatedAt: '2026-03-01T13:00:00.000000Z' })
        const [updatedRow] = await e.db.raw<Record<string, unknown>>(`select name, is_global, metrics, ${e.db.epochMicros('updated_at')} as updated from plugins where id = $1`, [hello.id])
        expect({ ...updatedRow, metrics: json(updatedRow!.metrics), updated: micros(updatedRow!.updated) }).toEqual({ name: 'Hello 2', is_global: true, metrics: { n: 1 }, updated: NOW_MICROS + 60 * MINUTE })
        const log = await e.sightline.activity.list({ organizationId: e.org, scope: 'Plugin', itemId: hello.id })
        expect(log.results.map((x) => x.activity)).toEqual(['updated', 'installed'])
        expect(log.results[1]).toMatchObject({ userId: ada.id, projectId: null, itemId: String(hello.id), createdAt: '2026-03-01T12:00:00.000000Z', detail: { name: 'Hello' } })
        expect(log.results[0]).toMatchObject({ userId: ada.id, projectId: null, createdAt: '2026-03-01T13:00:00.000000Z' })
        expect(log.results[0]!.detail).toEqual({
          name: 'Hello 2',
          changes: [
            { type: 'Plugin', action: 'changed', field: 'name', before: 'Hello', after: 'Hello 2' },
            { type: 'Plugin', action: 'changed', field: 'isGlobal', before: false, after: true },
            { type: 'Plugin', action: 'changed', field: 'metrics', before: {}, after: { n: 1 } },
          ],
        })

        // A patch that changes nothing writes nothing.
        now = at(90)
        expect(await e.sightline.plugins.update(e.org, hello.id, { name: 'Hello 2', metrics: { n: 1 } })).toEqual(updated)
        expect(await count(e.db, 'activity_log', "scope in ('Plugin', 'PluginConfig')")).toBe(3)

        // A global plugin is made local before it is uninstalled, as PostHog.
        const refused = await e.sightline.plugins.delete(e.org, hello.id).catch((x: unknown) => x)
        expect(refused).toBeInstanceOf(ConflictError)
        expect((refused as ConflictError).attr).toBe('isGlobal')
        expect(await count(e.db, 'plugins')).toBe(2)

        await e.sightline.plugins.update(e.org, hello.id, { isGlobal: false })
        await e.sightline.plugins.updateSource(e.org, hello.id, { 'index.ts': 'export function processEvent(event) { return event }' })
        await e.sightline.pluginConfigs.create(e.projectId, { pluginId: hello.id, enabled: true })
        await e.sightline.pluginConfigs.create(e.projectId, { pluginId: full.id })
        await e.sightline.plugins.delete(e.org, hello.id, { userId: ada.id })
        expect(await count(e.db, 'plugins')).toBe(1)
        expect(await count(e.db, 'plugin_source_files')).toBe(0)
        expect(await count(e.db, 'plugin_configs', 'plugin_id = $1', [hello.id])).toBe(0)
        expect(await count(e.db, 'plugin_configs', 'plugin_id = $1', [full.id])).toBe(1)
        await expect(e.sightline.plugins.get(e.org, hello.id)).rejects.toBeInstanceOf(NotFoundError)
        await expect(e.sightline.plugins.delete(e.org, hello.id)).rejects.toBeInstanceOf(NotFoundError)

        const activity = await e.sightline.plugins.activity(e.org)
        expect(activity.count).toBe(8)
        expect(activity.results.map((x) => `${x.scope}:${x.activity}`)).toEqual([
          'Plugin:uninstalled',
          'PluginConfig:created',
          'PluginConfig:enabled',
          'Plugin:source_updated',
          'Plugin:updated',
          'Plugin:updated',
          'Plugin:installed',
          'Plugin:installed',
        ])
        expect(activity.results[0]).toMatchObject({ userId: ada.id, itemId: String(hello.id), detail: { name: 'Hello 2', changes: [{ type: 'Plugin', action: 'deleted' }] } })
        expect((await e.sightline.plugins.activity(e.org, { limit: 2, offset: 1 })).results.map((x) => x.activity)).toEqual(['created', 'enabled'])
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'plugins are scoped to their organization: another organization sees nothing and changes nothing', async () => {
      const e = await openPluginEngine(target)
      try {
        const mine = await e.sightline.plugins.create(e.org, { pluginType: 'repository', name: 'GeoIP' })
        await e.sightline.plugins.updateSource(e.org, mine.id, { 'plugin.json': '{"name":"GeoIP"}' })
        const config = await e.sightline.pluginConfigs.create(e.projectId, { pluginId: mine.id, enabled: true })
        const snapshot = () => e.db.raw(`select name, tag, latest_tag, latest_tag_checked_at, is_global, ${e.db.epochMicros('updated_at')} as updated from plugins`)
        const before = await snapshot()
        const activityBefore = await count(e.db, 'activity_log', "scope in ('Plugin', 'PluginConfig')")
        expect(activityBefore).toBe(3)

        const plugins = e.sightline.plugins
        const calls: Array<[string, () => Promise<unknown>]> = [
          ['get', () => plugins.get(e.otherOrg, mine.id)],
          ['update', () => plugins.update(e.otherOrg, mine.id, { name: 'Stolen' })],
          ['delete', () => plugins.delete(e.otherOrg, mine.id)],
          ['checkForUpdates', () => plugins.checkForUpdates(e.otherOrg, mine.id)],
          ['source', () => plugins.source(e.otherOrg, mine.id)],
          ['updateSource', () => plugins.updateSource(e.otherOrg, mine.id, { 'index.ts': 'stolen' })],
          ['upgrade', () => plugins.upgrade(e.otherOrg, mine.id)],
          ['create in an unknown organization', () => plugins.create(MISSING_ORG, { name: 'X' })],
          ['list of an unknown organization', () => plugins.list(MISSING_ORG)],
          ['list of a malformed organization id', () => plugins.list('not-a-uuid')],
          ['get in an unknown organization', () => plugins.get(MISSING_ORG, mine.id)],
          ['unused of an unknown organization', () => plugins.unused(MISSING_ORG)],
          ['activity of an unknown organization', () => plugins.activity(MISSING_ORG)],
          ['config of another organization\'s plugin', () => e.sightline.pluginConfigs.create(e.otherProjectId, { pluginId: mine.id, enabled: true })],
          ['config read through another project', () => e.sightline.pluginConfigs.get(e.otherProjectId, config.id)],
          ['config update through another project', () => e.sightline.pluginConfigs.update(e.otherProjectId, config.id, { enabled: false })],
          ['config delete through another project', () => e.sightline.pluginConfigs.delete(e.otherProjectId, config.id)],
          ['configs of an unknown project', () => e.sightline.pluginConfigs.list(999_999)],
          ['config in an unknown project', () => e.sightline.pluginConfigs.create(999_999, { pluginId: mine.id })],
          ['config of an unknown plugin', () => e.sightline.pluginConfigs.create(e.projectId, { pluginId: 2 ** 31 })],
        ]
        for (const id of [0, -1, 1.5, Number.NaN, 2 ** 31, 2 ** 53, Number.MAX_SAFE_INTEGER]) {
          calls.push([`plugin id ${id}`, () => plugins.get(e.org, id)])
          calls.push([`config id ${id}`, () => e.sightline.pluginConfigs.get(e.projectId, id)])
          calls.push([`project id ${id}`, () => e.sightline.pluginConfigs.list(id)])
        }
        for (const [what, call] of calls) {
          const error = await call().then(
            () => undefined,
            (x: unknown) => x,
          )
          expect(error, what).toBeInstanceOf(NotFoundError)
        }

        expect(await plugins.list(e.otherOrg)).toEqual({ count: 0, results: [] })
        expect(await plugins.unused(e.otherOrg)).toEqual([])
        expect(await plugins.activity(e.otherOrg)).toEqual({ count: 0, results: [] })
        expect(await e.sightline.pluginConfigs.list(e.otherProjectId)).toEqual([])
        expect(await snapshot()).toEqual(before)
        expect(await count(e.db, 'plugins')).toBe(1)
        expect(await count(e.db, 'plugin_source_files')).toBe(1)
        expect(await count(e.db, 'plugin_configs')).toBe(1)
        expect(await count(e.db, 'activity_log', "scope in ('Plugin', 'PluginConfig')")).toBe(activityBefore)
        // The other organization may install the same repository plugin: installs are per organization.
        const theirs = await plugins.create(e.otherOrg, { pluginType: 'repository', name: 'GeoIP' })
        expect(theirs).toMatchObject({ organizationId: e.otherOrg, organizationName: 'Globex', url: mine.url })
        expect((await plugins.list(e.org)).results.map((p) => p.id)).toEqual([mine.id])
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'bad plugin input is a ValidationError naming the field, and nothing is written', async () => {
      const e = await openPluginEngine(target)
      try {
        const p = await e.sightline.plugins.create(e.org, { name: 'Valid' })
        const config = await e.sightline.pluginConfigs.create(e.projectId, { pluginId: p.id })
        const plugins = e.sightline.plugins
        const bad = (input: unknown) => plugins.create(e.org, input as never)
        expect(await invalidAttr(bad({}))).toBe('name')
        expect(await invalidAttr(bad({ name: '' }))).toBe('name')
        expect(await invalidAttr(bad({ name: 'x'.repeat(201) }))).toBe('name')
        expect(await invalidAttr(bad({ name: 'a', pluginType: 'inline' }))).toBe('pluginType')
        expect(await invalidAttr(bad({ name: 'a', configSchema: 'fields' }))).toBe('configSchema')
        expect(await invalidAttr(bad({ name: 'a', capabilities: [1] }))).toBe('capabilities')
        expect(await invalidAttr(bad({ name: 'a', metrics: { total: () => 1 } }))).toBe('metrics__total')
        expect(await invalidAttr(bad({ name: 'a', isGlobal: 'yes' }))).toBe('isGlobal')
        expect(await invalidAttr(bad({ name: 'a', tag: 7 }))).toBe('tag')
        expect(await invalidAttr(bad({ pluginType: 'repository', name: 'Not in the repository' }))).toBe('name')
        expect(await invalidAttr(plugins.update(e.org, p.id, { name: '' }))).toBe('name')
        expect(await invalidAttr(plugins.update(e.org, p.id, { publicJobs: null } as never))).toBe('publicJobs')
        expect(await invalidAttr(plugins.list(e.org, { limit: 0 }))).toBe('limit')
        expect(await invalidAttr(plugins.activity(e.org, { offset: -1 }))).toBe('offset')

        const source = (files: unknown) => plugins.updateSource(e.org, p.id, files as never)
        expect(await invalidAttr(source({ 'plugin.json': '{"name": "unterminated' }))).toBe('plugin.json')
        expect(await invalidAttr(source({ 'plugin.json': '["not", "an", "object"]' }))).toBe('plugin.json')
        expect(await invalidAttr(source({ 'plugin.json': '' }))).toBe('plugin.json')
        expect(await invalidAttr(source({ 'plugin.json': '{"name": 5}' }))).toBe('plugin.json__name')
        expect(await invalidAttr(source({ 'plugin.json': '{"config": "fields"}' }))).toBe('plugin.json__config')
        expect(await invalidAttr(source({ 'index.ts': 5 }))).toBe('index.ts')
        // Only PostHog's file names are files: any other key is named (a Plugin field sent as a file, a long name), nothing written.
        expect(await invalidAttr(source({ ['x'.repeat(201)]: 'too long a file name' }))).toBe('x'.repeat(201))
        expect(await invalidAttr(source({ 'index.ts': 'export {}', description: 'not a file' }))).toBe('description')
        expect(await invalidAttr(source({ 'readme.md': null }))).toBe('readme.md')
        expect(await invalidAttr(source({ 'plugin.json': '{"name": "a\\u0000b"}' }))).toBe('plugin.json__name')
        // One bad file refuses the whole call: index.ts is not written either.
        expect(await invalidAttr(source({ 'index.ts': 'export {}', 'plugin.json': 'nope' }))).toBe('plugin.json')

        const configs = e.sightline.pluginConfigs
        expect(await invalidAttr(configs.create(e.projectId, { pluginId: 'one' } as never))).toBe('pluginId')
        expect(await invalidAttr(configs.create(e.projectId, { pluginId: p.id, order: 2 ** 31 }))).toBe('order')
        expect(await invalidAttr(configs.create(e.projectId, { pluginId: p.id, config: [] } as never))).toBe('config')
        expect(await invalidAttr(configs.update(e.projectId, config.id, { enabled: 'no' } as never))).toBe('enabled')
        const twice = await configs.create(e.projectId, { pluginId: p.id, enabled: true }).catch((x: unknown) => x)
        expect(twice).toBeInstanceOf(ConflictError)
        expect((twice as ConflictError).attr).toBe('pluginId')

        expect(await count(e.db, 'plugins')).toBe(1)
        expect(await count(e.db, 'plugin_source_files')).toBe(0)
        expect(await count(e.db, 'plugin_configs')).toBe(1)
        expect(await count(e.db, 'activity_log', "scope in ('Plugin', 'PluginConfig')")).toBe(2)
        expect(await plugins.get(e.org, p.id)).toEqual(p)
        expect(await configs.get(e.projectId, config.id)).toEqual(config)
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'repository plugins: installed from the catalogue, checked for updates, upgraded', async () => {
      let now = NOW
      const e = await openPluginEngine(target, () => now)
      try {
        const ada = await e.sightline.users.create({ email: 'ada@acme.io', firstName: 'Ada', organizationIds: [e.org] })
        expect(await e.sightline.plugins.repository()).toEqual(REPOSITORY)
        const geo = await e.sightline.plugins.create(e.org, { pluginType: 'repository', name: 'GeoIP', tag: 'v1.0.0' })
        expect(geo).toMatchObject({
          pluginType: 'repository',
          name: 'GeoIP',
          url: 'https://github.com/PostHog/posthog-plugin-geoip',
          description: 'Adds location data',
          icon: 'https://raw.githubusercontent.com/PostHog/posthog-plugin-geoip/main/logo.png',
          tag: 'v1.0.0',
          latestTag: null,
        })
        const dup = await e.sightline.plugins.create(e.org, { pluginType: 'repository', name: 'GeoIP' }).catch((x: unknown) => x)
        expect(dup).toBeInstanceOf(ConflictError)
        // The token stays stored for downloads but is never shown, as PostHog.
        const priv = await e.sightline.plugins.create(e.org, { pluginType: 'repository', name: 'Private', tag: 'old' })
        expect(priv).toMatchObject({ url: 'https://github.com/acme/private-plugin', description: 'Ours', tag: 'old' })
        const [privRow] = await e.db.raw<{ url: string }>('select url from plugins where id = $1', [priv.id])
        expect(privRow!.url).toBe('https://github.com/acme/private-plugin?private_token=t0ken')
        const fromRepoTag = await e.sightline.plugins.create(e.org, { pluginType: 'repository', name: 'Private' }).catch((x: unknown) => x)
        expect(fromRepoTag).toBeInstanceOf(ConflictError)
        const coded = await e.sightline.plugins.create(e.org, { name: 'GeoIP' }) // a source plugin of the same name
        const custom = await e.sightline.plugins.create(e.org, { pluginType: 'custom', name: 'GeoIP', tag: 'v0.9.0' })
        const unknown = await e.sightline.plugins.create(e.org, { pluginType: 'custom', name: 'Homemade', tag: 'v1' })
        expect(await count(e.db, 'plugins')).toBe(5)

        now = at(10)
        const checked = await e.sightline.plugins.checkForUpdates(e.org, geo.id)
        expect(checked).toEqual({ ...geo, latestTag: 'v2.0.0' })
        const [geoRow] = await e.db.raw<Record<string, unknown>>(
          `select tag, latest_tag, ${e.db.epochMicros('latest_tag_checked_at')} as checked, ${e.db.epochMicros('updated_at')} as updated from plugins where id = $1`,
          [geo.id],
        )
        expect({ ...geoRow, checked: micros(geoRow!.checked), updated: micros(geoRow!.updated) }).toEqual({ tag: 'v1.0.0', latest_tag: 'v2.0.0', checked: NOW_MICROS + 10 * MINUTE, updated: NOW_MICROS })
        expect((await e.sightline.plugins.checkForUpdates(e.org, priv.id)).latestTag).toBe('abc123')
        expect((await e.sightline.plugins.checkForUpdates(e.org, custom.id)).latestTag).toBe('v2.0.0') // found by name
        expect((await e.sightline.plugins.checkForUpdates(e.org, coded.id)).latestTag).toBeNull() // code written in place has no releases
        expect((await e.sightline.plugins.checkForUpdates(e.org, unknown.id)).latestTag).toBeNull()
        const unchecked = await e.db.raw<Record<string, unknown>>(
          `select latest_tag, ${e.db.epochMicros('latest_tag_checked_at')} as checked from plugins where id in ($1, $2) order by id`,
          [coded.id, unknown.id],
        )
        expect(unchecked.map((r) => ({ ...r, checked: micros(r.checked) }))).toEqual([
          { latest_tag: null, checked: NOW_MICROS + 10 * MINUTE },
          { latest_tag: null, checked: NOW_MICROS + 10 * MINUTE },
        ])
        expect(await count(e.db, 'activity_log', "scope in ('Plugin', 'PluginConfig')")).toBe(5) // the installs only: checking is not an edit

        const upgraded = await e.sightline.plugins.upgrade(e.org, geo.id, { userId: ada.id })
        expect(upgraded).toEqual({ ...geo, tag: 'v2.0.0', latestTag: 'v2.0.0', updatedAt: iso(10) })
        const [upgradedRow] = await e.db.raw<{ tag: string }>('select tag from plugins where id = $1', [geo.id])
        expect(upgradedRow!.tag).toBe('v2.0.0')
        const [entry] = (await e.sightline.plugins.activity(e.org, { limit: 1 })).results
        expect(entry).toMatchObject({ scope: 'Plugin', activity: 'upgraded', itemId: String(geo.id), userId: ada.id, createdAt: iso(10) })
        expect(entry!.detail).toEqual({ name: 'GeoIP', changes: [{ type: 'Plugin', action: 'changed', field: 'tag', before: 'v1.0.0', after: 'v2.0.0' }] })
        // Nothing newer, or nothing to upgrade from: unchanged, no entry.
        expect(await e.sightline.plugins.upgrade(e.org, geo.id)).toEqual(upgraded)
        expect(await e.sightline.plugins.upgrade(e.org, coded.id)).toEqual(await e.sightline.plugins.get(e.org, coded.id))
        expect(await e.sightline.plugins.upgrade(e.org, unknown.id)).toMatchObject({ tag: 'v1', latestTag: null })
        expect(await count(e.db, 'activity_log', "scope in ('Plugin', 'PluginConfig')")).toBe(6)

        // PostHog shows a check that found the installed tag for 30 minutes, a newer tag until upgraded.
        now = at(39)
        expect((await e.sightline.plugins.get(e.org, geo.id)).latestTag).toBe('v2.0.0')
        now = at(41)
        expect((await e.sightline.plugins.get(e.org, geo.id)).latestTag).toBeNull()
        expect((await e.sightline.plugins.get(e.org, priv.id)).latestTag).toBe('abc123')
        expect((await e.sightline.plugins.list(e.org)).results.map((p) => p.latestTag)).toEqual([null, 'abc123', null, 'v2.0.0', null])
        const [stillStored] = await e.db.raw<{ latest_tag: string }>('select latest_tag from plugins where id = $1', [geo.id])
        expect(stillStored!.latest_tag).toBe('v2.0.0')
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'plugin source: files are read and written, and plugin.json renames the plugin and sets its config schema', async () => {
      let now = NOW
      const e = await openPluginEngine(target, () => now)
      try {
        const ada = await e.sightline.users.create({ email: 'ada@acme.io', firstName: 'Ada', organizationIds: [e.org] })
        const hello = await e.sightline.plugins.create(e.org, { name: 'Hello', description: 'Says hello' })
        expect(await e.sightline.plugins.source(e.org, hello.id)).toEqual({})

        now = at(1)
        const config = [{ key: 'greeting', name: 'Greeting', type: 'string', default: 'hi' }]
        const pluginJson = JSON.stringify({ name: 'Hello World', description: 'not copied, as PostHog', config })
        const index = 'export function processEvent(event, { config }) {\n  event.properties.greeting = config.greeting\n  return event\n}\n'
        const files = await e.sightline.plugins.updateSource(e.org, hello.id, { 'plugin.json': pluginJson, 'index.ts': index }, { userId: ada.id })
        expect(files).toEqual({ 'index.ts': index, 'plugin.json': pluginJson })
        expect(Object.keys(files)).toEqual(['index.ts', 'plugin.json'])
        expect(await e.sightline.plugins.source(e.org, hello.id)).toEqual(files)
        expect(await e.sightline.plugins.get(e.org, hello.id)).toEqual({ ...hello, name: 'Hello World', configSchema: config, updatedAt: iso(1) })
        const rows = await e.db.raw<Record<string, unknown>>(
          `select plugin_id, filename, source, ${e.db.epochMicros('updated_at')} as updated from plugin_source_files order by filename`,
        )
        expect(rows.map((r) => ({ ...r, updated: micros(r.updated) }))).toEqual([
          { plugin_id: hello.id, filename: 'index.ts', source: index, updated: NOW_MICROS + MINUTE },
          { plugin_id: hello.id, filename: 'plugin.json', source: pluginJson, updated: NOW_MICROS + MINUTE },
        ])
        const latest = async () => (await e.sightline.activity.list({ organizationId: e.org, scope: 'Plugin', itemId: hello.id }, { limit: 1 })).results[0]!
        expect(await latest()).toMatchObject({ activity: 'source_updated', userId: ada.id, createdAt: iso(1) })
        expect((await latest()).detail).toEqual({
          name: 'Hello World',
          changes: [
            { type: 'Plugin', action: 'created', field: 'plugin.json', after: pluginJson },
            { type: 'Plugin', action: 'created', field: 'index.ts', after: index },
            { type: 'Plugin', action: 'changed', field: 'name', before: 'Hello', after: 'Hello World' },
            { type: 'Plugin', action: 'changed', field: 'configSchema', before: {}, after: config },
          ],
        })

        now = at(2)
        const frontend = 'export const scene = { component: () => null }\n'
        const after = await e.sightline.plugins.updateSource(e.org, hello.id, { 'index.ts': null, 'frontend.tsx': frontend, 'site.ts': null })
        expect(after).toEqual({ 'frontend.tsx': frontend, 'plugin.json': pluginJson })
        expect(await count(e.db, 'plugin_source_files')).toBe(2)
        expect((await latest()).detail).toEqual({
          name: 'Hello World',
          changes: [
            { type: 'Plugin', action: 'deleted', field: 'index.ts', before: index },
            { type: 'Plugin', action: 'created', field: 'frontend.tsx', after: frontend },
          ],
        })
        const entries = await count(e.db, 'activity_log', "scope in ('Plugin', 'PluginConfig')")

        // The same content again changes nothing: no entry, no new updated_at.
        now = at(3)
        expect(await e.sightline.plugins.updateSource(e.org, hello.id, { 'frontend.tsx': frontend, 'index.ts': null })).toEqual(after)
        expect(await count(e.db, 'activity_log', "scope in ('Plugin', 'PluginConfig')")).toBe(entries)
        expect((await e.sightline.plugins.get(e.org, hello.id)).updatedAt).toBe(iso(2))

        // As PostHog, the plugin follows its plugin.json on every source update, whichever file changed.
        await e.sightline.plugins.update(e.org, hello.id, { name: 'Renamed' })
        now = at(4)
        const site = 'export function inject({ config }) {}\n'
        await e.sightline.plugins.updateSource(e.org, hello.id, { 'site.ts': site })
        expect(await e.sightline.plugins.get(e.org, hello.id)).toMatchObject({ name: 'Hello World', updatedAt: iso(4) })
        expect((await latest()).detail.changes).toEqual([
          { type: 'Plugin', action: 'created', field: 'site.ts', after: site },
          { type: 'Plugin', action: 'changed', field: 'name', before: 'Renamed', after: 'Hello World' },
        ])
        expect(Object.keys(await e.sightline.plugins.source(e.org, hello.id))).toEqual(['frontend.tsx', 'plugin.json', 'site.ts'])
      } finally {
        await e.close()
      }
    })

    conformanceCase(target, 'plugin configs: one per project and plugin, secrets masked and kept, every change logged', async () => {
      let now = NOW
      const e = await openPluginEngine(target, () => now)
      try {
        const ada = await e.sightline.users.create({ email: 'ada@acme.io', firstName: 'Ada', organizationIds: [e.org] })
        const keys = await e.sightline.plugins.create(e.org, {
          name: 'Keys',
          configSchema: [
            { key: 'apiKey', name: 'API key', type: 'string', secret: true },
            { key: 'region', name: 'Region', type: 'choice', choices: ['eu', 'us'] },
          ],
        })
        const other = await e.sightline.plugins.create(e.org, { name: 'Other' })
        const configs = e.sightline.pluginConfigs
        const cfg = await configs.create(e.projectId, { pluginId: keys.id, enabled: true, order: 2, config: { apiKey: 's3cret', region: 'eu' } }, { userId: ada.id })
        expect(cfg).toEqual({
          id: cfg.id,
          projectId: e.projectId,
          pluginId: keys.id,
          enabled: true,
          order: 2,
          config: { apiKey: MASK, region: 'eu' },
          createdAt: '2026-03-01T12:00:00.000000Z',
          updatedAt: '2026-03-01T12:00:00.000000Z',
        })
        const stored = async (id: number) => {
          const [row] = await e.db.raw<Record<string, unknown>>(`select project_id, plugin_id, enabled, "order", config from plugin_configs where id = $1`, [id])
          return row && { ...row, config: json(row.config) }
        }
        expect(await stored(cfg.id)).toEqual({ project_id: e.projectId, plugin_id: keys.id, enabled: true, order: 2, config: { apiKey: 's3cret', region: 'eu' } })
        const log = async (id: number) => (await e.sightline.activity.list({ organizationId: e.org, scope: 'PluginConfig', itemId: id })).results
        expect(await log(cfg.id)).toEqual([
          expect.objectContaining({
            projectId: e.projectId,
            userId: ada.id,
            activity: 'enabled',
            detail: {
              name: 'Keys',
              changes: [
                { type: 'PluginConfig', action: 'created', field: 'apiKey', after: MASK },
                { type: 'PluginConfig', action: 'created', field: 'region', after: 'eu' },
              ],
            },
          }),
        ])
        const twice = await configs.create(e.projectId, { pluginId: keys.id }).catch((x: unknown) => x)
        expect(twice).toBeInstanceOf(ConflictError)

        const cfg2 = await configs.create(e.projectId, { pluginId: other.id })
        expect(cfg2).toMatchObject({ pluginId: other.id, enabled: false, order: 0, config: {} })
        expect((await log(cfg2.id)).map((x) => [x.activity, x.detail.changes])).toEqual([['created', []]])
        expect((await configs.list(e.projectId)).map((c) => c.id)).toEqual([cfg2.id, cfg.id])
        expect(await configs.get(e.projectId, cfg.id)).toEqual(cfg)
        expect(await e.sightline.plugins.unused(e.org)).toEqual([other.id])

        now = at(60)
        const updated = await configs.update(e.projectId, cfg.id, { config: { apiKey: MASK, region: 'us' }, enabled: false, order: 5 }, { userId: ada.id })
        expect(updated).toEqual({ ...cfg, enabled: false, order: 5, config: { apiKey: MASK, region: 'us' }, updatedAt: iso(60) })
        expect(await stored(cfg.id)).toMatchObject({ enabled: false, order: 5, config: { apiKey: 's3cret', region: 'us' } })
        expect((await log(cfg.id)).map((x) => [x.activity, x.detail.changes, x.userId])).toEqual([
          ['order_changed', [{ type: 'PluginConfig', action: 'changed', field: 'order', before: 2, after: 5 }], ada.id],
          ['disabled', [], ada.id],
          ['config_updated', [{ type: 'PluginConfig', action: 'changed', field: 'region', before: 'eu', after: 'us' }], ada.id],
          ['enabled', expect.any(Array), ada.id],
        ])
        expect(await e.sightline.plugins.unused(e.org)).toEqual([keys.id, other.id])

        // `config` replaces the settings; a secret sent again is replaced, one left out is kept.
        await configs.update(e.projectId, cfg.id, { config: { apiKey: 'rotated' } })
        expect((await stored(cfg.id))!.config).toEqual({ apiKey: 'rotated' })
        expect((await log(cfg.id))[0]!.detail.changes).toEqual([
          { type: 'PluginConfig', action: 'changed', field: 'apiKey', before: MASK, after: MASK },
          { type: 'PluginConfig', action: 'deleted', field: 'region', before: 'us' },
        ])
        await configs.update(e.projectId, cfg.id, { config: { region: 'eu', apiKey: null } as never })
        expect((await stored(cfg.id))!.config).toEqual({ apiKey: 'rotated', region: 'eu' })
        expect((await log(cfg.id))[0]!.detail.changes).toEqual([{ type: 'PluginConfig', action: 'created', field: 'region', after: 'eu' }])
        expect(await count(e.db, 'activity_log', "scope = 'PluginConfig'")).toBe(7)

        await configs.update(e.projectId, cfg2.id, { enabled: true })
        expect(await e.sightline.plugins.unused(e.org)).toEqual([keys.id])
        expect((await log(cfg2.id))[0]).toMatchObject({ activity: 'enabled', detail: { name: 'Other', changes: [] } })
        // An update that changes nothing records nothing.
        now = at(61)
        expect(await configs.update(e.projectId, cfg2.id, { enabled: true, order: 0, config: {} })).toMatchObject({ enabled: true, updatedAt: iso(60) })
        expect(await count(e.db, 'activity_log', "scope = 'PluginConfig'")).toBe(8)

        await configs.delete(e.projectId, cfg.id, { userId: ada.id })
        expect(await stored(cfg.id)).toBeUndefined()
        await expect(configs.get(e.projectId, cfg.id)).rejects.toBeInstanceOf(NotFoundError)
        expect((await log(cfg.id))[0]).toMatchObject({ activity: 'deleted', userId: ada.id, detail: { name: 'Keys', changes: [{ type: 'PluginConfig', action: 'deleted' }] } })
        expect((await configs.list(e.projectId)).map((c) => c.id)).toEqual([cfg2.id])
        // Deleted, the config may be created again.
        expect(await configs.create(e.projectId, { pluginId: keys.id })).toMatchObject({ pluginId: keys.id, enabled: false })

        const activity = await e.sightline.plugins.activity(e.org)
        expect(activity.count).toBe(12)
        expect(activity.results.slice(0, 2).map((x) => `${x.scope}:${x.activity}`)).toEqual(['PluginConfig:created', 'PluginConfig:deleted'])
      } finally {
        await e.close()
      }
    })
  })
}
