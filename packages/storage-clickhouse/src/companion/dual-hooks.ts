import type { Expression, OperationNode, RawNode } from 'kysely'
import type { SqlHooks } from '@sightline/core/storage'

/** Where a statement runs: ClickHouse, or the transactional companion store. */
export type Side = 'clickhouse' | 'companion'

/** The property of a dual node that holds its ClickHouse spelling. */
export const CLICKHOUSE_SPELLING: unique symbol = Symbol('sightline.clickhouse.spelling')

type DualNode = RawNode & { readonly [CLICKHOUSE_SPELLING]: OperationNode }

/**
 * Hooks that spell each fragment twice: the node is the companion's own
 * spelling (a RawNode wrapping it, so any compiler renders that one), and
 * carries the ClickHouse spelling beside it. `chooseSpelling` picks one when
 * the routing compiler knows where the statement runs. Both stores' hooks
 * are built eagerly, so a hook one store cannot spell throws at build time.
 *
 * The hooks are ClickHouse's: they serve the analyses, which read
 * ClickHouse's events and run there. An optional hook or flag only the
 * companion declares is left out (Postgres's `bucketIndex`: ClickHouse
 * has no such function, and an analysis asking for it failed); one only
 * ClickHouse declares keeps its spelling on both sides, the companion's
 * serving the routing compiler only, to see which tables a statement reads.
 */
export function dualHooks(clickhouse: SqlHooks, companion: SqlHooks): SqlHooks {
  type Hook = (...args: unknown[]) => Expression<unknown>
  const both =
    (name: keyof SqlHooks) =>
    (...args: unknown[]): Expression<any> =>
      dual((companion[name] as Hook)(...args), (clickhouse[name] as Hook)(...args))
  const hooks = {} as Record<keyof SqlHooks, unknown>
  for (const name of Object.keys(clickhouse) as Array<keyof SqlHooks>) {
    const [spelling, companionSpelling] = [clickhouse[name], companion[name]]
    if (typeof spelling !== 'function') hooks[name] = spelling
    else if (typeof companionSpelling === 'function') hooks[name] = both(name)
    else
      hooks[name] = (...args: unknown[]) => {
        const own = (spelling as Hook)(...args)
        return dual(own, own)
      }
  }
  return hooks as unknown as SqlHooks
}

function dual(companion: Expression<unknown>, clickhouse: Expression<unknown>): Expression<any> {
  const node: DualNode = Object.freeze({
    kind: 'RawNode',
    sqlFragments: Object.freeze(['', '']),
    parameters: Object.freeze([companion.toOperationNode()]),
    [CLICKHOUSE_SPELLING]: clickhouse.toOperationNode(),
  })
  return {
    get expressionType() {
      return undefined
    },
    toOperationNode: () => node,
  } as Expression<any>
}

/**
 * `node` with every dual fragment replaced by its spelling for `side`. Walks
 * plain objects and arrays only (Kysely's nodes); values such as Dates stay as they are.
 */
export function chooseSpelling<T extends OperationNode>(node: T, side: Side): T {
  return walk(node, side) as T
}

function walk(value: unknown, side: Side): unknown {
  if (Array.isArray(value)) {
    let changed = false
    const items = value.map((item) => {
      const next = walk(item, side)
      changed ||= next !== item
      return next
    })
    return changed ? Object.freeze(items) : value
  }
  if (!isPlainObject(value)) return value
  if (CLICKHOUSE_SPELLING in value) {
    const node = value as unknown as DualNode
    const chosen = side === 'clickhouse' ? node[CLICKHOUSE_SPELLING] : node.parameters[0]
    return walk(chosen, side)
  }
  let changed = false
  const entries = Object.entries(value).map(([key, item]) => {
    const next = walk(item, side)
    changed ||= next !== item
    return [key, next] as const
  })
  return changed ? Object.freeze(Object.fromEntries(entries)) : value
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
