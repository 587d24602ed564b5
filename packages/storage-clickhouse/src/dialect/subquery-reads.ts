import { isName, isOther, isQuery, isWord, sqlTree, tableAt, type SqlGroup, type SqlItem, type SqlToken } from './sql-tree.js'

/**
 * The tables of a cluster a statement may read, by where their rows are:
 * `distributed`, Distributed tables (spread over the shards: `events`);
 * `initiator`, tables only the node running the statement has (its
 * temporary tables: the CTE tables of `cte-tables.ts`). Any other table is
 * taken to be whole on every node (the person copies, `table-copies.ts`).
 */
export interface ClusterTables {
  readonly distributed: ReadonlySet<string>
  readonly initiator: ReadonlySet<string>
}

/** What a table expression reads, of the two kinds that every node does not have whole. */
export interface Reads {
  readonly distributed: boolean
  readonly initiator: boolean
}

/**
 * A place where a query reads another table expression beside its FROM: a
 * `JOIN`'s right side, an `IN` operand (a subquery or a table), an
 * `EXISTS` subquery, or a source after a comma in FROM.
 */
export interface SubqueryRead {
  readonly kind: 'join' | 'in' | 'exists' | 'comma'
  /** Whether it is written GLOBAL. */
  readonly global: boolean
  /** Where `global ` would go: the JOIN's first modifier (`left`, `any`...), or the `not` or `in` of an IN. */
  readonly at: number
  /** The text from `at` to the operand's end, for messages. */
  readonly text: string
  /** What the operand reads. */
  readonly reads: Reads
  /**
   * Whether the query it is part of has a Distributed table itself in FROM:
   * ClickHouse then sends that query, with this operand, to every shard,
   * which evaluates the operand again (unless GLOBAL: then the node running
   * the statement evaluates it once and sends its rows to the shards).
   */
  readonly shardQuery: boolean
}

const NOTHING: Reads = { distributed: false, initiator: false }
const either = (a: Reads, b: Reads): Reads => ({ distributed: a.distributed || b.distributed, initiator: a.initiator || b.initiator })

// The words that may come between GLOBAL and JOIN (ClickHouse: [GLOBAL] [ANY|ALL|ASOF] [INNER|LEFT|RIGHT|FULL|CROSS|PASTE] [OUTER|SEMI|ANTI] JOIN).
const JOIN_MODIFIERS = new Set(['any', 'all', 'asof', 'inner', 'left', 'right', 'full', 'cross', 'paste', 'outer', 'semi', 'anti'])
// The words that end a FROM clause's list of sources.
const AFTER_SOURCES = new Set(['where', 'prewhere', 'group', 'order', 'having', 'limit', 'settings', 'window', 'qualify', 'union', 'except', 'intersect', 'format', 'join', 'array', 'global', ...JOIN_MODIFIERS])
const SET_OPERATORS = new Set(['union', 'except', 'intersect'])

/** CTE names in scope, and what each reads. */
type Scope = ReadonlyMap<string, Reads>

/**
 * Every `SubqueryRead` of a compiled statement (a query, or a statement
 * holding one: `create ... as select`, `describe (select ...)`), read
 * structurally (`sql-tree.ts`): each query's own FROM, JOINs and IN
 * operands, CTE names resolved to what their definitions read, literals
 * and quoted text never looked into.
 */
export function subqueryReads(sql: string, tables: ClusterTables): SubqueryRead[] {
  const found: SubqueryRead[] = []
  new Reader(sql, tables, found).statement(sqlTree(sql))
  return found
}

class Reader {
  constructor(
    private readonly sql: string,
    private readonly tables: ClusterTables,
    private readonly found: SubqueryRead[],
  ) {}

  statement(items: ReadonlyArray<SqlItem>): void {
    const start = items.findIndex((item) => isWord(item, 'select') || isWord(item, 'with'))
    for (const item of start < 0 ? items : items.slice(0, start)) this.nested(item, new Map())
    if (start >= 0) this.query(items.slice(start), new Map())
  }

  /** A query: an optional WITH list, then SELECTs joined by UNION, EXCEPT or INTERSECT. */
  query(items: ReadonlyArray<SqlItem>, outer: Scope): void {
    const { scope, rest } = this.withList(items, outer, true)
    let core: SqlItem[] = []
    for (const item of rest) {
      if (item.kind === 'word' && SET_OPERATORS.has(item.value)) {
        this.select(core, scope)
        core = []
      } else core.push(item)
    }
    this.select(core, scope)
  }

