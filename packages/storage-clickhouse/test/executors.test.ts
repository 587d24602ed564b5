import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Session } from 'chdb'
import type { ClickHouseClient } from '@sightline/storage-clickhouse'
import { chdbExecutor } from '../src/dialect/chdb-executor.js'
import { clientExecutor } from '../src/dialect/client-executor.js'
import type { ClickHouseExecutor } from '../src/dialect/clickhouse-executor.js'
import { openChdb } from './open-chdb.js'

/**
 * `@clickhouse/client`'s subset, answered by chDB: no server runs here. It
 * applies the settings each request carries as a server would (SET before
 * the statement; HTTP requests share no session, chDB does) and records them.
 */
function chdbBackedClient(session: Session, seen: Array<Record<string, unknown>>): ClickHouseClient {
  const apply = async (settings: Record<string, unknown> = {}) => {
    seen.push(settings)
    for (const [k, v] of Object.entries(settings)) if (k !== 'wait_end_of_query') await session.queryAsync(`SET ${k} = ${typeof v === 'number' ? v : `'${String(v)}'`}`)
  }
  return {
    async query({ query, query_params, format, clickhouse_settings }) {
      await apply(clickhouse_settings)
      const text = (await session.queryBindAsync(query, query_params ?? {}, { format })).text()
      return { json: async <T>() => JSON.parse(text) as T }
    },
    async command({ query, query_params, clickhouse_settings }) {
      await apply(clickhouse_settings)
      await session.queryBindAsync(query, query_params ?? {}, { format: 'Null' })
    },
    async insert({ table, values, format, columns }) {
      await session.insert({ table, values: Buffer.from(values.map((v) => JSON.stringify(v)).join('\n')), format, columns })
    },
  }
}

/** What the dialect needs of either driver, checked the same way on both. */
function executorContract(name: string, make: (session: Session) => { executor: ClickHouseExecutor; settingsSent?: Array<Record<string, unknown>> }) {
  describe(`ClickHouseExecutor: ${name}`, () => {
    let chdb: ReturnType<typeof openChdb>
    let ex: ClickHouseExecutor
    let settingsSent: Array<Record<string, unknown>> | undefined
    beforeAll(() => {
      chdb = openChdb()
      ;({ executor: ex, settingsSent } = make(chdb.session))
    })
    afterAll(async () => {
      await ex.close()
      await chdb.close()
    })

    it('binds parameters by name and answers JSONCompact with 64-bit integers quoted', async () => {
      const r = await ex.query("select {a:String} as a, toInt64({b:Int64}) * 2 as b, toDateTime64('2026-01-01 00:00:00', 6) as t", { a: "x'y", b: 4 })
      expect(r.meta.map((m) => m.name)).toEqual(['a', 'b', 't'])
      expect(r.data).toEqual([["x'y", '8', '2026-01-01 00:00:00.000000']])
    })

    it('reads ISO 8601 texts as times, and aggregates over no rows as null', async () => {
      const r = await ex.query("select toDateTime64('2026-01-01 00:00:01', 6, 'UTC') > {t:String} as later, (select min(number) from numbers(0)) as m", { t: '2026-01-01T00:00:00.5Z' })
      expect(r.data).toEqual([[1, null]])
    })

    it('scopes names as SQL does: WHERE reads the column, not the alias of the same name', async () => {
      // number 0, 1, 2 selected as 1, 2, 3; WHERE number > 0 keeps the columns 1 and 2 (the alias would keep all three).
      const r = await ex.query('select number + 1 as number from numbers(3) where number > 0 order by number', {})
      expect(r.data).toEqual([['2'], ['3']])
    })

    it('runs commands and inserts rows as JSONEachRow', async () => {
      await ex.command('create table ex (id Int64, s String, n Nullable(Float64)) engine = MergeTree order by id', {})
      expect(await ex.insertRows('ex', ['id', 's', 'n'], [{ id: 1, s: 'a\nb"c', n: null }, { id: 2, s: '', n: 1.5 }])).toBe(2)
      expect(await ex.insertRows('ex', ['id', 's', 'n'], [])).toBe(0)
      const r = await ex.query('select id, s, n from ex order by id', {})
      expect(r.data).toEqual([['1', 'a\nb"c', null], ['2', '', 1.5]])
    })

    it('sends the session settings with every request, where requests share no session', () => {
      if (settingsSent === undefined) return // chDB: SET once on its session, checked by the results above
      expect(settingsSent).toHaveLength(5) // the four queries and the command above; inserts read no result
      for (const settings of settingsSent) expect(settings).toMatchObject({ output_format_json_quote_64bit_integers: 1, session_timezone: 'UTC', cast_string_to_date_time_mode: 'best_effort' })
    })
  })
}

executorContract('chDB', (session) => ({ executor: chdbExecutor(session) }))
executorContract('@clickhouse/client (answered by chDB)', (session) => {
  const settingsSent: Array<Record<string, unknown>> = []
  return { executor: clientExecutor(chdbBackedClient(session, settingsSent)), settingsSent }
})
