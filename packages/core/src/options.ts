import { Schema } from 'effect'
import type { StorageAdapter } from './storage.js'

const isStorageAdapter = (u: unknown): u is StorageAdapter =>
  typeof u === 'object' && u !== null && typeof (u as StorageAdapter).open === 'function' && typeof (u as StorageAdapter).name === 'string'

/** Options of `createSightline`. */
export const SightlineOptions = Schema.Struct({
  /** Where everything is stored: `duckdbStorage()` or `postgresStorage(...)`. */
  storage: Schema.declare(isStorageAdapter, { expected: 'a storage adapter such as duckdbStorage()' }),
  /** "Now" for relative dates, defaults and generated timestamps. Default: the system clock. */
  /**
   * The catalogue of installable plugins, served by `plugins.repository()`;
   * `check_for_updates` compares plugin tags with it. Default: empty.
   */
  pluginRepository: Schema.optional(
    Schema.Array(
      Schema.Struct({
        name: Schema.String,
        url: Schema.String,
        description: Schema.String,
        icon: Schema.String,
        tag: Schema.String,
        maintainer: Schema.optional(Schema.String),
        type: Schema.optional(Schema.Literals(['data_in', 'data_out', 'transformation', 'other'])),
      }),
    ),
  ),
  clock: Schema.optional(Schema.declare((u: unknown): u is () => Date => typeof u === 'function', { expected: 'a function returning a Date' })),
})
export type SightlineOptions = typeof SightlineOptions.Type
