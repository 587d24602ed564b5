import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createHandler, type UiPages } from '@sightline/http-adapter'
import { world, type World } from './fixture.js'

/** A stand-in for `@sightline/ui`: the http-adapter knows only the `UiPages` shape, never the package. */
const pages: UiPages & { asked: string[] } = {
  asked: [],
  serve(path, request) {
    pages.asked.push(`${request.method} ${path}`)
    if (path === '/') return new Response('<!doctype html><title>page</title>', { headers: { 'content-type': 'text/html' } })
    if (path === '/ui/app.js') return Promise.resolve(new Response('export {}', { headers: { 'content-type': 'text/javascript' } }))
    return null
  },
}

describe('the ui option', () => {
  let w: World
  beforeAll(async () => {
    w = await world({ basePath: '/sightline', ui: pages })
  })
  afterAll(() => w?.close())

  test('serves the pages under the base path; the API is unchanged', async () => {
    const page = await w.call('GET', '/', { key: null })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<title>page</title>')
    expect((await w.call('GET', '/ui/app.js', { key: null })).headers.get('content-type')).toBe('text/javascript')
    expect((await w.call('GET', '/api/projects/')).status).toBe(200)
    expect((await w.call('GET', '/api/projects/', { key: null })).status).toBe(401)
  })

  test('is asked only for GET and HEAD of paths no route matches; others keep their 404 and 405', async () => {
    pages.asked.length = 0
    expect((await w.call('GET', '/api/projects/')).status).toBe(200)
    expect((await w.call('POST', '/ui/app.js', { key: null })).status).toBe(404)
    const head = await w.call('HEAD', '/', { key: null })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    const missing = await w.call('GET', '/nothing/', { key: null })
    expect(missing.status).toBe(404)
    expect(await missing.json()).toMatchObject({ code: 'not_found' })
    expect(pages.asked).toEqual(['HEAD /', 'GET /nothing/'])
  })

  test('without it, the base path answers 404 as before', async () => {
    const plain = await world({ basePath: '/sightline' })
    try {
      expect((await plain.call('GET', '/', { key: null })).status).toBe(404)
    } finally {
      await plain.close()
    }
  })

  test('a value without serve() is refused when the handler is made', () => {
    expect(() => createHandler(w.sightline, { ui: {} as UiPages })).toThrow(/invalid http-adapter options/)
  })
})