  /** The CTEs a WITH list at the start of `items` defines (each seeing the ones before it), and the items after it. */
  withList(items: ReadonlyArray<SqlItem>, outer: Scope, record: boolean): { scope: Scope; rest: ReadonlyArray<SqlItem> } {
    if (!isWord(items[0], 'with')) return { scope: outer, rest: items }
    const scope = new Map(outer)
    let i = 1
    for (;;) {
      const name = items[i]
      const body = items[i + 2]
      if (isName(name) && isWord(items[i + 1], 'as') && isQuery(body)) {
        if (record) this.query((body as SqlGroup).items, scope)
        scope.set(name.value, this.reads(body!, scope))
        i += 3
      } else {
        // `with <expression> as name`: not a table; its subqueries are queries of their own.
        while (i < items.length && !isWord(items[i], 'select') && !isOther(items[i], ',')) {
          if (record) this.nested(items[i]!, scope)
          i++
        }
      }
      if (isOther(items[i], ',')) i++
      else break
    }
    return { scope, rest: items.slice(i) }
  }

  /** One SELECT (or a parenthesised query standing for one). */
  select(items: ReadonlyArray<SqlItem>, scope: Scope): void {
    const from = items.findIndex((item) => isWord(item, 'from'))
    const source = from < 0 ? undefined : tableAt(items, from + 1)
    const shardQuery = isName(source) && !scope.has(source.value) && this.tables.distributed.has(source.value)
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!
      if (isWord(item, 'join') && !isWord(items[i - 1], 'array')) this.join(items, i, scope, shardQuery)
      else if (isOther(item, ',') && from >= 0 && i > from && this.inSources(items, from, i)) this.record('comma', false, item.start, tableAt(items, i + 1), scope, shardQuery)
      this.operands(item, items, i, scope, shardQuery)
      this.nested(item, scope)
    }
  }

  /** Whether the comma at `at` separates sources of the FROM at `from`. */
  inSources(items: ReadonlyArray<SqlItem>, from: number, at: number): boolean {
    for (let i = from + 1; i < at; i++) {
      const item = items[i]!
      if (item.kind === 'word' && AFTER_SOURCES.has(item.value)) return false
    }
    return true
  }

  join(items: ReadonlyArray<SqlItem>, at: number, scope: Scope, shardQuery: boolean): void {
    let first = at
    while (first > 0 && isName(items[first - 1]) && items[first - 1]!.kind === 'word' && JOIN_MODIFIERS.has((items[first - 1] as SqlToken).value)) first--
    this.record('join', isWord(items[first - 1], 'global'), items[first]!.start, tableAt(items, at + 1), scope, shardQuery)
  }

  /** IN and EXISTS at `items[i]`, and within the expression groups it holds (not within subqueries: those are queries of their own). */
  operands(item: SqlItem, items: ReadonlyArray<SqlItem>, i: number, scope: Scope, shardQuery: boolean): void {
    if (isWord(item, 'in')) {
      const operand = tableAt(items, i + 1)
      const names = isName(operand) && this.known(operand.value, scope)
      if (isQuery(operand) || names) {
        const not = isWord(items[i - 1], 'not')
        const global = isWord(items[i - (not ? 2 : 1)], 'global')
        this.record('in', global, items[not ? i - 1 : i]!.start, operand, scope, shardQuery)
      }
    } else if (isWord(item, 'exists') && isQuery(items[i + 1])) this.record('exists', false, item.start, items[i + 1], scope, shardQuery)
    else if (item.kind === 'group' && !isQuery(item)) item.items.forEach((inner: SqlItem, j: number) => this.operands(inner, item.items, j, scope, shardQuery))
  }

  /** The queries nested in `item`, each read as a query of its own. */
  nested(item: SqlItem, scope: Scope): void {
    if (item.kind !== 'group') return
    if (isQuery(item)) this.query(item.items, scope)
    else for (const inner of item.items) this.nested(inner, scope)
  }

  record(kind: SubqueryRead['kind'], global: boolean, at: number, operand: SqlItem | undefined, scope: Scope, shardQuery: boolean): void {
    if (operand === undefined) return
    this.found.push({ kind, global, at, text: this.sql.slice(at, operand.end), reads: this.reads(operand, scope), shardQuery })
  }

  known(name: string, scope: Scope): boolean {
    return scope.has(name) || this.tables.distributed.has(name) || this.tables.initiator.has(name)
  }

  /** What a table expression reads: a table or CTE by name, or every table a subquery reads (in FROM, JOIN or IN, at any depth). */
  reads(item: SqlItem, scope: Scope): Reads {
    if (item.kind === 'word' || item.kind === 'name') {
      const cte = scope.get(item.value)
      if (cte) return cte
      return { distributed: this.tables.distributed.has(item.value), initiator: this.tables.initiator.has(item.value) }
    }
    if (item.kind !== 'group') return NOTHING
    const { scope: inner, rest } = this.withList(item.items, scope, false)
    let reads = NOTHING
    rest.forEach((part, i) => {
      const previous = rest[i - 1]
      const names = (isWord(previous, 'from') || isWord(previous, 'join') || isWord(previous, 'in')) && isName(part)
      if (names) reads = either(reads, this.reads(tableAt(rest, i)!, inner))
      else if (part.kind === 'group') reads = either(reads, this.reads(part, inner))
    })
    return reads
  }
}
