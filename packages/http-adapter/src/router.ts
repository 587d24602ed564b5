/**
 * A small router: method + path pattern, `:param` segments, trailing slash
 * optional. A parameter may carry a pattern its segment must match in full,
 * `:id(\d+)`, as path-to-regexp spells it. When several patterns match a
 * path, the most specific wins (a literal segment beats a constrained
 * parameter, which beats a plain one, at the first place they differ), so
 * `/insights/trend/` is never taken for `/insights/:id/`.
 */

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'

export interface Routable {
  readonly method: Method
  readonly path: string
}

export type Lookup<R> =
  | { readonly kind: 'found'; readonly route: R; readonly params: Readonly<Record<string, string>> }
  | { readonly kind: 'method-not-allowed'; readonly allow: ReadonlyArray<string> }
  /** OPTIONS on a known path: the methods it allows and their routes. */
  | { readonly kind: 'options'; readonly allow: ReadonlyArray<string>; readonly routes: ReadonlyArray<R> }
  | { readonly kind: 'not-found' }

type Segment = { readonly literal: string } | { readonly param: string; readonly pattern: RegExp | null }

interface Pattern<R> {
  readonly segments: ReadonlyArray<Segment>
  readonly byMethod: Map<Method, R>
}

const PARAM = /^:([A-Za-z_][A-Za-z0-9_]*)(?:\((.+)\))?$/

function segmentOf(text: string): Segment {
  const param = PARAM.exec(text)
  if (!param) return { literal: text }
  return { param: param[1]!, pattern: param[2] === undefined ? null : new RegExp(`^(?:${param[2]})$`) }
}

/** Rank of a segment for specificity: a literal, then a constrained parameter, then any value. */
const rank = (s: Segment): number => ('literal' in s ? 2 : s.pattern ? 1 : 0)

const segmentsOf = (path: string): string[] => {
  const trimmed = path.endsWith('/') && path.length > 1 ? path.slice(0, -1) : path
  return trimmed.split('/').slice(1)
}

export function createRouter<R extends Routable>(routes: ReadonlyArray<R>): (method: string, path: string) => Lookup<R> {
  const patterns = new Map<string, Pattern<R>>()
  for (const route of routes) {
    const key = segmentsOf(route.path).join('/')
    let pattern = patterns.get(key)
    if (!pattern) {
      const segments = segmentsOf(route.path).map(segmentOf)
      pattern = { segments, byMethod: new Map() }
      patterns.set(key, pattern)
    }
    if (pattern.byMethod.has(route.method)) throw new Error(`duplicate route ${route.method} ${route.path}`)
    pattern.byMethod.set(route.method, route)
  }
  const all = [...patterns.values()]

  return (method, path) => {
    const parts = segmentsOf(path)
    let best: { pattern: Pattern<R>; params: Record<string, string> } | undefined
    for (const pattern of all) {
      const params = match(pattern, parts)
      if (params && (!best || moreSpecific(pattern, best.pattern))) best = { pattern, params }
    }
    if (!best) return { kind: 'not-found' }
    if (method === 'OPTIONS') return { kind: 'options', allow: allowed(best.pattern), routes: [...best.pattern.byMethod.values()] }
    // HEAD is answered as GET without a body, as Django does.
    const route = best.pattern.byMethod.get((method === 'HEAD' ? 'GET' : method) as Method)
    if (!route) return { kind: 'method-not-allowed', allow: allowed(best.pattern) }
    return { kind: 'found', route, params: best.params }
  }
}

function match<R>(pattern: Pattern<R>, parts: ReadonlyArray<string>): Record<string, string> | null {
  if (parts.length !== pattern.segments.length) return null
  const params: Record<string, string> = {}
  for (let i = 0; i < parts.length; i++) {
    const segment = pattern.segments[i]!
    const part = parts[i]!
    if ('literal' in segment) {
      if (segment.literal !== part) return null
    } else {
      if (part === '') return null
      let decoded: string
      try {
        decoded = decodeURIComponent(part)
      } catch {
        return null // malformed percent-encoding names nothing
      }
      if (segment.pattern && !segment.pattern.test(decoded)) return null
      params[segment.param] = decoded
    }
  }
  return params
}

function moreSpecific<R>(a: Pattern<R>, b: Pattern<R>): boolean {
  for (let i = 0; i < a.segments.length; i++) {
    const difference = rank(a.segments[i]!) - rank(b.segments[i]!)
    if (difference !== 0) return difference > 0
  }
  return false
}

function allowed<R>(pattern: Pattern<R>): string[] {
  const methods = [...pattern.byMethod.keys()] as string[]
  if (methods.includes('GET')) methods.push('HEAD')
  methods.push('OPTIONS')
  return methods
}
