import { afterAll, beforeAll } from 'vitest'
import type { ConformanceTarget } from '../../conformance/target.js'
import type { FunnelExampleData } from '../../reference/funnels/funnel-dataset.js'
import { openFunnelEngine, type FunnelEngine } from './engine.js'
import { loadExample } from './load-example.js'

/** One engine on `target` with `data` loaded into a project, opened before the suite's tests and closed after them. */
export interface LoadedProject {
  readonly engine: FunnelEngine
  readonly projectId: number
}

/** Registers the hooks that open and close it; the getter answers once `beforeAll` has run. */
export function loadedProject(target: ConformanceTarget, data: FunnelExampleData): () => LoadedProject {
  let loaded: LoadedProject | undefined
  let engine: FunnelEngine | undefined
  beforeAll(async () => {
    engine = await openFunnelEngine(target)
    loaded = { engine, projectId: (await loadExample(engine, data)).projectId }
  })
  afterAll(() => engine?.close())
  return () => loaded!
}
