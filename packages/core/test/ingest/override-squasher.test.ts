import { describe, expect, it } from 'vitest'
import { OverrideSquasher } from '../../src/ingest/override-squasher.js'

/** A squasher over a recording squash that fails while `failing` is set. */
function recording(threshold: number) {
  const calls: number[] = []
  const state = { failing: false }
  const squasher = new OverrideSquasher(threshold, async (projectId) => {
    calls.push(projectId)
    if (state.failing) throw new Error('storage down')
  })
  return { squasher, calls, state }
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('OverrideSquasher', () => {
  it('squashes a project once its writes added the threshold, counting each project apart', () => {
    const { squasher, calls } = recording(10)
    squasher.added(1, 6)
    squasher.added(2, 9)
    expect(calls).toEqual([])
    squasher.added(1, 4) // 6 + 4 = 10
    expect(calls).toEqual([1])
    squasher.added(1, 9) // counting starts again after a squash
    squasher.added(2, 0) // nothing written: nothing counted
    expect(calls).toEqual([1])
    squasher.added(2, 1) // 9 + 1
    expect(calls).toEqual([1, 2])
  })

  it('keeps the count of a failed squash, so the next write tries again', async () => {
    const { squasher, calls, state } = recording(10)
    state.failing = true
    squasher.added(1, 12)
    expect(calls).toEqual([1])
    await settle()
    state.failing = false
    squasher.added(1, 1) // 12 kept + 1: over the threshold at once
    expect(calls).toEqual([1, 1])
  })
})
