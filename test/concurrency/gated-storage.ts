import type { DatabaseConnection, Dialect, Driver } from 'kysely'
import type { StorageAdapter } from '@sightline/core'

/** A point a write stops at until the test lets it go. */
export interface Hold {
  /** Resolves once a write reached the point (and stopped there). */
  readonly reached: Promise<void>
  /** Lets the stopped write continue. */
  release(): void
}

/**
 * A storage whose writes the test can stop at two points, each armed for
 * one use:
 * - `holdInsert(projectId)`: the next capture of the project stops inside
 *   its transaction, just before its events are inserted, holding the
 *   project's write lock and one connection with its changes uncommitted;
 * - `holdNextAcquire()`: the next request for a connection stops before it
 *   gets one. Armed right before a capture, that is the capture's
 *   transaction: it holds its project's lock, and no connection.
 * The stops are promises, so cases assert orders, never durations.
 */
export interface GatedStorage {
  readonly storage: StorageAdapter
  holdInsert(projectId: number): Hold
  holdNextAcquire(): Hold
}

function hold(): Hold & { stop(): Promise<void> } {
  let reach!: () => void
  let release!: () => void
  const reached = new Promise<void>((resolve) => (reach = resolve))
  const released = new Promise<void>((resolve) => (release = resolve))
  return {
    reached,
    release,
    stop() {
      reach()
      return released
    },
  }
}

/** A proxy of `target` whose `overrides` replace its members; other methods stay bound to the target (private fields). */
function override<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(t, key) {
      if (key in overrides) return overrides[key as keyof T]
      const value = Reflect.get(t, key, t) as unknown
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(t) : value
    },
  })
}

export function gatedStorage(inner: StorageAdapter): GatedStorage {
  const inserts = new Map<number, ReturnType<typeof hold>>()
  let nextAcquire: ReturnType<typeof hold> | undefined

  const gateDriver = (driver: Driver): Driver =>
    override(driver, {
      async acquireConnection(): Promise<DatabaseConnection> {
        const stop = nextAcquire
        nextAcquire = undefined
        if (stop) await stop.stop()
        return driver.acquireConnection()
      },
    })

  const storage: StorageAdapter = {
    ...inner,
    async open() {
      const driver = await inner.open()
      const dialect: Dialect = override(driver.dialect, { createDriver: () => gateDriver(driver.dialect.createDriver()) })
      return {
        ...driver,
        dialect,
        async insertEvents(db, rows, slots) {
          const projectId = rows[0]?.project_id
          const stop = projectId === undefined ? undefined : inserts.get(projectId)
          if (stop) {
            inserts.delete(projectId!)
            await stop.stop()
          }
          return driver.insertEvents(db, rows, slots)
        },
      }
    },
  }

  return {
    storage,
    holdInsert(projectId) {
      const h = hold()
      inserts.set(projectId, h)
      return h
    },
    holdNextAcquire() {
      const h = hold()
      nextAcquire = h
      return h
    },
  }
}
