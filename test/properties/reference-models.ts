/**
 * Independent reference models for the ingestion properties. They restate
 * PostHog's rules from its documentation and the conformance spec, small
 * enough to read at a glance; nothing here imports Sightline's internals.
 */

/** A JSON value as text with object keys sorted: equal texts mean equal values, whatever key order a database keeps. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    // Keys are read, never assigned, so a key such as `__proto__` stays an ordinary key.
    const entries = Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
    return `{${entries.join(',')}}`
  }
  return JSON.stringify(value)
}

/** One person as the models and the raw reads describe it, comparable with `toEqual`. */
export interface PersonShape {
  readonly distinctIds: ReadonlyArray<string>
  readonly isIdentified: boolean
}

export const sortPersons = (persons: PersonShape[]): PersonShape[] =>
  persons.map((p) => ({ distinctIds: [...p.distinctIds].sort(), isIdentified: p.isIdentified })).sort((a, b) => (a.distinctIds[0]! < b.distinctIds[0]! ? -1 : 1))

/**
 * `$merge_dangerously` is never refused, so the persons are the connected
 * components of the "merged with" graph, whatever the order of events. A
 * merged person is identified; a person only ever seen in plain events is not.
 */
export class UnionFind {
  readonly #parent = new Map<string, string>()

  add(id: string): void {
    if (!this.#parent.has(id)) this.#parent.set(id, id)
  }

  union(a: string, b: string): void {
    this.add(a)
    this.add(b)
    this.#parent.set(this.find(a), this.find(b))
  }

  find(id: string): string {
    let root = id
    while (this.#parent.get(root) !== root) root = this.#parent.get(root)!
    return root
  }

  persons(): PersonShape[] {
    const components = new Map<string, string[]>()
    for (const id of this.#parent.keys()) {
      const root = this.find(id)
      components.set(root, [...(components.get(root) ?? []), id])
    }
    return sortPersons([...components.values()].map((ids) => ({ distinctIds: ids, isIdentified: ids.length > 1 })))
  }
}

interface ModelPerson {
  readonly ids: Set<string>
  identified: boolean
}

/**
 * PostHog's `$identify` (docs: "Identifying users"; conformance spec
 * persons.cases.ts), applied event by event:
 * - an event for an unknown distinct id creates an anonymous person;
 * - `$identify` from `user` with `$anon_distinct_id: anon` (anon ≠ user):
 *   when neither has a person, one identified person gets both; when one side
 *   has a person, the other id joins it; when they have different persons,
 *   anon's person is merged into user's unless it is already identified (then
 *   nothing moves). In every case the resulting person is identified;
 * - `$identify` with anon = user is a plain event.
 */
export class IdentifyModel {
  readonly #personOf = new Map<string, ModelPerson>()

  event(id: string): void {
    if (!this.#personOf.has(id)) this.#create([id], false)
  }

  identify(user: string, anon: string): void {
    if (user === anon) return this.event(user)
    const target = this.#personOf.get(user)
    const source = this.#personOf.get(anon)
    if (!target && !source) {
      this.#create([user, anon], true)
      return
    }
    if (target && source && target !== source && !source.identified) {
      for (const id of source.ids) {
        target.ids.add(id)
        this.#personOf.set(id, target)
      }
    }
    const person = (target ?? source)!
    for (const id of [user, anon]) {
      if (this.#personOf.has(id)) continue
      person.ids.add(id)
      this.#personOf.set(id, person)
    }
    person.identified = true
  }

  #create(ids: string[], identified: boolean): void {
    const person: ModelPerson = { ids: new Set(ids), identified }
    for (const id of ids) this.#personOf.set(id, person)
  }

  persons(): PersonShape[] {
    return sortPersons([...new Set(this.#personOf.values())].map((p) => ({ distinctIds: [...p.ids], isIdentified: p.identified })))
  }
}

export type PropertyType = 'String' | 'Numeric' | 'Boolean'

/**
 * PostHog's property type inference for the values the definitions property
 * generates (keys that are not date-like, strings without digits so never
 * dates): numbers are Numeric, booleans and the strings true/false/TRUE/FALSE
 * (trimmed) Boolean, other strings String; null, arrays and objects say
 * nothing. The first value that says something wins, for good.
 */
export function inferredType(value: unknown): PropertyType | null {
  switch (typeof value) {
    case 'number':
      return 'Numeric'
    case 'boolean':
      return 'Boolean'
    case 'string':
      return ['true', 'false', 'TRUE', 'FALSE'].includes(value.trim()) ? 'Boolean' : 'String'
    default:
      return null
  }
}

/** Property names seen, in order, each with the type of its first typed value. */
export class DefinitionsModel {
  readonly types = new Map<string, PropertyType | null>()

  see(properties: Readonly<Record<string, unknown>>): void {
    for (const [name, value] of Object.entries(properties)) {
      if (!this.types.get(name)) this.types.set(name, inferredType(value))
    }
  }
}

/** U+0000 and unpaired surrogates: what a jsonb or UTF-8 text column cannot hold. */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** The value with every unstorable code unit, in keys and strings, replaced by U+FFFD (PostHog's sanitizeJsonbValue does this for Postgres). */
export function withReplacementCharacters<T>(value: T): T {
  if (typeof value === 'string') return value.replace(UNSTORABLE, '\ufffd') as T
  if (Array.isArray(value)) return value.map(withReplacementCharacters) as T
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [withReplacementCharacters(k), withReplacementCharacters(v)])) as T
  }
  return value
}
