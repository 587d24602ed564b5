/** One edge of a paths result, as PostHog answers it. */
export interface PathEdge {
  source: string
  target: string
  /** Session paths that took this step. */
  value: number
  /** Mean time from source to target, in milliseconds. */
  average_conversion_time: number
}

/**
 * PostHog's `validate_results`: of the edges kept by the limit, only those
 * whose source is reachable from a first node (`1_...`) through the kept
 * edges, in their order. The limit can cut a path's earlier steps; its later
 * steps would then float free of any start.
 */
export function reachableEdges(edges: ReadonlyArray<PathEdge>): PathEdge[] {
  const next = new Map<string, string[]>()
  const stack: string[] = []
  for (const e of edges) {
    next.set(e.source, [...(next.get(e.source) ?? []), e.target])
    if (e.source.startsWith('1_')) stack.push(e.source)
  }
  const seen = new Set<string>()
  while (stack.length > 0) {
    const node = stack.pop()!
    seen.add(node)
    for (const t of next.get(node) ?? []) if (!seen.has(t)) stack.push(t)
  }
  return edges.filter((e) => seen.has(e.source))
}
