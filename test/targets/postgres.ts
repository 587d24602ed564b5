import { randomBytes } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import { postgresStorage } from '@sightline/storage-postgres'
import type { ConformanceTarget, FreshDatabase } from '../conformance/target.js'

const toNumber = (v: unknown) => (typeof v === 'bigint' ? Number(v) : typeof v === 'string' && /^-?\d+$/.test(v) && v.length < 16 ? Number(v) : v)
const normalise = <T>(rows: Record<string, unknown>[]) =>
  rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, toNumber(v)]))) as T[]

const freshSchema = () => `sl_test_${randomBytes(6).toString('hex')}`
const epochMicros = (column: string) => `(extract(epoch from ${column}) * 1000000)::bigint`

let shared: PGlite | undefined
/** One PGlite per test file (it takes a second or two to start); each case gets its own schema. */
const pglite = async () => (shared ??= await PGlite.create())

export const pgliteTarget: ConformanceTarget = {
  name: 'postgres (PGlite)',
  async fresh(): Promise<FreshDatabase> {
    const db = await pglite()
    const schema = freshSchema()
    return {
      storage: () => postgresStorage({ pglite: db, schema }),
      async raw<T>(sql: string, params: unknown[] = []) {
        // PGlite has one session; the schema is named per query rather than changing the engine's search_path.
        const result = await db.transaction(async (tx) => {
          await tx.query(`set local search_path to "${schema}"`)
          return tx.query<Record<string, unknown>>(sql, params)
        })
        return normalise<T>(result.rows)
      },
      epochMicros,
      async dispose() {
        await db.query(`drop schema if exists "${schema}" cascade`)
      },
    }
  },
  unreachable: () => {
    const closed = { closed: true, query: async () => ({ rows: [] }), transaction: async () => undefined, close: async () => {} }
    return postgresStorage({ pglite: closed as never })
  },
}

/** The Postgres server of SIGHTLINE_PG_URL; each case in its own schema. */
export function pgServerTarget(url: string): ConformanceTarget {
  return {
    name: 'postgres (server)',
    async fresh(): Promise<FreshDatabase> {
      const { default: pg } = await import('pg')
      const schema = freshSchema()
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      await client.query(`create schema "${schema}"`)
      await client.query(`set search_path to "${schema}"`)
      return {
        storage: () => postgresStorage({ connectionString: url, schema }),
        async raw<T>(sql: string, params: unknown[] = []) {
          return normalise<T>((await client.query(sql, params)).rows)
        },
        epochMicros,
        async dispose() {
          await client.query(`drop schema if exists "${schema}" cascade`)
          await client.end()
        },
      }
    },
    unreachable: () => postgresStorage({ connectionString: 'postgres://sightline@127.0.0.1:1/none' }),
  }
}
