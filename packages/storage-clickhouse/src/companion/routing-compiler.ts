import type { CompiledQuery, QueryCompiler, QueryId, RootOperationNode } from 'kysely'
import { chooseSpelling } from './dual-hooks.js'
import { readsClickHouse } from './clickhouse-tables.js'

/**
 * Compiles each statement for the store it runs on: reads of ClickHouse's
 * tables with ClickHouse's compiler, everything else with the companion's.
 * The statements compiled for ClickHouse are remembered in `clickhouseBound`,
 * which the routing connection reads to send each one to its store.
 */
export class RoutingCompiler implements QueryCompiler {
  constructor(
    private readonly clickhouse: QueryCompiler,
    private readonly companion: QueryCompiler,
    private readonly clickhouseBound: WeakSet<CompiledQuery>,
  ) {}

  compileQuery(node: RootOperationNode, queryId: QueryId): CompiledQuery {
    const forCompanion = this.companion.compileQuery(chooseSpelling(node, 'companion'), queryId)
    if (!readsClickHouse(node, forCompanion.sql)) return forCompanion
    const compiled = this.clickhouse.compileQuery(chooseSpelling(node, 'clickhouse'), queryId)
    this.clickhouseBound.add(compiled)
    return compiled
  }
}
