/**
 * The one list of analyses (core's analysis-registry.ts) is what
 * `sightline.query` and the HTTP routes are made of: each entry is a method
 * and a route, nothing else is, and each saved-insight type has one analysis.
 */
import { ANALYSES, createSightline } from '@sightline/core'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { createHandler } from '@sightline/http-adapter'
import { describe, expect, it } from 'vitest'
import { analysisOfInsight } from '../../packages/core/src/query/analysis/analysis-registry.js'

describe('the registry of analyses', () => {
  it('is sightline.query: a method per analysis and per persons list, and cancel', async () => {
    const sightline = await createSightline({ storage: duckdbStorage() })
    try {
      const names = ANALYSES.flatMap((a) => [a.name, a.persons.name])
      expect(Object.keys(sightline.query).sort()).toEqual([...names, 'cancel'].sort())
      for (const name of names) expect(typeof (sightline.query as unknown as Record<string, unknown>)[name]).toBe('function')
    } finally {
      await sightline.close()
    }
  })

  it('gives each route one analysis, and each saved-insight type one analysis', () => {
    const paths = ANALYSES.flatMap((a) => [a.http.path, a.persons.path])
    expect(new Set(paths).size).toBe(paths.length)
    const types = ANALYSES.flatMap((a) => a.insightTypes)
    expect(new Set(types).size).toBe(types.length)
    expect(Object.fromEntries(types.map((t) => [t, analysisOfInsight(t)?.name]))).toEqual({
      TRENDS: 'trend',
      STICKINESS: 'trend',
      LIFECYCLE: 'trend',
      FUNNELS: 'funnel',
      RETENTION: 'retention',
      PATHS: 'paths',
    })
    expect(analysisOfInsight('SQL')).toBeUndefined()
  })

  it('is what the HTTP adapter serves: every analysis path answers its methods, every persons path GET', async () => {
    const sightline = await createSightline({ storage: duckdbStorage() })
    try {
      const app = createHandler(sightline)
      for (const a of ANALYSES) {
        for (const [method, path] of [...a.http.methods.map((m) => [m, a.http.path] as const), ['GET', a.persons.path] as const]) {
          // No key: a served route asks for one (401); an unknown one would answer 404.
          const response = await app(new Request(`http://localhost/api/projects/1/${path}`, { method, ...(method === 'POST' && { body: '{}', headers: { 'content-type': 'application/json' } }) }))
          expect(response.status, `${method} ${path}`).toBe(401)
        }
      }
    } finally {
      await sightline.close()
    }
  })
})
