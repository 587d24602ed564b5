import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { sightlineUi } from '../src/index.js'

const get = (path: string, url = `http://x/sightline${path === '/' ? '/' : path}`, headers: Record<string, string> = {}) => new Request(url, { headers })

describe('sightlineUi: the page and its assets', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sightline-ui-'))
  writeFileSync(join(dir, 'sightline-ui.js'), 'export const ok = 1\n')
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const ui = sightlineUi({ assetsDir: dir, title: 'Acme <analytics>' })

  test('/ is the page: relative links, its title escaped, a policy that allows its own origin only', async () => {
    const response = (await ui.serve('/', get('/')))!
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const csp = response.headers.get('content-security-policy')!
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("connect-src 'self'")
    expect(csp).not.toMatch(/https?:/)
    const html = await response.text()
    expect(html).toContain('<script type="module" src="ui/sightline-ui.js"></script>')
    expect(html).toContain('<title>Acme &#60;analytics&#62;</title>')
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//)
  })

  test('the base path without its slash is redirected to it, so relative links resolve under it', async () => {
    const response = (await ui.serve('/', get('/', 'http://x/sightline?x=1')))!
    expect(response.status).toBe(308)
    expect(response.headers.get('location')).toBe('/sightline/?x=1')
  })

  test('the script and styles, each with an ETag a revalidation answers 304 to', async () => {
    const script = (await ui.serve('/ui/sightline-ui.js', get('/ui/sightline-ui.js')))!
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await script.text()).toBe('export const ok = 1\n')
    const etag = script.headers.get('etag')!
    const again = (await ui.serve('/ui/sightline-ui.js', get('/ui/sightline-ui.js', undefined, { 'if-none-match': etag })))!
    expect(again.status).toBe(304)
    const css = (await ui.serve('/ui/sightline-ui.css', get('/ui/sightline-ui.css')))!
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8')
    expect(await css.text()).toContain(':focus-visible')
  })

  test('other paths are not its own: null, so the handler answers 404', async () => {
    expect(await ui.serve('/ui/other.js', get('/ui/other.js'))).toBeNull()
    expect(await ui.serve('/favicon.ico', get('/favicon.ico'))).toBeNull()
  })

  test('a missing bundle is a 503 saying how to build it', async () => {
    const missing = sightlineUi({ assetsDir: join(dir, 'nowhere') })
    const response = (await missing.serve('/ui/sightline-ui.js', get('/ui/sightline-ui.js')))!
    expect(response.status).toBe(503)
    expect(await response.text()).toMatch(/not built: run `pnpm build`/)
  })

  test('the package’s own bundle (built by the tests’ global setup, as by pnpm build) is served by default', async () => {
    const response = (await sightlineUi().serve('/ui/sightline-ui.js', get('/ui/sightline-ui.js')))!
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text).toContain('sightline-insight')
    // Nothing is fetched from another host at run time: no absolute URL the bundle could load.
    expect(text).not.toMatch(/\bfetch\(\s*["'`]https?:/)
    expect(text).not.toMatch(/import\(\s*["'`]https?:/)
  })
})
