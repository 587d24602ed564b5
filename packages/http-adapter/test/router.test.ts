import { describe, expect, test } from 'vitest'
import { createRouter, type Method } from '../src/router.js'

const r = (method: Method, path: string) => ({ method, path, name: `${method} ${path}` })
const lookup = createRouter([
  r('GET', '/api/projects/'),
  r('POST', '/api/projects/'),
  r('GET', '/api/projects/:id/'),
  r('PATCH', '/api/projects/:id/'),
  r('GET', '/api/projects/:project_id/insights/:id/'),
  r('DELETE', '/api/projects/:project_id/insights/:id/'),
  r('GET', '/api/projects/:project_id/insights/trend/'),
  r('POST', '/api/projects/:project_id/insights/trend/'),
  r('GET', '/api/users/@me/'),
])

describe('router', () => {
  test('matches with or without the trailing slash', () => {
    for (const path of ['/api/projects/', '/api/projects']) {
      const found = lookup('GET', path)
      expect(found.kind === 'found' && found.route.name).toBe('GET /api/projects/')
    }
  })

  test('binds and decodes parameters', () => {
    const found = lookup('GET', '/api/projects/12/insights/a%20b/')
    expect(found).toMatchObject({ kind: 'found', params: { project_id: '12', id: 'a b' } })
  })

  test('a literal segment beats a parameter, whatever the order of the table', () => {
    const found = lookup('GET', '/api/projects/1/insights/trend/')
    expect(found.kind === 'found' && found.route.name).toBe('GET /api/projects/:project_id/insights/trend/')
    // The literal pattern decides the methods: DELETE is not allowed on /trend/ even though /:id/ has it.
    expect(lookup('DELETE', '/api/projects/1/insights/trend/')).toEqual({ kind: 'method-not-allowed', allow: ['GET', 'POST', 'HEAD', 'OPTIONS'] })
  })

  test('a wrong method on a known path lists what is allowed', () => {
    expect(lookup('DELETE', '/api/projects/1/')).toEqual({ kind: 'method-not-allowed', allow: ['GET', 'PATCH', 'HEAD', 'OPTIONS'] })
  })

  test('HEAD is GET; OPTIONS lists the methods', () => {
    expect(lookup('HEAD', '/api/users/@me').kind).toBe('found')
    expect(lookup('OPTIONS', '/api/projects/')).toMatchObject({ kind: 'options', allow: ['GET', 'POST', 'HEAD', 'OPTIONS'] })
  })

  test('unknown paths, empty segments and malformed escapes are not found', () => {
    for (const path of ['/', '/api', '/api/projects/1/x/', '/api//projects/', '/api/projects//', '/api/projects/%E0%A4%A/', '//api/projects/']) {
      expect(lookup('GET', path), path).toEqual({ kind: 'not-found' })
    }
  })

  test('a constrained parameter matches only its pattern; a literal still beats it, and it beats a plain parameter', () => {
    const constrained = createRouter([
      r('GET', '/api/p/:project_id/insights/:id(\\d+)/'),
      r('DELETE', '/api/p/:project_id/insights/:id(\\d+)/'),
      r('GET', '/api/p/:project_id/insights/activity/'),
      r('GET', '/api/p/:project_id/insights/:slug/'),
    ])
    expect(constrained('GET', '/api/p/1/insights/42/')).toMatchObject({ kind: 'found', params: { id: '42' }, route: { path: '/api/p/:project_id/insights/:id(\\d+)/' } })
    expect(constrained('GET', '/api/p/1/insights/activity/')).toMatchObject({ kind: 'found', route: { path: '/api/p/:project_id/insights/activity/' } })
    expect(constrained('GET', '/api/p/1/insights/trend/')).toMatchObject({ kind: 'found', params: { slug: 'trend' } })
    // Without the plain parameter, a path the constraint refuses is not found, whatever the method.
    const strict = createRouter([r('GET', '/x/:id(\\d+)/'), r('DELETE', '/x/:id(\\d+)/')])
    expect(strict('POST', '/x/trend/')).toEqual({ kind: 'not-found' })
    expect(strict('GET', '/x/4a/')).toEqual({ kind: 'not-found' })
    expect(strict('POST', '/x/4/')).toEqual({ kind: 'method-not-allowed', allow: ['GET', 'DELETE', 'HEAD', 'OPTIONS'] })
  })

  test('refuses a table with the same route twice', () => {
    expect(() => createRouter([r('GET', '/a/'), r('GET', '/a')])).toThrow(/duplicate route/)
  })
})
