import { expect } from 'vitest'
import { REPOSITORY } from '../../packages/http-adapter/test/fixture.js'
import { ACTIVITY, arrayOf, type Check, envelope, int, plugin, problems } from './interface-rows.shapes.js'
import { call, echoes, get, pages, type Row, send } from './row.js'
import { PLUGIN_BODY, type State } from './rows-world.js'

/** README "typed fields without a value yet": only the repository plugin was installed from a url and checked for updates. */
const REPO_PLUGIN = plugin({ fromUrl: true, checked: true })
const SOURCE_PLUGIN = plugin({ fromUrl: false, checked: false })
const pluginOf = (s: State): Check => (v, at, out) => ((v as { id?: unknown })?.id === s.repoPlugin.id ? REPO_PLUGIN : SOURCE_PLUGIN)(v, at, out)

/** 4.1: the plugin rows. */
export const PLUGIN_ROWS: Row[] = [
  {
    method: 'GET', path: '/', status: 200,
    send: get((s) => `${s.plugins}/?limit=1&offset=1`),
    shape: (s) => envelope(pluginOf(s)),
    values: (body, s) => pages(`${s.plugins}/`, body),
  },
  {
    method: 'POST', path: '/', status: 201,
    send: send('POST', (s) => `${s.plugins}/`, () => PLUGIN_BODY),
    shape: () => SOURCE_PLUGIN,
    values: (body, s) => {
      echoes(body, PLUGIN_BODY)
      expect([body.organization_id, body.organization_name]).toEqual([s.w.org.id, s.w.org.name])
    },
  },
  {
    method: 'GET', path: '/:id/', status: 200,
    send: get((s) => `${s.plugins}/${s.repoPlugin.id}/`),
    shape: () => REPO_PLUGIN,
    values: (body, s) => expect(body).toEqual(s.repoPlugin),
  },
  {
    method: 'PATCH', path: '/:id/', status: 200,
    send: send('PATCH', (s) => `${s.plugins}/${s.repoPlugin.id}/`, () => ({ ...PLUGIN_BODY, plugin_type: 'repository', name: 'GeoIP' })),
    shape: () => REPO_PLUGIN,
    values: async (body, s) => {
      echoes(body, { ...PLUGIN_BODY, plugin_type: 'repository', name: 'GeoIP' })
      expect((await call('GET', `${s.plugins}/${s.repoPlugin.id}/`)).body).toEqual(body)
    },
  },
  {
    method: 'DELETE', path: '/:id/', status: 204,
    send: send('DELETE', (s) => `${s.plugins}/${s.sourcePlugin.id}/`),
    values: async (_body, s, answer) => {
      expect(answer.text).toBe('')
      expect((await call('GET', `${s.plugins}/${s.sourcePlugin.id}/`)).status).toBe(404)
    },
  },
  {
    method: 'GET', path: '/:id/check_for_updates/', status: 200,
    send: get((s) => `${s.plugins}/${s.repoPlugin.id}/check_for_updates/`),
    // README: the Plugin, and the same object under `plugin`.
    shape: () => REPO_PLUGIN,
    values: (body) => {
      expect(problems(body.plugin, REPO_PLUGIN)).toEqual([])
      expect(body.latest_tag).toBe(REPOSITORY[0]!.tag)
    },
  },
  {
    method: 'GET', path: '/:id/source/', status: 200,
    // README: PostHog's `{ filename: source }`, not the Plugin.
    send: get((s) => `${s.plugins}/${s.filesPlugin.id}/source/`),
    values: (body, s) => expect(body).toEqual(s.files),
  },
  {
    method: 'PATCH', path: '/:id/update_source/', status: 200,
    // README: PostHog's file names as the body, `{ filename: source }` answered; the Plugin writeable fields are a 400 naming the first.
    send: send('PATCH', (s) => `${s.plugins}/${s.filesPlugin.id}/update_source/`, () => ({ 'index.ts': '// rows v2' })),
    values: async (body, s) => {
      expect(body).toEqual({ ...s.files, 'index.ts': '// rows v2' })
      const refused = await call('PATCH', `${s.plugins}/${s.filesPlugin.id}/update_source/`, PLUGIN_BODY)
      expect([refused.status, refused.body.type, Object.keys(PLUGIN_BODY).includes(refused.body.attr)]).toEqual([400, 'validation_error', true])
      expect((await call('GET', `${s.plugins}/${s.filesPlugin.id}/source/`)).body).toEqual(body)
    },
  },
  {
    method: 'POST', path: '/:id/upgrade/', status: 200,
    // README: the body (the writeable fields) is validated, then ignored.
    send: send('POST', (s) => `${s.plugins}/${s.repoPlugin.id}/upgrade/`, () => ({ ...PLUGIN_BODY, name: 'Ignored' })),
    shape: () => REPO_PLUGIN,
    values: (body) => expect(body.name).not.toBe('Ignored'),
  },
  {
    method: 'GET', path: '/activity/', status: 200,
    send: get((s) => `${s.plugins}/activity/`),
    shape: () => ACTIVITY,
  },
  {
    method: 'GET', path: '/repository/', status: 200,
    // README: the host's `pluginRepository` array.
    send: get((s) => `${s.plugins}/repository/`),
    values: (body) => expect(body).toEqual(REPOSITORY),
  },
  {
    method: 'GET', path: '/unused/', status: 200,
    // README: the ids of the organization's plugins no project enables (the repository plugin is enabled).
    send: get((s) => `${s.plugins}/unused/`),
    shape: () => arrayOf(int),
    values: async (body, s) => {
      const all = (await call('GET', `${s.plugins}/?limit=1000`)).body.results.map((p: { id: number }) => p.id)
      expect([...body].sort()).toEqual(all.filter((id: number) => id !== s.repoPlugin.id).sort())
    },
  },
]
