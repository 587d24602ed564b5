/**
 * The paths reference, second half: edges and the persons behind them, from
 * the session paths of path-sessions.ts, as PostHog's `to_query`,
 * `validate_results` and `to_actors_query` compute them.
 */
import type { RefDataset } from '../shared/ref-dataset.js'
import { referencePathSessions, type RefPathOptions, type RefPathsParams, type RefSessionPath } from './path-sessions.js'

export interface RefEdge {
  source: string
  target: string
  value: number
  average_conversion_time: number
}

/** Code-point order (ClickHouse compares bytes; UTF-8 byte order is code-point order). */
export function codePointCompare(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!)
  const y = [...b].map((c) => c.codePointAt(0)!)
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!
  return x.length - y.length
}

/** `{result}` of a paths request: edges by count, weights, limit, then only those reachable from a `1_` node. */
export async function referencePaths(p: RefPathsParams, data: RefDataset, options: RefPathOptions = {}): Promise<RefEdge[]> {
  const sessions = await referencePathSessions(p, data, options)
  const edges = new Map<string, { source: string; target: string; count: number; sum: number }>()
  for (const { nodes } of sessions) {
    for (let j = 1; j < nodes.length; j++) {
      const source = `${j}_${nodes[j - 1]!.name}`
      const target = `${j + 1}_${nodes[j]!.name}`
      const key = JSON.stringify([source, target])
      const edge = edges.get(key) ?? { source, target, count: 0, sum: 0 }
      edge.count += 1
      edge.sum += nodes[j]!.micros - nodes[j - 1]!.micros
      edges.set(key, edge)
    }
  }
  const weighed = [...edges.values()].filter((e) => (!p.min_edge_weight || e.count >= p.min_edge_weight) && (!p.max_edge_weight || e.count <= p.max_edge_weight))
  weighed.sort((a, b) => b.count - a.count || codePointCompare(a.source, b.source) || codePointCompare(a.target, b.target))
  const limited = weighed.slice(0, p.edge_limit || 50)
  // Reachability: a walk from every `1_` source over the kept edges.
  const reached = new Set<string>()
  const todo = limited.filter((e) => e.source.startsWith('1_')).map((e) => e.source)
  while (todo.length > 0) {
    const node = todo.pop()!
    if (reached.has(node)) continue
    reached.add(node)
    for (const e of limited) if (e.source === node) todo.push(e.target)
  }
  return limited
    .filter((e) => reached.has(e.source))
    .map((e) => ({ source: e.source, target: e.target, value: e.count, average_conversion_time: e.sum / e.count / 1000 }))
}

/**
 * The persons behind a path (`to_actors_query`): each node of each session
 * is a row with `path_key` (`<i>_<name>`), `last_path_key` (the previous
 * node's key) and the session's `path_dropoff_key` (its last node's key).
 * `path_dropoff_key` selects rows where the session ends at it (and the row
 * is that last node); otherwise `path_start_key` matches `last_path_key`
 * and `path_end_key` `path_key`. Persons with how many rows matched.
 */
export async function referencePathActors(p: RefPathsParams, data: RefDataset, options: RefPathOptions = {}): Promise<Map<string, number>> {
  const sessions: RefSessionPath[] = await referencePathSessions(p, data, options)
  const counts = new Map<string, number>()
  for (const { person, nodes } of sessions) {
    const dropoff = `${nodes.length}_${nodes[nodes.length - 1]!.name}`
    nodes.forEach((node, i) => {
      const pathKey = `${i + 1}_${node.name}`
      const lastKey = i > 0 ? `${i}_${nodes[i - 1]!.name}` : null
      let matches: boolean
      if (p.path_dropoff_key) matches = dropoff === p.path_dropoff_key && dropoff === pathKey
      else matches = (!p.path_start_key || lastKey === p.path_start_key) && (!p.path_end_key || pathKey === p.path_end_key)
      if (matches) counts.set(person, (counts.get(person) ?? 0) + 1)
    })
  }
  return counts
}
