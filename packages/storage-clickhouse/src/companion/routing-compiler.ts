import type { CompiledQuery, QueryCompiler, QueryId, RootOperationNode } from 'kysely'
import { chooseSpelling } from './dual-hooks.js'
import { readsClickHouse } from './clickhouse-tables.js'
import { copiedTablesIn } from './copied-tables.js'

/**
 * Where a compiled statement runs. On ClickHouse, with the copied tables it
 * reads (refreshed first); on the companion, with the copied tables it may
 * change (a statement that is not a read).
 */
export type Route = { readonly side: 'clickhouse'; readonly reads: ReadonlySet<string> } | { readonly side: 'companion'; readonly writes: ReadonlySet<string> }

const NONE: ReadonlySet<string> = new Set()

/**
 * Compiles each statement for the store it runs on: reads of ClickHouse's
 * tables with ClickHouse's compiler, everything else with the companion's.
 * Each compiled statement's route is remembered in `routes`, which the
 * routing connection reads.
 */
export class RoutingCompiler implements QueryCompiler {
  constructor(
    private readonly clickhouse: QueryCompiler,
    private readonly companion: QueryCompiler,
    private readonly routes: WeakMap<CompiledQuery, Route>,
  ) {}

  compileQuery(node: RootOperationNode, queryId: QueryId): CompiledQuery {
    const forCompanion = this.companion.compileQuery(chooseSpelling(node, 'companion'), queryId)
    if (!readsClickHouse(node, forCompanion.sql)) {
      const read = node.kind === 'SelectQueryNode' || /^\s*\(?\s*(select|with)\b/i.test(forCompanion.sql)
      this.routes.set(forCompanion, { side: 'companion', writes: read ? NONE : copiedTablesIn(forCompanion.sql) })
      return forCompanion
    }
    const compiled = this.clickhouse.compileQuery(chooseSpelling(node, 'clickhouse'), queryId)
    this.routes.set(compiled, { side: 'clickhouse', reads: copiedTablesIn(forCompanion.sql) })
    return compiled
  }
}
