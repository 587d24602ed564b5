import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { duckdbStorage } from '@sightline/storage-duckdb'
import { postgresStorage } from '@sightline/storage-postgres'
import { compilePropertyFilters } from '../../packages/core/src/query/filters/compile-property-filters.js'
import { decodePropertyFilters } from '../../packages/core/src/query/filters/property-filters.js'

// Compiled with no database: each adapter's hooks over Kysely's DummyDriver.
const compiler = new Kysely<any>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
})
const adapters = { duckdb: duckdbStorage(), postgres: postgresStorage({ connectionString: 'postgres://unused' }) }

const FILTERS: Record<string, unknown> = {
  'exact list on a $ key': [{ key: '$browser', value: ['Chrome', 'Safari'] }],
  'is_not': [{ key: 'plan', value: 'pro', operator: 'is_not', type: 'person' }],
  'icontains + gt': [{ key: 'email', value: 'PostHog', operator: 'icontains' }, { key: 'n', value: '5', operator: 'gt' }],
  'nested regex OR date': { type: 'OR', values: [{ key: 'url', value: '^https?://', operator: 'regex' }, { type: 'AND', values: [{ key: 'at', value: '2024-01-01', operator: 'is_date_before' }] }] },
}

describe.each(Object.entries(adapters))('property filter SQL on %s', (_name, adapter) => {
  it.each(Object.entries(FILTERS))('%s', (_label, filters) => {
    const where = compilePropertyFilters(decodePropertyFilters(filters), {
      event: sql.ref('events.properties'),
      person: sql.ref('persons.properties'),
      hooks: adapter.sql,
    })
    const { sql: text, parameters } = compiler.selectFrom('events').select('uuid').where(where).compile()
    expect({ text, parameters }).toMatchSnapshot()
  })
})
