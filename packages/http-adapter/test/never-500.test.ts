import { afterAll, beforeAll, test } from 'vitest'
import { world, type World } from './fixture.js'
import { assertNever500 } from './never-500.js'

let w: World
beforeAll(async () => {
  w = await world({ maxCaptureBodyBytes: 256 * 1024 })
  await w.sightline.capture(w.project.id, [{ event: 'signed_up', distinctId: 'u' }])
})
afterAll(() => w.close())

test('no request makes a 5xx or hangs (DuckDB)', async () => {
  await assertNever500(w, 600)
}, 120_000)
