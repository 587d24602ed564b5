import { describe, expect, it } from 'vitest'
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql, type Expression } from 'kysely'
import type { SqlHooks } from '@sightline/core/storage'
import { chooseSpelling, dualHooks } from '../src/companion/dual-hooks.js'
import { ClickHouseQueryCompiler } from '../src/dialect/clickhouse-query-compiler.js'

const kysely = new Kysely<any>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
})
/** The SQL of `e` as each side spells it. */
const spelled = (e: Expression<unknown>) => {
  const node = sql`select ${e}`.toOperationNode()
  return {
    clickhouse: new ClickHouseQueryCompiler().compileQuery(chooseSpelling(node, 'clickhouse') as never, { queryId: 'q' } as never).sql,
    companion: kysely.getExecutor().compileQuery(chooseSpelling(node, 'companion') as never, { queryId: 'q' } as never).sql,
  }
}
const hook = (text: string) => () => sql.raw(text)

describe('dualHooks: the dialect hooks of ClickHouse with a companion store', () => {
  const clickhouse = { epochMicros: hook('ch_epoch(x)'), onlyClickHouse: hook('ch_only(x)'), flag: undefined } as unknown as SqlHooks
  const companion = { epochMicros: hook('epoch(x)'), bucketIndex: hook('width_bucket(x)'), hashesIntermediateJoins: true } as unknown as SqlHooks
  const hooks = dualHooks(clickhouse, companion) as unknown as Record<string, unknown>

  it('spells a hook both stores have each way: the routing compiler picks by where the statement runs', () => {
    expect(spelled((hooks.epochMicros as () => Expression<unknown>)())).toEqual({ clickhouse: 'select ch_epoch(x)', companion: 'select epoch(x)' })
  })

  it("leaves out an optional hook or flag only the companion declares: analyses run on ClickHouse, which lacks it", () => {
    // Postgres's bucketIndex: every trend on ClickHouse with a Postgres companion failed calling ClickHouse's (none).
    expect(hooks.bucketIndex).toBeUndefined()
    expect(hooks.hashesIntermediateJoins).toBeUndefined()
  })

  it("keeps a hook only ClickHouse declares, spelled ClickHouse's way on both sides", () => {
    expect(spelled((hooks.onlyClickHouse as () => Expression<unknown>)())).toEqual({ clickhouse: 'select ch_only(x)', companion: 'select ch_only(x)' })
  })
})
